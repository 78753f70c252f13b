"""RULES.md §4 No Mercy (seed ``seeds/uno-no-mercy.fa.txt``): the deck, the first card, draw
until playable, stacking, the mercy rule, 7 and 0, the action cards, scoring, and random-play
properties of the variant (card conservation with set-aside hands, a legal action always
exists, views leak nothing, replay determinism, every game ends)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from services.engine.rules import (
    Action,
    ActionType,
    Applied,
    Event,
    EventType,
    GameState,
    Options,
    PendingKind,
    Reason,
    apply,
    deal_commitment,
    events_for,
    from_json,
    legal_actions,
    new_game,
    owed_by,
    to_json,
    view,
)
from services.engine.rules.actions import (
    accept,
    call_uno,
    catch,
    choose_color,
    draw,
    keep,
    play,
    swap,
)
from services.engine.rules.cards import Kind
from services.engine.rules.variants import get_variant
from tests.helpers.rules import (
    after,
    all_cards,
    deck_of,
    hand,
    of_type,
    ok,
    refused,
    table,
    table_with_events,
    types,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.no_mercy_game_length import pick_action

V = "no_mercy"


def nm(hands: list[str], discard: str = "", draw_pile: str = "", **kw: object) -> GameState:
    """A scripted No Mercy table."""
    return table(hands, discard=discard, draw_pile=draw_pile, variant=V, **kw)


def many(count: int, code: str = "G1") -> str:
    """A hand padded with ``count`` copies of one card (to bring a player near 25)."""
    return " ".join([code] * count)


def pending_of(state: GameState) -> tuple[PendingKind, int]:
    assert state.pending is not None
    return state.pending.kind, state.pending.player


def owed(state: GameState) -> int:
    player = owed_by(state)
    assert player is not None
    return player


def turn_of(state: GameState) -> int:
    kind, player = pending_of(state)
    assert kind is PendingKind.TURN
    return player


# -- Deck (168) -------------------------------------------------------------------------------


def test_s4_deck_168_cards_in_the_stated_counts() -> None:
    """RULES.md §4 "Deck (168)": per colour two of each 0–9, three +2, two +4, three S,
    two SE, three R, three DA; 8 WR+4, 4 W+6, 4 W+10, 8 WCR; no plain W, no W+4."""
    deck = get_variant(V).deck
    assert len(deck) == 168
    counts = Counter(c.code for c in deck)
    for color in "RYGB":
        for number in range(10):
            assert counts[f"{color}{number}"] == 2
        expected = {"+2": 3, "+4": 2, "S": 3, "SE": 2, "R": 3, "DA": 3}
        for symbol, count in expected.items():
            assert counts[color + symbol] == count
    assert counts["WR+4"] == 8
    assert counts["W+6"] == 4
    assert counts["W+10"] == 4
    assert counts["WCR"] == 8
    assert counts["W"] == 0 and counts["W+4"] == 0
    assert get_variant(V).target_score == 1000


def test_s4_deal_seven_each() -> None:
    """RULES.md §4 "Deal": 7 each."""
    state, _ = new_game(V, ["a", "b", "c", "d"], seed=5)
    assert [len(p.hand) for p in state.players] == [7, 7, 7, 7]
    assert all_cards(state) == deck_of(state)


# -- First card -------------------------------------------------------------------------------

FIRST_IGNORED = ["RS", "RR", "RSE", "RDA", "R+2", "R+4", "WR+4", "W+6", "W+10", "WCR"]


@pytest.mark.parametrize("first", FIRST_IGNORED)
def test_s4_deal_first_card_action_or_wild_is_ignored(first: str) -> None:
    """RULES.md §4 "Deal": if the first card is any action or wild, ignore it and turn up
    the next; nobody draws or is skipped, the direction stays."""
    state, events = _setup_events(["B1 B2", "G1 G2", "Y1 Y2"], draw_pile=f"{first} R5 Y9")
    assert [c.code for c in state.discard] == ["R5", first]
    assert state.color is not None and state.color.value == "R"
    assert state.direction == 1
    assert turn_of(state) == 1  # the dealer's (seat 0's) left
    assert [len(p.hand) for p in state.players] == [2, 2, 2]
    assert [e.data["card"] for e in of_type(events, EventType.FIRST_CARD)] == [first, "R5"]


def test_s4_deal_several_ignored_first_cards_in_a_row() -> None:
    """RULES.md §4 "Deal": the turning-up goes on until a number card shows."""
    state, _ = _setup_events(["B1 B2", "G1 G2"], draw_pile="WCR G+2 YDA B7 Y9")
    assert [c.code for c in state.discard] == ["B7", "YDA", "G+2", "WCR"]
    assert state.color is not None and state.color.value == "B"


@pytest.mark.parametrize("first", ["R7", "R0"])
def test_s4_deal_first_card_seven_or_zero_is_a_plain_number(first: str) -> None:
    """RULES.md §4 "Deal": 7 and 0 are numbers, so they start the round; nothing is swapped."""
    state, events = _setup_events(["B1 B2", "G1 G3"], draw_pile=f"{first} Y9")
    assert state.top.code == first
    assert turn_of(state) == 1
    assert EventType.SWAPPED not in types(events)
    assert EventType.HANDS_ROTATED not in types(events)


def test_s4_deal_nothing_but_actions_to_turn_up_play_starts_on_the_last() -> None:
    """RULES.md §4 "Deal" [decision first-card-ignored-to-the-end] (round.py): the ignored cards
    are not reshuffled to turn up more, so a set-up whose pile holds only actions stops short:
    play starts on the last card turned up, which nobody played."""
    state, events = _setup_events(["B1 B2", "G1 G2"], draw_pile="RS GR")
    assert [c.code for c in state.discard] == ["GR", "RS"]
    assert state.draw_pile == ()
    assert state.color is not None and state.color.value == "G"
    assert state.direction == 1
    assert turn_of(state) == 1
    assert [e.data["card"] for e in of_type(events, EventType.FIRST_CARD)] == ["RS", "GR"]


def _setup_events(hands: list[str], draw_pile: str) -> tuple[GameState, tuple[Event, ...]]:
    """A round about to start: the first card is turned up from ``draw_pile``."""
    return table_with_events(hands, draw_pile=draw_pile, variant=V)


# -- A turn: draw until playable, and play it ----------------------------------------------------


def test_s4_a_turn_no_drawing_while_holding_a_playable_card() -> None:
    """RULES.md §4 "A turn" [decision no-mercy-no-draw-while-playable]: you may not draw while
    holding a playable card."""
    state = nm(["R1 G2", "B1 B2"], discard="R5", draw_pile="B9", current=0)
    assert "d" not in view(state, 0).legal_codes
    refused(state, draw(0), Reason.MUST_PLAY)


def test_s4_a_turn_no_playable_card_draw_until_playable_then_must_play_it() -> None:
    """RULES.md §4 "A turn": with no playable card, draw until a playable one turns up, and
    then play it (no keeping it, no other card)."""
    state = nm(["G1 G2 G3", "B1 B2", "Y1 Y2"], discard="R5", draw_pile="G7 B9 Y5 R3", current=0)
    assert view(state, 0).legal_codes == ("d",)
    result = ok(state, draw(0))
    state = result.state
    assert hand(state, 0) == ["G1", "G2", "G3", "G7", "B9", "Y5"]
    assert pending_of(state) == (PendingKind.PLAY_DRAWN, 0)
    assert state.pending is not None and state.pending.must_play
    assert of_type(result.events, EventType.DREW)[0].data == {"player": 0, "count": 3}
    assert view(state, 0).legal_codes == ("p.Y5",)
    refused(state, keep(0), Reason.MUST_PLAY)
    refused(state, play(0, "G1"), Reason.MUST_PLAY_DRAWN)
    state = after(state, play(0, "Y5"))
    assert turn_of(state) == 1


def test_s4_a_turn_draw_until_a_wild_which_is_always_playable() -> None:
    state = nm(["G1 G2", "B1 B2"], discard="R5", draw_pile="G7 W+10 R3", current=0)
    state = after(state, draw(0))
    assert view(state, 0).legal_codes == ("p.W+10",)


def test_s4_a_turn_draw_until_playable_through_a_reshuffle() -> None:
    """RULES.md §2 "Draw pile empty": the pile is rebuilt from the discards under the top."""
    state = nm(["G1 G2", "B1 B2"], discard="R5 R8", draw_pile="G7", current=0)
    result = ok(state, draw(0))
    assert hand(result.state, 0) == ["G1", "G2", "G7", "R8"]
    assert EventType.RESHUFFLED in types(result.events)
    assert pending_of(result.state) == (PendingKind.PLAY_DRAWN, 0)


def test_s4_a_turn_draw_until_playable_stops_short_when_nothing_is_playable() -> None:
    """RULES.md §2 "Draw pile empty" and "Nothing left to draw" [decision nothing-to-draw]: with
    nothing left to rebuild the pile from, the draw stops short and the turn passes (the game
    cannot hang)."""
    state = nm(["G1 G2", "B1 B2"], discard="R5", draw_pile="G7 B9", current=0)
    result = ok(state, draw(0))
    assert hand(result.state, 0) == ["G1", "G2", "G7", "B9"]
    assert EventType.DRAW_STOPPED_SHORT in types(result.events)
    assert turn_of(result.state) == 1
    # With nothing at all left to draw, the turn still passes.
    result = ok(result.state, draw(1))
    assert hand(result.state, 1) == ["B1", "B2"]
    assert turn_of(result.state) == 0


# -- Stacking -------------------------------------------------------------------------------

DRAW_CARDS = {"R+2": 2, "R+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}
ANSWERS = {"B+2": 2, "B+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}


@dataclass(frozen=True)
class Hit:
    """Who a draw card played by ``player`` hits in a 3-player game going ``direction``."""

    victim: int
    direction: int


def _hit(player: int, card_code: str, direction: int) -> Hit:
    if card_code == "WR+4":
        direction = -direction
    return Hit((player + direction) % 3, direction)


def _play_card(state: GameState, player: int, card_code: str) -> GameState:
    state = after(state, play(player, card_code))
    if state.pending is not None and state.pending.kind is PendingKind.CHOOSE_COLOR:
        state = after(state, choose_color(player, "G"))
    return state


@pytest.mark.parametrize("first", list(DRAW_CARDS))
@pytest.mark.parametrize("answer", list(ANSWERS))
def test_s4_stacking_every_order_equal_or_higher_is_legal(first: str, answer: str) -> None:
    """RULES.md §4 "Stacking": a draw card may be answered with a draw card of equal or
    higher value, colour irrelevant (WR+4 counts 4 and also reverses); a lower one is
    refused; the total passes on and the first player who can't stack takes it all."""
    legal = ANSWERS[answer] >= DRAW_CARDS[first]
    first_hit = _hit(0, first, 1)
    answerer = first_hit.victim
    hands = ["Y1 Y2 Y3", "Y4 Y5 Y6", "Y7 Y8 Y9"]
    hands[0] = f"{first} Y1 Y2"
    # The W+10 makes sure the answerer owes a decision even when ``answer`` is too low.
    hands[answerer] = f"{answer} W+10 Y4"
    state = nm(hands, discard="R5", draw_pile=many(30, "Y0"), current=0)
    state = _play_card(state, 0, first)
    assert pending_of(state) == (PendingKind.RESPOND_TO_DRAW, answerer)
    assert state.pending is not None and state.pending.amount == DRAW_CARDS[first]
    assert state.pending.source == 0
    codes = view(state, answerer).legal_codes
    assert "a" in codes and "ch" not in codes  # no challenge in No Mercy
    assert (f"p.{answer}" in codes) is legal
    if not legal:
        refused(state, play(answerer, answer), Reason.NOT_STACKABLE)
        return
    state = _play_card(state, answerer, answer)
    second_hit = _hit(answerer, answer, first_hit.direction)
    total = DRAW_CARDS[first] + ANSWERS[answer]
    assert second_hit.victim != answerer
    # The victim holds no draw card (seat 0 has only yellow numbers left), so they take
    # the whole total at once and lose the turn.
    assert len(state.hand(second_hit.victim)) == 2 + (second_hit.victim != 0) + total
    assert turn_of(state) == (second_hit.victim + second_hit.direction) % 3


