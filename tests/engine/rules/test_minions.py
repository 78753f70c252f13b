"""RULES.md §6 Minions: Classic's 108 with themed wilds (Rainbow W, Wild Banana W+4) plus
4 Dumb Fu (WDF) that freeze the next player until their turn comes round again."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from services.engine.rules import (
    Action,
    ActionType,
    Applied,
    EventType,
    GameState,
    Kind,
    Options,
    PendingKind,
    Reason,
    apply,
    from_json,
    legal_actions,
    new_game,
    to_json,
    view,
)
from services.engine.rules.actions import (
    call_uno,
    catch,
    challenge,
    choose_color,
    draw,
    frozen_moved,
    play,
)
from services.engine.rules.variants import get_variant
from services.engine.rules.variants.minions import breaks_freeze
from tests.helpers.rules import (
    added_to_classic,
    after,
    all_cards,
    assert_classic_apart_from,
    deck_of,
    examples,
    of_type,
    ok,
    refused,
    table,
)

MINIONS = "minions"
DRAW_PILE = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9"


def frozen(state: GameState) -> list[int]:
    return [seat for seat, p in enumerate(state.players) if p.frozen]


def minions(hands: list[str], discard: str = "R0", **kw: object) -> GameState:
    kw.setdefault("draw_pile", DRAW_PILE)
    kw.setdefault("current", 0)
    return table(hands, discard=discard, variant=MINIONS, **kw)  # type: ignore[arg-type]


def three_players_p1_frozen() -> GameState:
    """Seat 0 has just played a Dumb Fu (colour red): seat 1 is frozen and owes a turn."""
    state = minions(["WDF R1 R2 R3 RS R+2", "R4 R5 R6 RS B7", "R7 R8 R9 R+2 RR"])
    return after(state, play(0, "WDF"), choose_color(0, "R"))


# -- Deck, names, scoring ---------------------------------------------------------------------


def test_s6_deck_is_classic_plus_four_dumb_fu() -> None:
    """RULES.md §6 "Deck (112)": Classic's 108 + 4 Dumb Fu (WDF)."""
    assert len(get_variant(MINIONS).deck) == 112
    assert added_to_classic(MINIONS) == Counter({"WDF": 4})


def test_s6_everything_else_is_classic_500_wins_alternate_scoring_as_classic() -> None:
    """RULES.md §6: Classic's 108 with Classic's rules (the Wild Banana's challenge
    included); "500 wins; alternate scoring as Classic"; only the Dumb Fu is Minions' own."""
    assert_classic_apart_from(MINIONS, {Kind.WILD_DUMB_FU})


def test_s6_themed_names_rainbow_wild_banana_dumb_fu() -> None:
    """RULES.md §1 and §6: Rainbow is W, Wild Banana is W+4 (display only)."""
    names = get_variant(MINIONS).themed_names
    assert names[Kind.WILD] == "Rainbow"
    assert names[Kind.WILD_DRAW4] == "Wild Banana"
    assert names[Kind.WILD_DUMB_FU] == "Dumb Fu"


def test_s6_scoring_w_w4_wdf_fifty_actions_twenty() -> None:
    """RULES.md §6 "Scoring": numbers face value; +2, R, S 20; W, W+4, WDF 50."""
    state = minions(["B1", "W W+4 WDF", "R+2 RR RS R7"], discard="B5")
    result = ok(state, play(0, "B1"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["points"] == [0, 150, 67]
    assert result.state.players[0].score == 217


# -- Wild Banana ----------------------------------------------------------------------------


def test_s6_wild_banana_challenge_guilty_player_draws_four() -> None:
    """RULES.md §6 "W+4 (Wild Banana)": guilty (held the colour), its player draws 4 and
    the challenger plays on."""
    state = minions(["W+4 R1", "B1 B2", "G1 G2"])
    state = after(state, play(0, "W+4"), choose_color(0, "B"), challenge(1))
    assert len(state.hand(0)) == 5
    assert len(state.hand(1)) == 2
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 1)


def test_s6_wild_banana_challenge_innocent_challenger_draws_six() -> None:
    """RULES.md §6 "W+4 (Wild Banana)": innocent, the challenger draws 6 and loses the
    turn."""
    state = minions(["W+4 B1", "B1 B2", "G1 G2"])
    state = after(state, play(0, "W+4"), choose_color(0, "G"), challenge(1))
    assert len(state.hand(1)) == 8
    assert state.pending is not None and state.pending.player == 2


# -- Dumb Fu --------------------------------------------------------------------------------


def test_s6_dumb_fu_is_a_wild_then_the_next_player_is_frozen_and_plays_as_usual() -> None:
    """RULES.md §6 "WDF": a wild, its player chooses the colour; the next player is frozen
    from that moment and takes the turn about to start as usual."""
    state = minions(["WDF R1 R2", "R4 R5 R6", "R7 R8 R9"])
    assert "p.WDF" in view(state, 0).legal_codes
    state = after(state, play(0, "WDF"))
    assert state.pending is not None and state.pending.kind is PendingKind.CHOOSE_COLOR
    assert frozen(state) == []  # not before the card takes effect
    result = ok(state, choose_color(0, "Y"))
    state = result.state
    assert frozen(state) == [1]
    assert [e.data["player"] for e in of_type(result.events, EventType.FROZEN)] == [1]
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 1)
    assert len(state.hand(1)) == 3  # no cards drawn: freezing is the whole effect
    assert state.color is not None and state.color.value == "Y"


