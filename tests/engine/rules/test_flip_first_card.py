"""RULES.md §3 first-card rules (UNO Flip), on both sides, and "F as the first card".

Each table is a round about to start (empty discard pile): seat 0 deals, seat 1 is the
first player, and the first card is turned up from the top of the given draw pile.  Dark-side
tables start with the dark side in play, which in a real game happens when a light F is
turned up first (tested below with real and with hand-written cards).
"""

from __future__ import annotations

from collections import Counter

import pytest

from services.engine.rules import Event, EventType, GameState, PendingKind, Side, view
from services.engine.rules.cards import Color
from services.engine.rules.state import AfterColor
from tests.helpers.rules import hand, of_type, pile, table_with_events, types

HANDS = ["G2/V8 B7/P1", "Y3/O+5 B4/P+5", "G7/V1 B9/P2"]
REST = "B1/P7 Y8/O1 G1/V7 R7/T1 R8/T1 B8/P1 Y2/O8"  # numbers on both sides


def start(first: str, side: str = "light", rest: str = REST) -> tuple[GameState, list[Event]]:
    state, events = table_with_events(
        HANDS, draw_pile=f"{first} {rest}", variant="flip", dealer=0, side=side, seed=3
    )
    return state, list(events)


def owes(state: GameState, kind: PendingKind, player: int) -> None:
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (kind, player)


def first_cards(events: list[Event]) -> list[str]:
    return [e.data["card"] for e in of_type(events, EventType.FIRST_CARD)]


# -- numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "side", "top"), [("R7/T1", "light", "R7"), ("R7/T1", "dark", "T1")]
)
def test_s3_first_card_number_first_player_plays(first: str, side: str, top: str) -> None:
    state, events = start(first, side)
    assert first_cards(events) == [top]
    owes(state, PendingKind.TURN, 1)
    assert state.top.face(state.side).code == top


# -- draw cards: +1 (light), +5 (dark) ---------------------------------------------------------


def test_s3_first_card_draw_one_first_player_draws_one_and_loses_turn() -> None:
    """RULES.md §3 "Light actions": +1 as the first card hits the first player too."""
    state, events = start("R+1/T3")
    assert hand(state, 1) == ["Y3/O+5", "B4/P+5", "B1/P7"]
    assert of_type(events, EventType.SKIPPED)[0].data == {"player": 1}
    owes(state, PendingKind.TURN, 2)


def test_s3_first_card_draw_five_first_player_draws_five_and_loses_turn() -> None:
    """RULES.md §3 "F as the first card": +5 like +2."""
    state, _ = start("R3/T+5", "dark")
    assert hand(state, 1)[2:] == REST.split()[:5]
    owes(state, PendingKind.TURN, 2)


# -- skips -------------------------------------------------------------------------------


def test_s3_first_card_skip_first_player_is_skipped() -> None:
    """RULES.md §3 "Light actions": S as Classic."""
    state, events = start("RS/T5")
    assert of_type(events, EventType.SKIPPED)[0].data == {"player": 1}
    owes(state, PendingKind.TURN, 2)


def test_s3_first_card_skip_everyone_like_skip() -> None:
    """RULES.md §3 "F as the first card": SE like S — the first player is skipped."""
    state, events = start("R5/TSE", "dark")
    assert [e.data["player"] for e in of_type(events, EventType.SKIPPED)] == [1]
    owes(state, PendingKind.TURN, 2)


# -- reverse -----------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "side"), [("RR/T4", "light"), ("R4/TR", "dark")])
def test_s3_first_card_reverse_dealer_plays_first_the_other_way(first: str, side: str) -> None:
    """RULES.md §3 "Both sides": R as Classic, on either side."""
    state, _ = start(first, side)
    assert state.direction == -1
    owes(state, PendingKind.TURN, 0)


# -- wilds -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "side", "colors"),
    [
        ("W/WDC", "light", ("c.R", "c.Y", "c.G", "c.B")),
        ("W+2/W", "dark", ("c.P", "c.T", "c.O", "c.V")),
    ],
)
def test_s3_first_card_wild_first_player_chooses_then_plays(
    first: str, side: str, colors: tuple[str, ...]
) -> None:
    """RULES.md §3 "Both sides": W as Classic: the first player chooses, then plays."""
    state, _ = start(first, side)
    owes(state, PendingKind.CHOOSE_COLOR, 1)
    assert state.pending is not None and state.pending.then is AfterColor.OWN_TURN
    assert view(state, 1).legal_codes == colors