def test_s4_stacking_without_an_answer_in_hand_the_draw_is_immediate() -> None:
    """RULES.md §4 "Stacking": a player who cannot stack draws the total and loses the
    turn at once (no decision is owed)."""
    state = nm(["R+4 Y1 Y2", "B+2 Y4 Y5", "Y7 Y8 Y9"], discard="R5", draw_pile=many(9), current=0)
    result = ok(state, play(0, "R+4"))
    assert hand(result.state, 1) == ["B+2", "Y4", "Y5"] + ["G1"] * 4
    assert turn_of(result.state) == 2


def test_s4_stacking_who_owes_the_answer_and_the_total_are_explicit() -> None:
    """RULES.md §4 "Stacking": the pending total grows with each stacked card, and the
    player who owes the answer is named in every view.  An answer must equal or beat the
    card just played (not the running total)."""
    state = nm(
        ["R+2 Y1 Y2", "B+4 Y3 Y4", "W+6 Y+2 Y6", "W+10 Y7 Y8"],
        discard="R5",
        draw_pile=many(30, "Y0"),
        current=0,
    )
    state = _play_card(state, 0, "R+2")
    state = _play_card(state, 1, "B+4")
    assert set(view(state, 2).legal_codes) == {"a", "p.W+6"}  # +2 is below the +4
    refused(state, play(2, "Y+2"), Reason.NOT_STACKABLE)
    state = _play_card(state, 2, "W+6")
    for seat in (None, 0, 1, 2, 3):
        pending = view(state, seat).pending
        assert pending is not None
        assert (pending.kind, pending.player, pending.amount, pending.source) == (
            PendingKind.RESPOND_TO_DRAW,
            3,
            12,
            2,
        )
        assert pending.card_kind == "W+6"
    result = ok(state, play(3, "W+10"))
    assert of_type(result.events, EventType.STACKED)[0].data == {"player": 3, "total": 12}
    state = after(result.state, choose_color(3, "B"))
    # Seat 0 holds nothing to stack: it takes 22 and loses the turn.
    assert len(state.hand(0)) == 2 + 22
    assert turn_of(state) == 1


