"""RULES.md §2 "Deck (108)", "Deal" and "First card turned up" (Classic)."""

from __future__ import annotations

from collections import Counter

import pytest

from services.engine.rules import (
    EventType,
    Kind,
    PendingKind,
    SetupError,
    events_for,
    new_game,
    view,
)
from services.engine.rules.actions import call_uno, choose_color, play
from services.engine.rules.state import GameState
from services.engine.rules.variants import get_variant
from tests.helpers.rules import (
    after,
    all_cards,
    deck_of,
    hand,
    of_type,
    ok,
    table,
    table_with_events,
)

# -- Deck -----------------------------------------------------------------------------------


def test_s2_deck_has_108_cards_of_the_right_composition() -> None:
    """RULES.md §2 "Deck (108)": per colour one 0, two each of 1-9, two +2, two R, two S;
    plus 4 W and 4 W+4."""
    deck = Counter(c.code for c in get_variant("classic").deck)
    assert sum(deck.values()) == 108
    expected: Counter[str] = Counter()
    for color in "RYGB":
        expected[color + "0"] = 1
        for n in range(1, 10):
            expected[f"{color}{n}"] = 2
        for symbol in ("+2", "R", "S"):
            expected[color + symbol] = 2
    expected["W"] = 4
    expected["W+4"] = 4
    assert deck == expected


# -- Deal -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 11))
def test_s2_deal_gives_seven_each_and_turns_up_one(players: int) -> None:
    """RULES.md §2 "Deal": 7 each, the top card of the draw pile starts the discard pile;
    nothing is created or lost."""
    state, events = new_game("classic", [f"P{i}" for i in range(players)], seed=players)
    sizes = [len(p.hand) for p in state.players]
    first = of_type(events, EventType.FIRST_CARD)[-1].data["card"]
    if first == "+2" or first.endswith("+2"):
        # The first player already drew two for a +2 turned up.
        sizes[(state.dealer + 1) % players] -= 2
    assert sizes == [7] * players
    assert all_cards(state) == deck_of(state)
    assert state.round == 1
    assert state.version == 0
    assert all(p.score == 0 for p in state.players)


def test_s2_deal_is_private_each_player_is_told_only_their_own_cards() -> None:
    """RULES.md §2 "Deal": each player learns their own seven, nobody else's."""
    state, events = new_game("classic", ["A", "B", "C"], seed=5)
    for seat in range(3):
        dealt = [e for e in events_for(events, seat) if e.type is EventType.DREW_CARDS]
        assert dealt and all(e.to == seat for e in dealt)
        assert Counter(dealt[0].data["cards"]) == Counter(c.code for c in state.hand(seat)[:7])
    assert not [e for e in events_for(events, None) if e.type is EventType.DREW_CARDS]