@pytest.mark.parametrize(("first", "side"), [("W+2/W", "light"), ("W/WDC", "dark")])
def test_s3_first_card_wild_draw_is_put_back_and_another_turned(first: str, side: str) -> None:
    """RULES.md §3: W+2 (light) and WDC (dark) as the first card are put back in the draw
    pile, which is reshuffled, and another card is turned up; nobody draws."""
    state, events = start(first, side)
    assert EventType.RESHUFFLED in types(events)
    assert state.top.code != first
    assert len(state.discard) == 1
    assert Counter(pile(state.draw_pile)) + Counter([state.top.code]) == Counter(
        [first, *REST.split()]
    )
    assert [len(state.hand(seat)) for seat in range(3)] == [2, 2, 2]
    owes(state, PendingKind.TURN, 1)


# -- F as the first card -----------------------------------------------------------------


def test_s3_first_card_flip_turns_everything_over_and_starts_on_the_dark_side() -> None:
    """RULES.md §3 "F as the first card": everything turns over (hands and both piles) and
    the round starts on the dark side; the dark face now on top is the first card.  With
    the real deck a light F backs a dark number, so the first player just plays."""
    state, events = start("RF/T6")
    assert state.side is Side.DARK
    assert first_cards(events) == ["RF", "T6"]
    assert [e.data for e in of_type(events, EventType.FLIPPED)] == [{"side": "dark", "top": "T6"}]
    assert pile(state.discard) == ["RF/T6"]
    assert pile(state.draw_pile) == list(reversed(REST.split()))
    assert state.color is Color.TEAL
    assert view(state, 1).hand == ("O+5", "P+5")
    assert view(state, 1).draw_pile_back == "Y2"
    owes(state, PendingKind.TURN, 1)


@pytest.mark.parametrize(
    ("first", "skipped", "first_turn", "drawn"),
    [
        ("RF/TSE", [1], 2, 0),  # SE like S
        ("RF/T+5", [1], 2, 5),  # +5 like +2
        ("RF/TR", [], 0, 0),  # R: the dealer plays first, the other way
    ],
)
def test_s3_first_card_flip_judges_the_dark_face_with_the_first_card_rules(
    first: str, skipped: list[int], first_turn: int, drawn: int
) -> None:
    """RULES.md §3 "F as the first card": the dark face now on top is treated as the first
    card.  (Hand-written cards: the real deck puts no action behind a light F.)"""
    state, events = start(first)
    assert state.side is Side.DARK
    assert [e.data["player"] for e in of_type(events, EventType.SKIPPED)] == skipped
    assert len(state.hand(1)) == 2 + drawn
    owes(state, PendingKind.TURN, first_turn)


def test_s3_first_card_flip_onto_a_dark_wild_first_player_chooses_a_dark_colour() -> None:
    state, _ = start("RF/W")
    assert state.side is Side.DARK
    owes(state, PendingKind.CHOOSE_COLOR, 1)
    assert view(state, 1).legal_codes == ("c.P", "c.T", "c.O", "c.V")


def test_s3_first_card_flip_onto_a_wild_draw_color_turns_up_another_on_the_dark_side() -> None:
    state, events = start("RF/WDC")
    assert state.side is Side.DARK
    assert EventType.RESHUFFLED in types(events)
    assert state.top.code != "RF/WDC"
    assert state.top.face(Side.DARK).color is not None
    owes(state, PendingKind.TURN, 1)


def test_s3_first_card_dark_flip_turns_back_to_the_light_side() -> None:
    """A dark F can come up first only after a WDC was put back on the dark side; it turns
    everything over again like any F, and the light face is judged."""
    state, events = start("R6/TF", "dark")
    assert state.side is Side.LIGHT
    assert first_cards(events) == ["TF", "R6"]
    owes(state, PendingKind.TURN, 1)


def test_s3_first_card_flip_on_both_sides_turns_over_once() -> None:
    """RULES.md §3 "F as the first card" [decision flip-first-card-twice]: A hand-written card
    with F on both sides would turn over for ever; play starts on it as it lies after one
    turn."""
    state, events = start("RF/TF")
    assert state.side is Side.DARK
    assert len(of_type(events, EventType.FLIPPED)) == 1
    assert state.color is Color.TEAL
    owes(state, PendingKind.TURN, 1)


def test_s3_first_card_flip_conserves_every_card() -> None:
    state, _ = start("RF/T6")
    cards = Counter(pile(state.draw_pile)) + Counter(pile(state.discard))
    for seat in range(3):
        cards += Counter(hand(state, seat))
    assert cards == Counter(["RF/T6", *REST.split(), *" ".join(HANDS).split()])