def test_s4_stacking_a_player_may_decline_to_stack() -> None:
    """RULES.md §4 "Stacking": the first player who cannot *or will not* stack draws."""
    state = nm(["R+2 Y1", "B+2 Y3", "Y5 Y6"], discard="R5", draw_pile=many(5, "Y0"), current=0)
    state = after(state, play(0, "R+2"), accept(1))
    assert hand(state, 1) == ["B+2", "Y3", "Y0", "Y0"]
    assert turn_of(state) == 2


def test_s4_stacking_only_draw_cards_answer_a_draw_card() -> None:
    """RULES.md §4 "Stacking": WCR is not a draw card and cannot join a stack; neither can
    a card that merely matches, and drawing is not an answer."""
    state = nm(
        ["R+2 Y1 Y2", "WCR R7 R+2 RS Y3", "Y5 Y6"],
        discard="R5",
        draw_pile=many(5, "Y0"),
        current=0,
    )
    state = after(state, play(0, "R+2"))
    assert set(view(state, 1).legal_codes) == {"a", "p.R+2"}
    refused(state, play(1, "WCR"), Reason.NOT_STACKABLE)
    refused(state, play(1, "R7"), Reason.NOT_STACKABLE)
    refused(state, play(1, "RS"), Reason.NOT_STACKABLE)
    refused(state, draw(1), Reason.WRONG_DECISION)