def test_s6_dumb_fu_freeze_lasts_until_the_start_of_the_turn_after() -> None:
    """RULES.md §6 "WDF": frozen through the turn about to start, and until the start of
    the turn after it."""
    state = three_players_p1_frozen()
    state = after(state, play(1, "R4"))  # the frozen player's own move is free
    assert frozen(state) == [1]
    state = after(state, play(2, "R7"))
    assert frozen(state) == [1]
    result = ok(state, play(0, "R1"))  # seat 1's next turn starts
    assert frozen(result.state) == []
    assert [e.data["player"] for e in of_type(result.events, EventType.UNFROZEN)] == [1]
    turn = [e.type for e in result.events if e.type in (EventType.TURN, EventType.UNFROZEN)]
    assert turn == [EventType.UNFROZEN, EventType.TURN]


def test_s6_dumb_fu_a_skipped_turn_does_not_end_the_freeze() -> None:
    """RULES.md §6 "WDF" [decision freeze-skipped-turn]: a turn that is skipped (S) never
    starts, so the frozen player stays frozen until a turn of theirs does start."""
    state = three_players_p1_frozen()
    state = after(state, play(1, "R4"), play(2, "R7"), play(0, "RS"))
    assert state.pending is not None and state.pending.player == 2
    assert frozen(state) == [1]
    state = after(state, play(2, "R8"), play(0, "R2"))
    assert state.pending is not None and state.pending.player == 1
    assert frozen(state) == []