def test_s2_dealer_is_chosen_at_random_by_the_seed() -> None:
    """RULES.md §2 "Deal" [digital]: the dealer is chosen at random by the seeded RNG:
    the same seed gives the same dealer and every seat can deal."""
    dealers = {new_game("classic", list("ABCD"), seed=s)[0].dealer for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    for s in range(10):
        assert new_game("classic", list("ABCD"), seed=s)[0].dealer == (
            new_game("classic", list("ABCD"), seed=s)[0].dealer
        )


def test_s2_same_seed_same_deal_other_seed_other_deal() -> None:
    a = new_game("classic", list("ABC"), seed=42)[0]
    b = new_game("classic", list("ABC"), seed=42)[0]
    c = new_game("classic", list("ABC"), seed=43)[0]
    assert a == b
    assert a.players != c.players


def _seed_with_number_first_card(players: int) -> tuple[int, GameState]:
    for seed in range(100):
        state, events = new_game("classic", [f"P{i}" for i in range(players)], seed=seed)
        first = of_type(events, EventType.FIRST_CARD)[-1].data["card"]
        if first[-1].isdigit() and "+" not in first:
            return seed, state
    raise AssertionError("no seed turned up a number")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_s2_player_to_the_dealers_left_starts_clockwise(players: int) -> None:
    """RULES.md §2 "Deal": the player to the dealer's left starts; play goes clockwise."""
    _, state = _seed_with_number_first_card(players)
    first = (state.dealer + 1) % players
    assert state.pending is not None
    assert state.pending.kind is PendingKind.TURN
    assert state.pending.player == first
    assert state.direction == 1


def test_s2_too_few_or_too_many_players_is_refused() -> None:
    """RULES.md header: 2-10 players."""
    with pytest.raises(SetupError):
        new_game("classic", ["A"], seed=1)
    with pytest.raises(SetupError):
        new_game("classic", [f"P{i}" for i in range(11)], seed=1)


def test_s2_every_variant_takes_two_to_ten_players(variant_name: str) -> None:
    """RULES.md header "Players: 2–10 (No Mercy: 2–6 on the box; allow up to 10)": every
    variant deals 7 each to 2 and to 10 players, and refuses 1 or 11."""
    for players in (2, 10):
        state, _ = new_game(variant_name, [f"P{i}" for i in range(players)], seed=4)
        assert [len(p.hand) for p in state.players] == [7] * players
        assert all_cards(state) == deck_of(state)
    for players in (1, 11):
        with pytest.raises(SetupError, match="2–10 players"):
            new_game(variant_name, [f"P{i}" for i in range(players)], seed=4)


def test_s2_next_round_is_dealt_by_the_seat_to_the_left() -> None:
    """RULES.md §2 "Deal" [digital] and "Scoring": after a round short of the target, the
    deal passes to the left and a fresh round of 7 each starts."""
    found = 0
    for seed in range(40):
        state = table(["R1", "G3 G4", "B4 B5"], discard="R9", dealer=2, current=0, seed=seed)
        result = ok(state, play(0, "R1"))
        new = result.state
        assert new.round == 2
        assert new.dealer == 0  # seat 2 dealt round 1; its left (seat 0) deals round 2
        started = of_type(result.events, EventType.ROUND_STARTED)
        assert [e.data for e in started] == [{"round": 2, "dealer": 0}]
        assert all_cards(new) == deck_of(new)
        assert new.players[0].score == 3 + 4 + 4 + 5
        first = of_type(result.events, EventType.FIRST_CARD)[-1].data["card"]
        if first[-1].isdigit() and "+" not in first:
            assert [len(p.hand) for p in new.players] == [7, 7, 7]
            assert new.pending is not None and new.pending.player == 1
            found += 1
    assert found


# -- First card turned up (round about to start: empty discard pile) -------------------------

HANDS3 = ["R1 G2", "Y3 B4", "G5 Y6"]


def test_s2_first_card_number_first_player_plays_it() -> None:
    """RULES.md §2 "First card turned up": a number just starts the pile; the player to the
    dealer's left plays on it."""
    state, events = table_with_events(HANDS3, draw_pile="B7 R8 R9")
    assert hand(state, 0) == ["R1", "G2"]
    assert [c.code for c in state.discard] == ["B7"]
    assert [c.code for c in state.draw_pile] == ["R8", "R9"]
    assert state.color is not None and state.color.value == "B"
    assert state.pending is not None and state.pending.player == 1
    assert state.pending.kind is PendingKind.TURN
    assert of_type(events, EventType.FIRST_CARD)[0].data == {"card": "B7"}


def test_s2_first_card_draw_two_first_player_draws_two_and_loses_turn() -> None:
    """RULES.md §2 "First card turned up": +2: the first player draws 2 and loses the turn."""
    state, events = table_with_events(HANDS3, draw_pile="G+2 R8 R9 B1")
    assert hand(state, 1) == ["Y3", "B4", "R8", "R9"]
    assert [c.code for c in state.draw_pile] == ["B1"]
    assert state.pending is not None and state.pending.player == 2
    assert state.color is not None and state.color.value == "G"
    assert of_type(events, EventType.SKIPPED)[0].data == {"player": 1}


def test_s2_first_card_draw_two_with_two_players_dealer_plays_first() -> None:
    """RULES.md §2 "First card turned up": +2 with two players: the non-dealer draws two and
    loses the turn, so the dealer plays."""
    state = table(["R1 G2", "Y3 B4"], draw_pile="G+2 R8 R9 B1", dealer=0)
    assert hand(state, 1) == ["Y3", "B4", "R8", "R9"]
    assert state.pending is not None and state.pending.player == 0


def test_s2_first_card_skip_first_player_is_skipped() -> None:
    """RULES.md §2 "First card turned up": S: the first player is skipped."""
    state, events = table_with_events(HANDS3, draw_pile="YS R8", dealer=1)
    assert state.pending is not None and state.pending.player == 0  # seat 2 skipped
    assert of_type(events, EventType.SKIPPED)[0].data == {"player": 2}
    assert [len(p.hand) for p in state.players] == [2, 2, 2]


def test_s2_first_card_skip_with_two_players_dealer_plays_first() -> None:
    """RULES.md §2 "First card turned up": S with two players: the dealer plays first."""
    state = table(["R1 G2", "Y3 B4"], draw_pile="YS R8", dealer=1)
    assert state.pending is not None and state.pending.player == 1


def test_s2_first_card_reverse_dealer_plays_first_then_other_way() -> None:
    """RULES.md §2 "First card turned up": R: the dealer plays first, then play goes the
    other way (to the dealer's right)."""
    state, events = table_with_events(["B1 G2", "R3 B4", "G5 Y6", "Y7 Y8"], draw_pile="BR R8")
    assert state.direction == -1
    assert state.pending is not None and state.pending.player == 0
    assert EventType.REVERSED in [e.type for e in events]
    state = after(state, play(0, "B1"))
    assert state.pending is not None and state.pending.player == 3


def test_s2_first_card_reverse_with_two_players_dealer_plays_first() -> None:
    """RULES.md §2 "First card turned up": R with two players: the dealer plays first, then
    the other player."""
    state = table(["B1 G2", "R3 B4"], draw_pile="BR R8", dealer=1)
    assert state.pending is not None and state.pending.player == 1
    state = after(state, play(1, "B4"))
    assert state.pending is not None and state.pending.player == 0


def test_s2_first_card_wild_first_player_chooses_colour_then_plays() -> None:
    """RULES.md §2 "First card turned up": W: the first player chooses the colour, then
    plays."""
    state = table(HANDS3, draw_pile="W R8")
    assert state.pending is not None
    assert state.pending.kind is PendingKind.CHOOSE_COLOR
    assert state.pending.player == 1
    assert state.color is None
    state = after(state, choose_color(1, "B"))
    assert state.color is not None and state.color.value == "B"
    assert state.pending is not None
    assert state.pending.kind is PendingKind.TURN and state.pending.player == 1
    state = after(state, play(1, "B4"))
    assert state.pending is not None and state.pending.player == 2


def test_s2_first_card_wild_draw_four_is_put_back_and_another_turned_up() -> None:
    """RULES.md §2 "First card turned up": W+4: put it back in the draw pile, reshuffle,
    turn up another."""
    for seed in range(20):
        state, events = table_with_events(HANDS3, draw_pile="W+4 R8 G9 W+4", seed=seed)
        assert state.top.code in ("R8", "G9")
        assert state.top.light.kind is not Kind.WILD_DRAW4
        assert Counter(c.code for c in state.draw_pile) == Counter(
            {"R8": 1, "G9": 1, "W+4": 2}
        ) - Counter({state.top.code: 1})
        assert EventType.RESHUFFLED in [e.type for e in events]
        assert state.pending is not None and state.pending.player == 1
        assert state.pending.kind is PendingKind.TURN


def test_s2_first_card_wild_draw_four_redraw_order_follows_the_seed() -> None:
    """RULES.md §2 [digital]: the reshuffle after a W+4 turned up is the seeded RNG's."""
    tops = {table(HANDS3, draw_pile="W+4 R8 G9 B1 Y2 W+4 R3", seed=s).top.code for s in range(30)}
    assert len(tops) > 1
    assert "W+4" not in tops


def test_s2_uno_call_available_on_the_first_turn_with_two_cards() -> None:
    """RULES.md §2 "UNO": a player holding two cards may call on their turn."""
    state = table(HANDS3, draw_pile="B7 R8")
    assert call_uno(1) in view(state, 1).legal
    assert ok(state, call_uno(1)).state.players[1].declared_uno


def test_s2_first_card_rules_keep_every_card() -> None:
    """No first-card rule creates or loses a card."""
    for pile in ("G+2 R8 R9", "YS R8", "BR R8", "W R8", "W+4 R8 G9"):
        state = table(HANDS3, draw_pile=pile)
        assert sum(len(p.hand) for p in state.players) + len(state.draw_pile) + len(
            state.discard
        ) == 6 + len(pile.split())