def test_s4_stacking_the_last_card_stacked_wins_and_the_total_is_still_drawn() -> None:
    """RULES.md §4 "Stacking" and §2 "End of a round": a stacked draw card as the last
    card wins the round, and the next player still draws the whole total."""
    state = nm(["R+2 Y1 Y2", "B+4", "Y5 Y6"], discard="R5", draw_pile=many(10, "Y0"), current=0)
    state = after(state, play(0, "R+2"))
    result = ok(state, play(1, "B+4"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 1
    assert ended["hands"][2] == ["Y5", "Y6"] + ["Y0"] * 6


# -- Mercy ----------------------------------------------------------------------------------


def test_s4_mercy_a_stack_total_knocks_out_and_credits_the_last_stacker() -> None:
    """RULES.md §4 "Mercy" and "Scoring" [decision knockout-credit]: a stack's total that takes
    a player to 25 knocks them out at once, mid-draw; the player whose card made them reach 25
    (the last card of the stack) scores 250; the hand is set aside; the turn passes on from the
    victim's seat."""
    start = nm(
        ["R+2 Y1", "B+4 Y2", many(20, "G1"), "Y5 Y6"],
        discard="R5",
        draw_pile=many(10, "Y0"),
        current=0,
    )
    state = after(start, play(0, "R+2"))
    result = ok(state, play(1, "B+4"))
    state = result.state
    knocked = of_type(result.events, EventType.KNOCKED_OUT)
    assert [e.data for e in knocked] == [{"player": 2, "by": 1, "points": 250}]
    assert state.players[2].knocked_out and state.hand(2) == ()
    assert len(state.set_aside) == 25  # 20 held + 5 drawn; the sixth was never drawn
    assert len(state.draw_pile) == 5
    assert [p.score for p in state.players] == [0, 250, 0, 0]
    assert turn_of(state) == 3
    assert all_cards(state) == all_cards(start)


def test_s4_mercy_the_knocked_out_seat_is_passed_over_and_cannot_act() -> None:
    """RULES.md §4 "Mercy": a knocked-out player is out until the next round."""
    state = nm(
        ["R+4 R1 R7 R2 Y3", many(22, "G1"), "R5 R6 R8", "R3 R4 R9"],
        discard="R5",
        draw_pile=many(10, "Y0"),
        current=0,
    )
    state = after(state, play(0, "R+4"))
    assert state.players[1].knocked_out
    assert turn_of(state) == 2
    assert legal_actions(state, 1) == ()
    refused(state, draw(1), Reason.KNOCKED_OUT)
    state = after(state, play(2, "R5"), play(3, "R3"), play(0, "R1"))
    assert turn_of(state) == 2  # seat 1 is passed over
    state = after(state, play(2, "R6"), play(3, "R4"), play(0, "R7"))
    # Seven's swap targets leave the knocked-out seat out too.
    assert set(view(state, 0).legal_codes) == {"s.2", "s.3"}
    refused(state, swap(0, 1), Reason.BAD_TARGET)


def seat_1_knocked_out(first: str, third: str) -> GameState:
    """Three players: seat 0 opens ``first`` with an R+4 that takes seat 1 from 22 cards to
    26, knocking them out; seat 2 (holding ``third``) owes the turn."""
    state = nm([first, many(22, "G1"), third], discard="R5", draw_pile=many(10, "Y0"), current=0)
    state = after(state, play(0, "R+4"))
    assert state.players[1].knocked_out
    return state


def test_s4_mercy_reverse_with_two_left_standing_acts_as_skip() -> None:
    """RULES.md §4 "Actions": "two players" means two left standing."""
    state = after(seat_1_knocked_out("R+4 RR R2 R3", "R6 R7 R8"), play(2, "R6"))
    result = ok(state, play(0, "RR"))
    assert turn_of(result.state) == 0
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 2}


def test_s4_mercy_last_player_standing_wins_the_round_mid_effect() -> None:
    """RULES.md §4 "Mercy": the last player left wins the round, at once, even in the middle
    of a draw card's effect; they score 250 for the knock-out and nothing for their own
    hand or for the set-aside hand."""
    state = nm(
        ["R+4 Y1 Y2 R9", many(22, "G1")],
        discard="R5",
        draw_pile=many(10, "Y0"),
        current=0,
    )
    result = ok(state, play(0, "R+4"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert ended["scores"] == [250, 0]
    assert ended["points"][1] == 0  # the knocked-out hand counts nothing
    assert ended["knockouts"] == [250, 0]  # what each seat scored for knock-outs this round
    assert [e.data for e in of_type(result.events, EventType.KNOCKED_OUT)] == [
        {"player": 1, "by": 0, "points": 250}
    ]
    state = result.state
    assert state.round == 2  # the next round is dealt
    assert not state.players[1].knocked_out
    assert [len(p.hand) for p in state.players] == [7, 7]
    assert all_cards(state) == deck_of(state)


def test_s4_mercy_a_knock_out_lasts_for_the_round_every_seat_is_dealt_in_again() -> None:
    """RULES.md §4 "Mercy" [decision knockout-for-the-round]: a knocked-out player sits out
    the rest of the round only; at the next round every seat is dealt in again and plays."""
    state = seat_1_knocked_out("R+4 R1 R2", "R3 R4 R6")
    assert turn_of(state) == 2
    state = after(state, play(2, "R3"), play(0, "R1"), play(2, "R4"))
    assert turn_of(state) == 0  # the knocked-out seat is passed over all round
    result = ok(state, play(0, "R2"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert (ended["round"], ended["winner"]) == (1, 0)
    state = result.state
    assert state.round == 2
    assert [p.knocked_out for p in state.players] == [False, False, False]
    assert [len(p.hand) for p in state.players] == [7, 7, 7]
    assert not any(seat.knocked_out for seat in view(state, None).seats)
    # Seat 1 deals round 2 (the deal passes to the left), and seat 2 plays first.
    assert state.dealer == 1
    assert turn_of(state) == 2


def test_s4_mercy_knock_out_by_draw_until_playable_credits_nobody() -> None:
    """RULES.md §4 "Scoring" [decision knockout-credit]: a knock-out from one's own drawing
    (draw until playable) credits nobody; the turn passes on."""
    state = nm([many(22, "G1"), "Y5 Y6", "Y7 Y8"], discard="R5", draw_pile="B1 B2 B3 R9", current=0)
    result = ok(state, draw(0))
    state = result.state
    assert [e.data for e in of_type(result.events, EventType.KNOCKED_OUT)] == [
        {"player": 0, "by": None, "points": 0}
    ]
    assert [p.score for p in state.players] == [0, 0, 0]
    assert state.draw_pile[0].code == "R9"  # drawing stopped at the knock-out
    assert turn_of(state) == 1


def test_s4_mercy_set_aside_hands_return_when_the_draw_pile_is_rebuilt() -> None:
    """RULES.md §4 "Mercy": knocked-out cards go back only when the draw pile is rebuilt."""
    state = nm(
        ["R+4 Y1 Y2", many(21, "G1"), "R6 Y6 Y7", "B7 B8"],
        discard="R5",
        draw_pile="Y0 Y0 Y0 Y0",
        current=0,
    )
    state = after(state, play(0, "R+4"))
    assert state.players[1].knocked_out and len(state.set_aside) == 25
    assert state.draw_pile == ()
    state = after(state, play(2, "R6"))
    # Seat 3 holds no red and no 6: the pile is rebuilt from the discards under the top
    # and the set-aside hand.
    result = ok(state, draw(3))
    assert EventType.RESHUFFLED in types(result.events)
    assert result.state.set_aside == ()
    assert all_cards(result.state) == all_cards(state)


def test_s4_mercy_roulette_knocks_out_mid_reveal_and_credits_its_player() -> None:
    """RULES.md §4 "Mercy", "WCR" and "Scoring" [decision knockout-credit]: the reveal stops
    when the victim reaches 25; the player of the WCR scores 250; the turn passes on from the
    victim's seat."""
    state = nm(
        ["WCR Y1", many(21, "G1"), "Y5 Y6"],
        discard="R5",
        draw_pile="B1 B2 W+6 G3 B4 R6",
        current=0,
    )
    state = after(state, play(0, "WCR"), choose_color(1, "R"))
    assert state.players[1].knocked_out
    assert [p.score for p in state.players] == [250, 0, 0]
    assert [c.code for c in state.draw_pile] == ["B4", "R6"]
    assert turn_of(state) == 2
    assert state.color is not None and state.color.value == "R"


def test_s4_mercy_false_catch_knocks_out_the_player_owing_the_turn() -> None:
    """RULES.md §4 "Mercy" with the false-catch house option: a player knocked out by a
    catch penalty while owing a decision loses it, and the turn passes on."""
    options = Options(false_catch_penalty=True)
    state = nm(
        ["R1 Y1", many(23, "G1"), "Y5 Y6"],
        discard="R5",
        draw_pile=many(5, "Y0"),
        current=1,
        options=options,
    )
    result = ok(state, catch(1, 0))
    assert EventType.FALSE_CATCH in types(result.events)
    assert result.state.players[1].knocked_out
    assert [p.score for p in result.state.players] == [0, 0, 0]
    assert turn_of(result.state) == 2


def test_s4_mercy_knocked_out_while_owing_the_roulette_colour() -> None:
    """RULES.md §4 "Mercy" [decision knocked-out-owing-colour]: A player knocked out before
    naming a colour they owe (here a roulette's): the next player names the colour, then
    plays."""
    options = Options(false_catch_penalty=True)
    state = nm(
        ["WCR Y1 Y2", many(23, "G1"), "Y5 Y6"],
        discard="R5",
        draw_pile=many(5, "Y0"),
        current=0,
        options=options,
    )
    state = after(state, play(0, "WCR"))
    assert pending_of(state) == (PendingKind.CHOOSE_ROULETTE_COLOR, 1)
    state = after(state, catch(1, 2))
    assert state.players[1].knocked_out
    assert pending_of(state) == (PendingKind.CHOOSE_COLOR, 2)
    state = after(state, choose_color(2, "Y"))
    assert turn_of(state) == 2
    assert "p.Y5" in view(state, 2).legal_codes


# -- Seven and zero -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6])
def test_s4_seven_swaps_hands_with_a_chosen_player(players: int) -> None:
    """RULES.md §4 "Seven and zero": 7 — you must swap hands with a player you choose (an
    owed decision); play then goes on as before."""
    hands = ["R7 B1 B2"] + [f"Y{seat} G{seat}" for seat in range(1, players)]
    state = nm(hands, discard="R5", current=0)
    state = after(state, play(0, "R7"))
    assert pending_of(state) == (PendingKind.CHOOSE_SWAP, 0)
    assert set(view(state, 0).legal_codes) == {f"s.{seat}" for seat in range(1, players)}
    refused(state, draw(0), Reason.WRONG_DECISION)
    refused(state, swap(0, 0), Reason.BAD_TARGET)
    target = players - 1
    result = ok(state, swap(0, target))
    state = result.state
    assert hand(state, 0) == [f"Y{target}", f"G{target}"]
    assert hand(state, target) == ["B1", "B2"]
    assert of_type(result.events, EventType.SWAPPED)[0].data == {"player": 0, "target": target}
    assert turn_of(state) == 1 % players


def test_s4_seven_down_to_one_card_the_uno_window_and_the_hand_received() -> None:
    """RULES.md §4 "Seven and zero" as §2 "House rules in detail"
    [decision uno-window-seven-choice] [decision uno-call-received-hand]: a 7 played down to
    one card without UNO can be caught while the swap is owed; after the swap nobody can be
    caught for the one card received, and its new holder may call."""
    state = after(nm(["R7 B1", "Y1 G1 G2", "Y2 G3"], discard="R5", current=0), play(0, "R7"))
    assert pending_of(state) == (PendingKind.CHOOSE_SWAP, 0)
    assert "x.0" in view(state, 1).legal_codes and "u" in view(state, 0).legal_codes
    state = after(state, swap(0, 2))
    assert hand(state, 2) == ["B1"]
    assert state.uno_window is None
    refused(state, catch(1, 2), Reason.NOTHING_TO_CATCH)
    assert "u" in view(state, 2).legal_codes
    assert after(state, call_uno(2)).players[2].declared_uno


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("direction", [1, -1])
def test_s4_zero_passes_every_hand_in_the_direction_of_play(players: int, direction: int) -> None:
    """RULES.md §4 "Seven and zero": 0 — every player passes their hand to the next player
    in the direction of play."""
    hands = ["R0 B1"] + [f"Y{seat} G{seat}" for seat in range(1, players)]
    state = nm(hands, discard="R5", current=0, direction=direction)
    result = ok(state, play(0, "R0"))
    state = result.state
    before = ["B1"] + [f"Y{seat} G{seat}" for seat in range(1, players)]
    for seat in range(players):
        giver = (seat - direction) % players
        assert " ".join(hand(state, seat)) == before[giver]
    assert EventType.HANDS_ROTATED in types(result.events)
    assert turn_of(state) == direction % players


def test_s4_zero_passes_over_knocked_out_seats() -> None:
    """RULES.md §4 "Mercy" and "Seven and zero": only the players still standing pass."""
    state = nm(
        ["R+4 R0 Y1", many(22, "G1"), "R6 Y6 Y7", "R8 B8 B9"],
        discard="R5",
        draw_pile=many(5, "Y0"),
        current=0,
    )
    state = after(state, play(0, "R+4"), play(2, "R6"), play(3, "R8"))
    assert state.players[1].knocked_out
    state = after(state, play(0, "R0"))
    assert hand(state, 2) == ["Y1"]
    assert hand(state, 3) == ["Y6", "Y7"]
    assert hand(state, 0) == ["B8", "B9"]
    assert hand(state, 1) == []


@pytest.mark.parametrize("last", ["R7", "R0"])
def test_s4_seven_or_zero_as_the_last_card_wins_at_once(last: str) -> None:
    """RULES.md §4 "Seven and zero": if the 7 or 0 is your last card you win at once and
    nothing is swapped."""
    state = nm([last, "B1 B2", "G1 G2"], discard="R5", current=0)
    result = ok(state, play(0, last))
    assert EventType.SWAPPED not in types(result.events)
    assert EventType.HANDS_ROTATED not in types(result.events)
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert ended["hands"][1:] == [["B1", "B2"], ["G1", "G2"]]


# -- Action cards -----------------------------------------------------------------------------


def test_s4_actions_draw_cards_hit_the_next_player() -> None:
    """RULES.md §4 "Actions": +2/+4/W+6/W+10: the next player draws 2/4/6/10 and loses the
    turn (unless they stack)."""
    for code, amount in (("R+2", 2), ("R+4", 4), ("W+6", 6), ("W+10", 10)):
        state = nm(
            [f"{code} Y1", "Y2 Y9", "Y3 Y4"], discard="R5", draw_pile=many(12, "B0"), current=0
        )
        state = _play_card(state, 0, code)
        assert len(state.hand(1)) == 2 + amount, code
        assert turn_of(state) == 2


def test_s4_actions_skip_reverse_skip_everyone() -> None:
    """RULES.md §4 "Actions": S skips the next player; R reverses; SE skips everyone else
    so you play again."""
    state = nm(["RS Y1", "Y2 Y3", "Y4 Y5"], discard="R5", current=0)
    assert turn_of(after(state, play(0, "RS"))) == 2
    state = nm(["RR Y1", "Y2 Y3", "Y4 Y5"], discard="R5", current=0)
    reversed_state = after(state, play(0, "RR"))
    assert reversed_state.direction == -1 and turn_of(reversed_state) == 2
    state = nm(["RSE Y1 Y6", "Y2 Y3", "Y4 Y5", "Y7 Y8"], discard="R5", current=0)
    result = ok(state, play(0, "RSE"))
    assert turn_of(result.state) == 0
    assert [e.data["player"] for e in of_type(result.events, EventType.SKIPPED)] == [1, 2, 3]


def test_s4_actions_two_player_reverse_acts_as_skip() -> None:
    """RULES.md §4 "Actions" (seed "Reverse"): with two players R acts as S: you play two
    turns in a row."""
    state = nm(["RR Y1 Y2", "Y3 Y4"], discard="R5", current=0)
    result = ok(state, play(0, "RR"))
    assert turn_of(result.state) == 0
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}


@pytest.mark.parametrize("code", ["W+6", "W+10", "WR+4"])
def test_s4_actions_every_other_wild_its_player_chooses_the_colour(code: str) -> None:
    """RULES.md §4 "Actions": every wild but WCR: its player chooses the colour, then the
    card acts."""
    state = nm([f"{code} Y1", "Y2 Y9", "Y3 Y4"], discard="R5", draw_pile=many(12, "B0"), current=0)
    state = after(state, play(0, code))
    assert pending_of(state) == (PendingKind.CHOOSE_COLOR, 0)
    state = after(state, choose_color(0, "B"))
    assert state.color is not None and state.color.value == "B"
    assert len(state.hand(2 if code == "WR+4" else 1)) == 2 + DRAW_CARDS[code]


def test_s4_actions_discard_all_discards_every_card_of_its_colour() -> None:
    """RULES.md §4 "Actions": DA also discards every card of that colour from your hand
    (under the DA); wilds and other colours stay."""
    state = nm(["GDA G1 G+2 W+6 R3 GS", "Y1 Y2", "Y3 Y4"], discard="G5", current=0)
    result = ok(state, play(0, "GDA"))
    state = result.state
    assert hand(state, 0) == ["W+6", "R3"]
    assert [c.code for c in state.discard] == ["GDA", "G1", "G+2", "GS", "G5"]
    assert state.color is not None and state.color.value == "G"
    assert of_type(result.events, EventType.DISCARDED_ALL)[0].data == {
        "player": 0,
        "color": "G",
        "cards": ["G1", "G+2", "GS"],
    }
    assert turn_of(state) == 1


def test_s4_actions_discard_all_played_on_another_discard_all_uses_its_own_colour() -> None:
    state = nm(["BDA B1 G1", "Y1 Y2"], discard="GDA", current=0)
    state = after(state, play(0, "BDA"))
    assert hand(state, 0) == ["G1"]
    assert state.color is not None and state.color.value == "B"


def test_s4_actions_discard_all_can_win_the_round() -> None:
    """RULES.md §4 "Actions": DA can be your last play and win."""
    state = nm(["RDA R1 R+2", "Y1 Y2", "Y3 Y4"], discard="R5", current=0)
    result = ok(state, play(0, "RDA"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert ended["points"] == [0, 3, 7]
    assert result.state.uno_window is None


def test_s4_actions_discard_all_leaving_one_card_opens_the_uno_window() -> None:
    """RULES.md §4 "Actions" [decision discard-all-uno], the window as §2 "UNO": a DA that
    leaves one card opens the catch window; its player may still call UNO while it is open, or
    be caught for 2."""
    state = nm(["RDA R1 R2 B3", "Y1 Y2", "Y3 Y4"], discard="R5", draw_pile=many(4), current=0)
    result = ok(state, play(0, "RDA"))
    state = result.state
    assert hand(state, 0) == ["B3"]
    assert state.uno_window == 0
    assert "u" in view(state, 0).legal_codes
    assert "x.0" in view(state, 1).legal_codes
    assert after(state, call_uno(0)).uno_window is None
    caught = after(state, catch(2, 0))
    assert len(caught.hand(0)) == 3


def test_s4_actions_discard_all_with_one_left_and_uno_called_opens_no_window() -> None:
    state = nm(["RDA B3", "Y1 Y2", "Y3 Y4"], discard="R5", current=0)
    state = after(state, call_uno(0), play(0, "RDA"))
    assert state.uno_window is None
    assert hand(state, 0) == ["B3"]


def test_s4_actions_wild_reverse_draw_four_reverses_then_hits_the_new_next_player() -> None:
    """RULES.md §4 "Actions": WR+4 reverses the direction, then the next player in the new
    direction draws 4 and loses the turn; its player chooses the colour."""
    state = nm(["WR+4 Y1", "Y2 Y3", "Y4 Y5", "Y6 Y7"], discard="R5", draw_pile=many(5), current=0)
    state = after(state, play(0, "WR+4"))
    assert pending_of(state) == (PendingKind.CHOOSE_COLOR, 0)
    state = after(state, choose_color(0, "B"))
    assert state.direction == -1
    assert len(state.hand(3)) == 6
    assert turn_of(state) == 2
    assert state.color is not None and state.color.value == "B"


def test_s4_actions_two_player_wild_reverse_draw_four_makes_you_draw() -> None:
    """RULES.md §4 "Actions" (seed): with two players, playing WR+4 makes *you* draw 4 (and
    lose the turn) unless you stack it back."""
    state = nm(["WR+4 Y1 Y2", "Y3 Y4"], discard="R5", draw_pile=many(5), current=0)
    state = after(state, play(0, "WR+4"), choose_color(0, "Y"))
    assert len(state.hand(0)) == 2 + 4
    assert hand(state, 1) == ["Y3", "Y4"]
    assert turn_of(state) == 1


def test_s4_actions_two_player_wild_reverse_draw_four_stacked_back() -> None:
    """RULES.md §4 "Actions" (seed): "you can use stacking to send the penalty back to your
    rival": you owe the answer to your own WR+4, and a stacked card sends the total on."""
    state = nm(["WR+4 B+4 Y1", "Y3 Y4"], discard="R5", draw_pile=many(10), current=0)
    state = after(state, play(0, "WR+4"), choose_color(0, "Y"))
    assert pending_of(state) == (PendingKind.RESPOND_TO_DRAW, 0)
    assert state.pending is not None and state.pending.amount == 4
    assert set(view(state, 0).legal_codes) == {"a", "p.B+4"}
    state = after(state, play(0, "B+4"))
    assert hand(state, 1) == ["Y3", "Y4"] + ["G1"] * 8
    assert turn_of(state) == 0


def test_s4_actions_two_player_wild_reverse_draw_four_answering_a_stack_hits_you() -> None:
    """RULES.md §4 "Actions" [decision wr4-two-players]: With two standing a WR+4 hits its own
    player even as a stack answer: the total (here 2 + 4) is theirs unless they stack once
    more."""
    state = nm(["R+2 Y1 Y2", "WR+4 Y3 Y4"], discard="R5", draw_pile=many(12), current=0)
    state = after(state, play(0, "R+2"))
    assert pending_of(state) == (PendingKind.RESPOND_TO_DRAW, 1)
    state = after(state, play(1, "WR+4"), choose_color(1, "Y"))
    assert hand(state, 1) == ["Y3", "Y4"] + ["G1"] * 6
    assert turn_of(state) == 0


def test_s4_actions_two_player_wild_reverse_draw_four_self_knock_out_credits_nobody() -> None:
    """RULES.md §4 "Scoring" [decision knockout-credit]: a knock-out by your own two-player
    WR+4 credits nobody; the rival is the last standing and wins the round."""
    state = nm([f"WR+4 {many(21, 'Y1')}", "Y3 Y4"], discard="R5", draw_pile=many(10), current=0)
    result = ok(after(state, play(0, "WR+4")), choose_color(0, "Y"))
    assert [e.data for e in of_type(result.events, EventType.KNOCKED_OUT)] == [
        {"player": 0, "by": None, "points": 0}
    ]
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 1
    assert ended["scores"] == [0, 0]


def test_s4_actions_two_player_wild_reverse_draw_four_as_the_last_card() -> None:
    """RULES.md §4 "Actions" [decision wr4-two-players]: In a two-player round a WR+4 played as
    the last card would hit its own player, who has gone out: the round is won and nobody
    draws."""
    state = nm(["WR+4", "Y3 Y4"], discard="R5", draw_pile=many(10), current=0)
    result = ok(state, play(0, "WR+4"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert ended["hands"] == [[], ["Y3", "Y4"]]
    assert ended["scores"] == [7, 0]


def test_s4_actions_wild_reverse_draw_four_answering_a_stack_reverses_it_back() -> None:
    """RULES.md §4 "Stacking": WR+4 counts 4 *and* reverses, so answering with it sends the
    total back the way it came."""
    state = nm(["R+4 Y1 Y2", "WR+4 Y3", "Y5 Y6"], discard="R5", draw_pile=many(10), current=0)
    state = _play_card(state, 0, "R+4")
    state = _play_card(state, 1, "WR+4")
    assert state.direction == -1
    assert len(state.hand(0)) == 2 + 8
    assert turn_of(state) == 2


def test_s4_actions_color_roulette_next_player_names_the_colour_and_takes_the_reveal() -> None:
    """RULES.md §4 "Actions": WCR — its player names no colour; the next player names one,
    turns up cards until that colour appears (wilds don't count), takes them all and loses
    the turn; the named colour is the colour in play."""
    state = nm(
        ["WCR Y1 Y6", "Y2 Y3", "Y4 Y5"], discard="R5", draw_pile="B1 W+6 G2 WCR R9 Y9", current=0
    )
    state = after(state, play(0, "WCR"))
    assert pending_of(state) == (PendingKind.CHOOSE_ROULETTE_COLOR, 1)
    assert state.pending is not None and state.pending.source == 0
    assert state.color is None
    assert view(state, 0).legal_codes == ()
    assert set(view(state, 1).legal_codes) == {"c.R", "c.Y", "c.G", "c.B"}
    refused(state, play(1, "Y2"), Reason.WRONG_DECISION)
    result = ok(state, choose_color(1, "R"))
    state = result.state
    assert hand(state, 1) == ["Y2", "Y3", "B1", "W+6", "G2", "WCR", "R9"]
    assert [c.code for c in state.draw_pile] == ["Y9"]
    roulette = of_type(result.events, EventType.ROULETTE)[0]
    assert roulette.to is None  # turned face up at the table
    assert roulette.data == {
        "player": 1,
        "color": "R",
        "cards": ["B1", "W+6", "G2", "WCR", "R9"],
    }
    assert state.color is not None and state.color.value == "R"
    assert turn_of(state) == 2
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}


def test_s4_actions_color_roulette_through_a_reshuffle() -> None:
    """RULES.md §4 "WCR" and §2 "Draw pile empty": the reveal goes on through a rebuilt
    draw pile."""
    state = nm(["WCR Y1", "Y2 Y3", "Y4 Y5"], discard="R5 G7 G8", draw_pile="B1 B2", current=0)
    state = after(state, play(0, "WCR"))
    result = ok(state, choose_color(1, "G"))
    state = result.state
    assert EventType.RESHUFFLED in types(result.events)
    revealed = of_type(result.events, EventType.ROULETTE)[0].data["cards"]
    assert revealed[:2] == ["B1", "B2"]
    assert revealed[-1] in ("G7", "G8")
    assert all(code not in ("G7", "G8") for code in revealed[2:-1])
    assert [c.code for c in state.discard] == ["WCR"]
    assert all_cards(state) == Counter(
        all_cards(nm(["WCR Y1", "Y2 Y3", "Y4 Y5"], discard="R5 G7 G8", draw_pile="B1 B2"))
    )
    assert turn_of(state) == 2


def test_s4_actions_color_roulette_stops_short_when_the_colour_is_nowhere() -> None:
    """[decision] With no card of the named colour left to turn up (the pile rebuilt from
    the discards included), the reveal stops short; the colour still becomes the colour in
    play and the victim still loses the turn."""
    state = nm(["WCR Y1 Y6", "Y2 Y3", "Y4 Y5"], discard="R5", draw_pile="B1 G2", current=0)
    state = after(state, play(0, "WCR"))
    result = ok(state, choose_color(1, "Y"))
    assert hand(result.state, 1) == ["Y2", "Y3", "B1", "G2", "R5"]
    assert result.state.color is not None and result.state.color.value == "Y"
    assert EventType.DRAW_STOPPED_SHORT in types(result.events)
    assert turn_of(result.state) == 2


def test_s4_actions_color_roulette_as_the_last_card_just_wins() -> None:
    """RULES.md §4 "Scoring" [decision final-wcr]: WCR is not a draw card, so as a last card it
    does nothing more."""
    state = nm(["WCR", "Y2 Y3", "Y4 Y5"], discard="R5", draw_pile="B1 G2", current=0)
    result = ok(state, play(0, "WCR"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert EventType.ROULETTE not in types(result.events)


def test_s4_actions_no_challenge_in_no_mercy() -> None:
    """RULES.md §4 "Actions": there is no challenge in No Mercy."""
    for code in ("W+6", "W+10", "WR+4"):
        state = nm(
            [f"{code} R1 Y1", "W+10 Y3", "Y4 Y5", "W+10 Y6"],
            discard="R5",
            draw_pile=many(12),
            current=0,
        )
        state = _play_card(state, 0, code)
        assert state.pending is not None and state.pending.kind is PendingKind.RESPOND_TO_DRAW
        assert not state.pending.challengeable
        assert all(a.type is not ActionType.CHALLENGE for a in legal_actions(state, owed(state)))


# -- Scoring --------------------------------------------------------------------------------


def test_s4_scoring_card_values() -> None:
    """RULES.md §4 "Scoring": numbers face value; coloured actions 20; wild actions 50."""
    others = "R9 B0 Y+2 G+4 RS BSE YR GDA WR+4 W+6 W+10 WCR"
    state = nm(["R1", others, "Y7"], discard="R5", current=0)
    result = ok(state, play(0, "R1"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["points"] == [0, 9 + 0 + 6 * 20 + 4 * 50, 7]
    assert ended["scores"] == [9 + 120 + 200 + 7, 0, 0]


def test_s4_scoring_knock_outs_score_250_and_knocked_out_hands_count_nothing() -> None:
    """RULES.md §4 "Scoring": whoever knocks a player out scores 250 for it, and the
    knocked-out hand is not counted when the round is scored."""
    state = nm(
        ["W+10 Y1 Y2", many(20, "G9"), "G5", "Y6 Y7"],
        discard="R5",
        draw_pile=many(12, "B9"),
        current=0,
    )
    state = _play_card(state, 0, "W+10")  # the colour chosen is green
    assert state.players[1].knocked_out
    assert [p.score for p in state.players] == [250, 0, 0, 0]
    result = ok(state, play(2, "G5"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 2
    assert ended["points"][1] == 0


def test_s4_scoring_game_to_1000_knock_out_points_can_decide_it() -> None:
    """RULES.md §4 "Scoring": first to 1000 wins.  [decision] The game is decided when a
    round ends; knock-out points count, so the highest total at or above 1000 wins."""
    state = nm(
        ["R+4 Y1 Y2 Y3", many(22, "G1"), "R6"],
        discard="R5",
        draw_pile=many(10, "Y0"),
        current=0,
        scores=[900, 0, 980],
    )
    state = after(state, play(0, "R+4"))
    assert [p.score for p in state.players] == [1150, 0, 980]
    result = ok(state, play(2, "R6"))
    assert result.state.is_over
    assert result.state.winner == 0  # seat 2 won the round but seat 0 has the most
    assert of_type(result.events, EventType.GAME_OVER)[0].data["scores"] == [1150, 0, 980 + 6]


def test_s4_scoring_a_tie_at_the_top_goes_to_the_rounds_winner() -> None:
    """RULES.md §2 "House rules in detail" [decision ties]: knock-outs can bring
    another player level with the round's winner at the top, who then wins the game."""
    state = nm(
        ["R+4 Y1 Y2 Y3", many(22, "G1"), "R6"],
        discard="R5",
        draw_pile=many(10, "Y0"),
        current=0,
        scores=[750, 0, 994],
    )
    state = after(state, play(0, "R+4"))
    assert state.players[0].score == 1000
    result = ok(state, play(2, "R6"))
    assert [p.score for p in result.state.players] == [1000, 0, 1000]
    assert result.state.winner == 2


def test_s4_scoring_a_tie_at_the_top_without_the_rounds_winner_goes_to_the_lower_seat() -> None:
    """RULES.md §2 "House rules in detail" [decision ties]: No Mercy's game is decided when a
    round is scored; two players level at the top, neither of them the round's winner: the
    lower seat wins."""
    state = nm(
        ["R+4 Y1 Y2 Y3", many(22, "G1"), "R8 Y8", "R6"],
        discard="R5",
        draw_pile=many(10, "Y0"),
        current=0,
        scores=[750, 0, 1000, 0],
    )
    state = after(state, play(0, "R+4"))  # seat 1 knocked out: seat 0 reaches 1000
    assert [p.score for p in state.players] == [1000, 0, 1000, 0]
    assert state.winner is None  # not decided before the round is scored
    state = after(state, play(2, "R8"))
    result = ok(state, play(3, "R6"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 3
    assert [p.score for p in result.state.players] == [1000, 0, 1000, 6 + 8]
    assert result.state.winner == 0


# -- Random play ------------------------------------------------------------------------------

RANDOM_GAMES = [(seed, 2 + seed % 5) for seed in range(40)]
# House options that add out-of-turn moves: identical cards jumping in, and false catches
# that cost the catcher 2 (which can knock out a player who owes a decision).
ROWDY = Options(jump_in=True, false_catch_penalty=True)
# Far above the longest game bench/no_mercy_game_length.py measured, playing with the very
# policy the random games below play with (its pick_action).
DECISION_CAP = 20_000


def random_game(
    seed: int, players: int, options: Options | None = None
) -> tuple[GameState, list[tuple[GameState, Action]]]:
    """Play a whole game with random legal actions (others sometimes catch or the UNO
    window times out; with ``options``, players also jump in and catch falsely); return
    the final state and every (state, action) pair."""
    rng = random.Random(seed)
    state, _ = new_game(V, [f"p{i}" for i in range(players)], options=options, seed=seed)
    log: list[tuple[GameState, Action]] = []
    while not state.is_over:
        assert len(log) < DECISION_CAP, "a No Mercy game did not end"
        action = pick_action(state, rng)
        if options is not None and rng.random() < 0.1:
            action = out_of_turn_action(state, rng) or action
        result = apply(state, action)
        assert isinstance(result, Applied), f"{action}: {result}"
        log.append((state, action))
        state = result.state
    return state, log


def out_of_turn_action(state: GameState, rng: random.Random) -> Action | None:
    """Anyone's move: a jump-in if someone can, else a (likely false) catch."""
    standing = [seat for seat, p in enumerate(state.players) if not p.knocked_out]
    seat = rng.choice(standing)
    jumps = [
        a for a in legal_actions(state, seat) if a.type is ActionType.PLAY and seat != owed(state)
    ]
    if jumps:
        return rng.choice(jumps)
    targets = [other for other in standing if other != seat]
    return catch(seat, rng.choice(targets))


@pytest.mark.parametrize(("seed", "players"), RANDOM_GAMES)
@pytest.mark.parametrize("options", [None, ROWDY], ids=["plain", "jump_in_false_catch"])
def test_s4_random_play_invariants(seed: int, players: int, options: Options | None) -> None:
    """RULES.md §4 over whole random games: no card created or lost (set-aside knocked-out
    hands included), nobody standing ever holds 25 or more, whoever owes a decision has a
    legal action and is standing, the pending total is positive while a stack is owed,
    views show only the viewer's own hand, and the game ends."""
    final, log = random_game(seed, players, options)
    deck = Counter(get_variant(V).deck)
    for state, _ in [*log, (final, log[-1][1])]:
        assert all_cards(state) == deck
        for p in state.players:
            assert len(p.hand) < 25
            assert not (p.knocked_out and p.hand)
        if state.pending is not None:
            assert not state.players[state.pending.player].knocked_out
            if state.pending.kind is PendingKind.RESPOND_TO_DRAW:
                assert state.pending.amount >= 2
    assert final.winner is not None and final.players[final.winner].score >= 1000


def reshuffled_hidden(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """The same table as ``viewer`` sees it, with everything hidden from them changed: the
    other hands and the draw pile dealt anew from the same cards, and another seed."""
    hidden = [c for seat, p in enumerate(state.players) if seat != viewer for c in p.hand]
    hidden += state.draw_pile
    rng.shuffle(hidden)
    players = []
    for seat, p in enumerate(state.players):
        if seat == viewer:
            players.append(p)
            continue
        players.append(replace(p, hand=tuple(hidden[: len(p.hand)])))
        hidden = hidden[len(p.hand) :]
    return replace(
        state, players=tuple(players), draw_pile=tuple(hidden), seed=state.seed + 1, rng_counter=7
    )


@pytest.mark.parametrize(("seed", "players"), RANDOM_GAMES[:10])
def test_s4_random_play_views_leak_nothing(seed: int, players: int) -> None:
    """STYLE.md "Hidden information": what a player sees does not change when everything
    hidden from them does (the other hands, the draw pile's order, the seed), and private
    events reach their addressee only."""
    rng = random.Random(seed)
    _, log = random_game(seed, players)
    for state, _ in log[::5]:
        for viewer in range(players):
            # Of the seed the table shows only its commitment (RULES.md §2 "Checking a deal").
            other = view(reshuffled_hidden(state, viewer, rng), viewer)
            shown = replace(other, deal_commitment=deal_commitment(state.seed))
            assert view(state, viewer) == shown
            assert list(view(state, viewer).hand) == [c.code for c in state.hand(viewer)]
        spectator = view(state, None)
        assert spectator.hand == () and spectator.legal == ()
        assert [s.cards for s in spectator.seats] == [len(p.hand) for p in state.players]
    for state, action in log:
        result = apply(state, action)
        assert isinstance(result, Applied)
        for event in result.events:
            if event.type is EventType.DREW_CARDS:
                assert event.to == event.data["player"]  # which cards: the drawer only
                assert event not in events_for(result.events, None)


@pytest.mark.parametrize(("seed", "players"), RANDOM_GAMES[:10])
def test_s4_random_play_replays_exactly_and_round_trips_json(seed: int, players: int) -> None:
    """STYLE.md "Randomness is an input": the same seed and actions give the same game;
    every state survives a JSON round-trip."""
    final, log = random_game(seed, players)
    state, _ = new_game(V, [f"p{i}" for i in range(players)], seed=seed)
    for recorded, action in log:
        assert state == recorded
        assert from_json(to_json(state)) == state
        result = apply(state, action)
        assert isinstance(result, Applied)
        state = result.state
    assert state == final


def test_s4_kinds_all_have_rules() -> None:
    rules = get_variant(V).rules
    assert {c.light.kind for c in get_variant(V).deck} <= set(rules)
    assert all(rules[k].stack_value == 0 for k in rules if not k.draw_amount)
    assert rules[Kind.WILD_COLOR_ROULETTE].answer is not None
    assert not rules[Kind.WILD_COLOR_ROULETTE].chooses_color


def test_s4_scoring_the_round_tells_what_each_seat_scored_for_knock_outs() -> None:
    """RULES.md §4 "Scoring": knock-outs score 250 when they happen; the round's end tells
    what each seat scored for them in that round (the chat says what each gain is for), and
    the next round starts from none."""
    state = nm(
        ["R+4 Y1 Y2 R9", many(22, "G1"), "R5 R6 R8", "R3 R4"],
        discard="R5",
        draw_pile=many(10, "Y0"),
        current=0,
    )
    state = after(state, play(0, "R+4"))
    assert [p.knockout_points for p in state.players] == [250, 0, 0, 0]
    assert from_json(to_json(state)) == state
    state = after(state, play(2, "R5"), play(3, "R3"), play(0, "R9"), play(2, "R6"))
    result = ok(state, play(3, "R4"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 3
    assert ended["knockouts"] == [250, 0, 0, 0]
    assert ended["scores"][0] == 250
    assert [p.knockout_points for p in result.state.players] == [0, 0, 0, 0]