def test_s6_dumb_fu_losing_a_turn_to_a_draw_two_does_not_end_the_freeze() -> None:
    """RULES.md §6 "WDF" [decision freeze-skipped-turn]: the victim of a +2 draws and loses the
    turn; that turn never starts, so the freeze goes on."""
    state = minions(["WDF R+2 R2 R3", "R4 R5 R6", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R4"), play(2, "R7"))
    state = after(state, play(0, "R+2"))
    assert len(state.hand(1)) == 4
    assert frozen(state) == [1]
    assert state.pending is not None and state.pending.player == 2


def test_s6_dumb_fu_lost_challenge_keeps_and_won_challenge_ends_the_freeze() -> None:
    """RULES.md §6 "WDF" with §6 Wild Banana: a frozen challenger proven wrong loses the
    turn (still frozen); one proven right takes their turn normally (unfrozen)."""
    # Innocent: seat 0 holds no green when the W+4 is played.
    state = minions(["WDF W+4 R2 R3", "R4 R5 R6", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "G"), draw(1))
    assert state.pending is not None and state.pending.player == 2
    state = after(state, draw(2))
    assert frozen(state) == [1]
    state = after(state, play(0, "W+4"), choose_color(0, "B"))
    assert state.pending is not None and state.pending.kind is PendingKind.RESPOND_TO_DRAW
    assert frozen(state) == [1]  # answering a draw card is not a turn starting
    innocent = after(state, challenge(1))
    assert frozen(innocent) == [1]
    # Guilty: the same, but seat 0 holds green (the colour in play) when playing it.
    state = minions(["WDF W+4 G2 R3", "R4 R5 R6", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "G"), draw(1), draw(2))
    state = after(state, play(0, "W+4"), choose_color(0, "B"))
    guilty = after(state, challenge(1))
    assert guilty.pending is not None and guilty.pending.player == 1
    assert frozen(guilty) == []


def test_s6_dumb_fu_reverse_brings_the_next_turn_round_sooner() -> None:
    """RULES.md §6 "WDF" with a reverse: the freeze ends at the start of the frozen
    player's next turn, whichever way play reaches them."""
    state = minions(["WDF RR R2 R3", "R4 R5 R6", "R7 R8 R9", "R1 R1 R1"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R4"))
    assert state.pending is not None and state.pending.player == 2
    state = after(state, play(2, "R7"), play(3, "R1"))
    assert frozen(state) == [1]
    state = after(state, play(0, "RR"))  # play turns back toward seat 3, not seat 1
    assert state.pending is not None and state.pending.player == 3
    assert frozen(state) == [1]
    # Reverse from the frozen player: the next turn is the player before them.
    state = minions(["WDF R2 R3 R9", "RR R5 R6", "R7 R8 R9", "R1 R1 RR"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "RR"))
    assert state.pending is not None and state.pending.player == 0
    state = after(state, play(0, "R2"), play(3, "RR"))  # back the other way: 3 → 0
    assert state.pending is not None and state.pending.player == 0
    state = after(state, play(0, "R3"))
    assert state.pending is not None and state.pending.player == 1
    assert frozen(state) == []


def test_s6_dumb_fu_two_players() -> None:
    """RULES.md §6 "WDF" with two players: frozen through one turn, until the start of
    the next; a Reverse (acting as Skip) gives the frozen player that next turn at once."""
    state = minions(["WDF R1 R2", "R4 R5 RR"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"))
    assert frozen(state) == [1]
    state = after(state, play(1, "R4"), play(0, "R1"))
    assert frozen(state) == []
    state = minions(["WDF R1 R2", "R4 R5 RR"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"))
    result = ok(state, play(1, "RR"))
    assert result.state.pending is not None and result.state.pending.player == 1
    assert frozen(result.state) == []


def test_s6_dumb_fu_several_players_frozen_at_once() -> None:
    """RULES.md §6 "WDF": a frozen player's own Dumb Fu freezes the next player too, and
    each freeze ends at the start of its own player's next turn."""
    state = minions(["WDF R1 R2", "WDF R5 R6", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "WDF"))
    state = after(state, choose_color(1, "R"))
    assert frozen(state) == [1, 2]
    assert [s.frozen for s in view(state, 0).seats] == [False, True, True]
    state = after(state, play(2, "R7"), play(0, "R1"))
    assert frozen(state) == [2]
    state = after(state, play(1, "R5"))
    assert frozen(state) == []


def test_s6_dumb_fu_on_a_frozen_player_starts_the_freeze_again() -> None:
    """RULES.md §6 "WDF": a new Dumb Fu on a player already frozen freezes them through the
    turn now starting and until the start of the one after it."""
    state = minions(["WDF WDF R2 R3", "R4 R5 R6", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R4"), play(2, "R7"))
    state = after(state, play(0, "WDF"), choose_color(0, "R"))
    assert frozen(state) == [1]
    state = after(state, play(1, "R5"), play(2, "R8"), play(0, "R2"))
    assert frozen(state) == []


def test_s6_dumb_fu_moving_costs_four_cards_once() -> None:
    """RULES.md §6 "WDF" [digital]: a frozen player's message or button use that is not a
    decision they owe costs 4 cards, once (the service reports it as ``fm.<seat>``)."""
    state = three_players_p1_frozen()
    state = after(state, play(1, "R4"))
    result = ok(state, frozen_moved(1))
    assert len(result.state.hand(1)) == 4 + 4
    assert [e.data["player"] for e in of_type(result.events, EventType.FROZEN_PENALTY)] == [1]
    assert frozen(result.state) == []
    # The decision owed is untouched.
    assert result.state.pending == state.pending
    refused(result.state, frozen_moved(1), Reason.NOT_FROZEN)


def test_s6_dumb_fu_moved_is_a_system_action_only() -> None:
    """RULES.md §6 "WDF" [digital]: only the service reports a frozen player moving;
    legal_actions never offers it to a player."""
    state = three_players_p1_frozen()
    for seat in range(3):
        assert all(a.type is not ActionType.FROZEN_MOVED for a in legal_actions(state, seat))
        refused(state, Action(ActionType.FROZEN_MOVED, seat, target=1), Reason.SYSTEM_ONLY)
    refused(state, frozen_moved(0), Reason.NOT_FROZEN)
    refused(state, frozen_moved(7), Reason.BAD_TARGET)


def test_s6_dumb_fu_frozen_player_caught_stays_frozen() -> None:
    """RULES.md §6 "WDF" with §2 "UNO": being caught is not the frozen player's move: they
    draw 2 and stay frozen."""
    state = minions(["WDF R1 R2", "R4 R5", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R4"))
    assert state.uno_window == 1
    state = after(state, catch(0, 1))
    assert len(state.hand(1)) == 3
    assert frozen(state) == [1]


def test_s6_dumb_fu_frozen_players_catch_still_happens_and_costs_four() -> None:
    """RULES.md §6 "WDF" [decision frozen-call-or-catch]: a frozen player's catch still
    happens (the caught player draws 2), then costs the catcher the 4 cards and ends the
    freeze; the decision owed is untouched."""
    state = minions(["WDF R1 R2", "R4 R5 R6", "R7 R8"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R4"), play(2, "R7"))
    assert frozen(state) == [1]
    assert state.uno_window == 2
    result = ok(state, catch(1, 2))
    assert [e.type for e in result.events][:2] == [EventType.CAUGHT, EventType.DREW]
    assert [e.data["player"] for e in of_type(result.events, EventType.FROZEN_PENALTY)] == [1]
    assert len(result.state.hand(2)) == 1 + 2
    assert len(result.state.hand(1)) == 2 + 4
    assert frozen(result.state) == []
    assert result.state.pending == state.pending


def test_s6_dumb_fu_frozen_players_uno_call_still_happens_and_costs_four() -> None:
    """RULES.md §6 "WDF" [decision frozen-call-or-catch]: a frozen player's UNO call, with
    their own play or in their window, is called (the chat hears it), then costs the 4 cards
    like any other move; the freeze ends with it."""
    state = minions(["WDF R1 R2", "R4 R5", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"))
    assert frozen(state) == [1]
    result = ok(state, call_uno(1))  # with two cards, before their own play
    assert [e.type for e in result.events][:2] == [EventType.UNO_CALLED, EventType.FROZEN_PENALTY]
    assert len(result.state.hand(1)) == 2 + 4
    assert frozen(result.state) == []
    assert result.state.pending == state.pending  # their turn is still theirs to play
    window = after(state, play(1, "R4"))
    assert window.uno_window == 1 and frozen(window) == [1]
    result = ok(window, call_uno(1))  # in their window, while seat 2 owes the turn
    assert of_type(result.events, EventType.UNO_CALLED)
    assert of_type(result.events, EventType.FROZEN_PENALTY)
    assert len(result.state.hand(1)) == 1 + 4
    assert result.state.uno_window is None
    assert frozen(result.state) == []
    # Not calling costs nothing until somebody catches them.
    assert len(after(window, play(2, "R7")).hand(1)) == 1


def test_s6_dumb_fu_frozen_players_jump_in_still_happens_and_costs_four() -> None:
    """RULES.md §6 "WDF" [digital] with §2 Jump-In: jumping in is no decision a frozen
    player owes: the card is played and play goes on from them, then it costs 4 cards."""
    state = minions(["WDF R1 R2", "R7 R5 R6", "R7 R8 R9"], options=Options(jump_in=True))
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R5"), play(2, "R7"))
    assert frozen(state) == [1]
    result = ok(state, play(1, "R7"))
    assert of_type(result.events, EventType.FROZEN_PENALTY)
    assert len(result.state.hand(1)) == 1 + 4
    assert result.state.pending is not None and result.state.pending.player == 2


def test_s6_dumb_fu_round_ending_unfreezes_everyone() -> None:
    """RULES.md §6 "WDF": a round's end ends every freeze; the next round starts with
    nobody frozen and nothing left to penalise."""
    state = minions(["WDF R1", "R4 R5 R6", "R7 R8 R9"])
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R4"), play(2, "R7"))
    assert frozen(state) == [1]
    result = ok(state, play(0, "R1"))
    assert of_type(result.events, EventType.ROUND_ENDED)
    assert result.state.round == 2
    assert frozen(result.state) == []
    refused(result.state, frozen_moved(1), Reason.NOT_FROZEN)


def test_s6_dumb_fu_as_last_card_freezes_nobody() -> None:
    """RULES.md §2 "End of a round" with §6: only draw cards act after the last card; a
    final Dumb Fu freezes nobody."""
    state = minions(["WDF", "R4 R5 R6", "R7 R8 R9"])
    result = ok(state, play(0, "WDF"))
    assert of_type(result.events, EventType.ROUND_ENDED)
    assert not of_type(result.events, EventType.FROZEN)
    assert frozen(result.state) == []


def test_s6_dumb_fu_as_first_card_first_player_chooses_and_nobody_is_frozen() -> None:
    """RULES.md §6 "WDF": as the first card, the first player chooses the colour (then
    plays) and nobody is frozen."""
    state = table(["R1 R2", "B1 B2", "G1 G2"], draw_pile="WDF Y7 Y8", variant=MINIONS)
    assert state.top.code == "WDF"
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.CHOOSE_COLOR, 1)
    state = after(state, choose_color(1, "B"))
    assert frozen(state) == []
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 1)


@pytest.mark.parametrize("dealer", [0, 2])
def test_s6_first_rainbow_the_player_left_of_the_dealer_names_the_colour(dealer: int) -> None:
    """RULES.md §6 [decision first-rainbow]: a Rainbow (W) turned up first is named by the
    player left of the dealer, who then plays first, as every first wild."""
    state = table(["R1 R2", "B1 B2", "G1 G2"], draw_pile="W Y7 Y8", variant=MINIONS, dealer=dealer)
    first = (dealer + 1) % 3
    assert state.top.code == "W"
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.CHOOSE_COLOR, first)
    for seat in range(3):
        if seat != first:
            refused(state, choose_color(seat, "B"), Reason.NOT_YOUR_TURN)
    state = after(state, choose_color(first, "G"))
    assert state.color is not None and state.color.value == "G"
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, first)
    assert frozen(state) == []


def test_s6_dumb_fu_frozen_seat_is_in_every_view_and_survives_json() -> None:
    """RULES.md §6 "WDF" [digital]: every view (spectators too) shows who is frozen; the
    freeze survives a round trip through the store's JSON."""
    state = three_players_p1_frozen()
    for viewer in (None, 0, 1, 2):
        assert [s.frozen for s in view(state, viewer).seats] == [False, True, False]
    back = from_json(to_json(state))
    assert back == state
    assert frozen(after(back, play(1, "R4"), play(2, "R7"), play(0, "R1"))) == []


def test_s6_breaks_freeze_owed_decisions_are_free_everything_else_costs() -> None:
    """RULES.md §6 "WDF" [digital] [decision frozen-call-or-catch]: the frozen player's own
    move, colour and challenge answer are free; a catch, a jump-in and an UNO call (even for
    their own play) are moving."""
    state = three_players_p1_frozen()
    assert breaks_freeze(state, play(1, "R4")) is False
    assert breaks_freeze(state, draw(1)) is False
    assert breaks_freeze(state, catch(1, 0)) is True
    assert breaks_freeze(state, play(0, "R1")) is False  # seat 0 is not frozen
    after_play = after(state, play(1, "R4"))
    assert breaks_freeze(after_play, play(1, "R5")) is True  # out of turn
    two_left = minions(["WDF R1 R2", "R4 R5", "R7 R8 R9"])
    two_left = after(two_left, play(0, "WDF"), choose_color(0, "R"))
    assert breaks_freeze(two_left, call_uno(1)) is True
    window = after(two_left, play(1, "R4"))
    assert window.uno_window == 1
    assert breaks_freeze(window, call_uno(1)) is True
    jump = minions(["WDF R1 R2", "R7 R5 R6", "R7 R8 R9"], options=Options(jump_in=True))
    jump = after(jump, play(0, "WDF"), choose_color(0, "R"), play(1, "R5"), play(2, "R7"))
    assert jump.pending is not None and jump.pending.player == 0
    assert "p.R7" in view(jump, 1).legal_codes  # an identical card: a jump-in
    assert breaks_freeze(jump, play(1, "R7")) is True


# -- random play ----------------------------------------------------------------------------


def _random_game(seed: int, options: Options) -> None:
    rng = random.Random(seed)
    state, _ = new_game(MINIONS, [f"P{i}" for i in range(2 + seed % 4)], options, seed=seed)
    froze = unfroze = 0
    for _ in range(400):
        if state.pending is None:
            return
        n = len(state.players)
        for seat in range(n):
            assert all(a.type is not ActionType.FROZEN_MOVED for a in legal_actions(state, seat))
        owing = state.pending.player
        if frozen(state) and rng.random() < 0.05:
            action = frozen_moved(rng.choice(frozen(state)))
        else:
            action = rng.choice(legal_actions(state, owing))
        result = apply(state, action)
        assert isinstance(result, Applied), (action, result)
        froze += len(of_type(result.events, EventType.FROZEN))
        unfroze += len(of_type(result.events, EventType.UNFROZEN))
        state = result.state
        assert all_cards(state) == deck_of(state)
        assert all(p.frozen_turns in (None, 1) for p in state.players)
        assert [s.frozen for s in view(state, None).seats] == [p.frozen for p in state.players]
    assert unfroze <= froze


@pytest.mark.parametrize("seed", range(examples(12)))
def test_s6_random_minions_games_keep_every_card_and_never_offer_fm(seed: int) -> None:
    """RULES.md §6: random Minions play (with and without house rules) loses no card,
    never offers ``fm`` to a player, and every stored freeze is mid-way (one turn started)."""
    options = Options(seven_o=True, jump_in=True, progressive_draw=True) if seed % 2 else Options()
    _random_game(seed, options)
