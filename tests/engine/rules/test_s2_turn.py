"""RULES.md §2 "A turn" and "Actions" (Classic): matching, drawing, and every action card."""

from __future__ import annotations

import pytest

from services.engine.rules import EventType, PendingKind, Reason, view
from services.engine.rules.actions import (
    accept,
    call_uno,
    choose_color,
    draw,
    keep,
    play,
)
from tests.helpers.rules import after, hand, of_type, ok, refused, table, types

# -- Matching ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "color", "card", "matches"),
    [
        ("R5", None, "R9", True),  # colour
        ("R5", None, "G5", True),  # number
        ("RS", None, "GS", True),  # symbol
        ("RR", None, "BR", True),
        ("R+2", None, "Y+2", True),
        ("R5", None, "W", True),  # a wild is playable at any time
        ("R5", None, "W+4", True),
        ("R5", None, "G7", False),
        ("R5", None, "GS", False),
        ("RS", None, "G5", False),
        ("RS", None, "GR", False),
        ("R+2", None, "G2", False),  # +2 is a symbol, not the number 2
        ("W", "G", "G7", True),  # after a wild: the chosen colour
        ("W", "G", "R5", False),
        ("W", "G", "W", True),
        ("W+4", "B", "B+2", True),
        ("W+4", "B", "Y+2", False),
    ],
)
def test_s2_a_turn_matching_colour_number_symbol_or_wild(
    top: str, color: str | None, card: str, matches: bool
) -> None:
    """RULES.md §2 "A turn": play a card matching the top discard's colour (the chosen colour
    after a wild), number or symbol, or play a wild."""
    state = table([f"{card} Y1 Y1", "B1 B2"], discard=top, color=color, current=0)
    legal = [a.code for a in view(state, 0).legal]
    assert (f"p.{card}" in legal) is matches
    if matches:
        ok(state, play(0, card))
    else:
        refused(state, play(0, card), Reason.DOES_NOT_MATCH)


def test_s2_a_turn_number_card_passes_the_turn_clockwise() -> None:
    state = table(["R1 R2", "B1 B2", "G1 G2"], discard="R5", current=0)
    state = after(state, play(0, "R1"))
    assert state.pending is not None and state.pending.player == 1
    assert state.top.code == "R1"
    assert hand(state, 0) == ["R2"]


# -- Drawing -------------------------------------------------------------------------------


def test_s2_a_turn_draw_one_playable_may_be_played_at_once() -> None:
    """RULES.md §2 "A turn": draw one card; if it is playable you may play it at once."""
    state = table(["G1 G2", "B1 B2", "Y1 Y2"], discard="R5", draw_pile="R7 B9", current=0)
    result = ok(state, draw(0))
    state = result.state
    assert hand(state, 0) == ["G1", "G2", "R7"]
    assert state.pending is not None
    assert state.pending.kind is PendingKind.PLAY_DRAWN
    assert state.pending.player == 0
    assert {a.code for a in view(state, 0).legal} == {"p.R7", "k"}
    drew = of_type(result.events, EventType.DREW)
    assert [e.data for e in drew] == [{"player": 0, "count": 1}]
    private = of_type(result.events, EventType.DREW_CARDS)
    assert [(e.to, e.data["cards"]) for e in private] == [(0, ["R7"])]
    state = after(state, play(0, "R7"))
    assert state.top.code == "R7"
    assert state.pending is not None and state.pending.player == 1


def test_s2_a_turn_drawn_card_only_it_may_be_played() -> None:
    """RULES.md §2 "A turn": after drawing, only the drawn card may be played."""
    state = table(["R1 G2", "B1 B2"], discard="R5", draw_pile="R7 B9", current=0)
    state = after(state, draw(0))
    refused(state, play(0, "R1"), Reason.MUST_PLAY_DRAWN)
    refused(state, draw(0), Reason.WRONG_DECISION)
    refused(state, play(0, "B9"), Reason.CARD_NOT_IN_HAND)


def test_s2_a_turn_keep_the_drawn_card_is_a_pass() -> None:
    """RULES.md §2 "A turn" [digital]: "keep the drawn card" is an explicit pass action."""
    state = table(["G1 G2", "B1 B2"], discard="R5", draw_pile="R7 B9", current=0)
    state = after(state, draw(0))
    result = ok(state, keep(0))
    assert EventType.KEPT in types(result.events)
    assert hand(result.state, 0) == ["G1", "G2", "R7"]
    assert result.state.pending is not None
    assert result.state.pending.kind is PendingKind.TURN
    assert result.state.pending.player == 1


def test_s2_a_turn_unplayable_drawn_card_passes_the_turn() -> None:
    """RULES.md §2 "A turn": otherwise the turn passes."""
    state = table(["G1 G2", "B1 B2"], discard="R5", draw_pile="B9 R7", current=0)
    state = after(state, draw(0))
    assert hand(state, 0) == ["G1", "G2", "B9"]
    assert state.pending is not None
    assert state.pending.kind is PendingKind.TURN and state.pending.player == 1
    refused(state, keep(0), Reason.NOT_YOUR_TURN)


def test_s2_a_turn_drawing_allowed_even_when_holding_a_playable_card() -> None:
    """RULES.md §2 "A turn": drawing is allowed even when you could play."""
    state = table(["R1 G2", "B1 B2"], discard="R5", draw_pile="B9", current=0)
    assert "d" in view(state, 0).legal_codes
    state = after(state, draw(0))
    assert hand(state, 0) == ["R1", "G2", "B9"]
    assert state.pending is not None and state.pending.player == 1


def test_s2_a_turn_keep_only_after_drawing() -> None:
    state = table(["R1 G2", "B1 B2"], discard="R5", draw_pile="B9", current=0)
    refused(state, keep(0), Reason.WRONG_DECISION)


def test_s2_a_turn_drawn_wild_may_be_played_and_its_colour_chosen() -> None:
    state = table(["G1 G2", "B1 B2", "Y1"], discard="R5", draw_pile="W", current=0)
    state = after(state, draw(0), play(0, "W"))
    assert state.pending is not None
    assert state.pending.kind is PendingKind.CHOOSE_COLOR and state.pending.player == 0
    state = after(state, choose_color(0, "G"))
    assert state.pending is not None and state.pending.player == 1


# -- Actions -------------------------------------------------------------------------------


def test_s2_actions_draw_two_next_player_draws_two_and_loses_turn() -> None:
    """RULES.md §2 "Actions": +2: next player draws 2 and loses the turn."""
    state = table(["R+2 R1", "B1 B2", "G1 G2"], discard="R5", draw_pile="Y1 Y2 Y3", current=0)
    result = ok(state, play(0, "R+2"))
    state = result.state
    assert hand(state, 1) == ["B1", "B2", "Y1", "Y2"]
    assert state.pending is not None and state.pending.player == 2
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}
    assert state.color is not None and state.color.value == "R"


def test_s2_actions_draw_two_cannot_be_refused_without_house_rules() -> None:
    """Without Progressive Draw the victim is not asked: the draw is immediate."""
    state = table(["R+2 R1", "B+2 B2", "G1 G2"], discard="R5", draw_pile="Y1 Y2 Y3", current=0)
    state = after(state, play(0, "R+2"))
    assert hand(state, 1) == ["B+2", "B2", "Y1", "Y2"]
    assert state.pending is not None and state.pending.player == 2


def test_s2_actions_skip_next_player_loses_turn() -> None:
    """RULES.md §2 "Actions": S: next player loses the turn."""
    state = table(["RS R1", "B1 B2", "G1 G2"], discard="R5", current=0)
    result = ok(state, play(0, "RS"))
    assert result.state.pending is not None and result.state.pending.player == 2
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}


def test_s2_actions_skip_with_two_players_plays_again() -> None:
    state = table(["RS R1", "B1 B2"], discard="R5", current=0)
    state = after(state, play(0, "RS"))
    assert state.pending is not None and state.pending.player == 0


def test_s2_actions_reverse_changes_direction() -> None:
    """RULES.md §2 "Actions": R: direction reverses."""
    state = table(["RR R1", "B1 B2", "G1 G2", "Y1 Y2"], discard="R5", draw_pile="B9", current=0)
    result = ok(state, play(0, "RR"))
    state = result.state
    assert state.direction == -1
    assert state.pending is not None and state.pending.player == 3
    assert of_type(result.events, EventType.REVERSED)[0].data == {"direction": -1}
    state = after(state, draw(3))
    assert state.pending is not None and state.pending.player == 2


def test_s2_actions_reverse_twice_restores_direction() -> None:
    state = table(["RR R1", "B1 B2", "G1 G2", "YR GR"], discard="R5", current=0)
    state = after(state, play(0, "RR"), play(3, "YR"))
    assert state.direction == 1
    assert state.pending is not None and state.pending.player == 0


def test_s2_actions_two_player_reverse_acts_as_skip() -> None:
    """RULES.md §2 "Actions": R with two players acts as S (you play again)."""
    state = table(["RR R1", "B1 B2"], discard="R5", current=0)
    result = ok(state, play(0, "RR"))
    assert result.state.pending is not None and result.state.pending.player == 0
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}
    assert EventType.REVERSED not in types(result.events)


def test_s2_actions_wild_choose_colour_then_next_player() -> None:
    """RULES.md §2 "Actions": W: choose the colour; playable at any time."""
    state = table(["W R1 R2", "B1 B2", "G1 G2"], discard="R5", current=0)
    state = after(state, play(0, "W"))
    assert state.pending is not None
    assert state.pending.kind is PendingKind.CHOOSE_COLOR and state.pending.player == 0
    assert state.color is None
    assert set(view(state, 0).legal_codes) == {"c.R", "c.Y", "c.G", "c.B"}
    refused(state, play(0, "R1"), Reason.WRONG_DECISION)
    refused(state, draw(1), Reason.NOT_YOUR_TURN)
    refused(state, choose_color(0, "P"), Reason.BAD_COLOR)
    refused(state, choose_color(1, "B"), Reason.NOT_YOUR_TURN)
    result = ok(state, choose_color(0, "B"))
    assert of_type(result.events, EventType.COLOR_CHOSEN)[0].data == {"player": 0, "color": "B"}
    state = result.state
    assert state.color is not None and state.color.value == "B"
    assert state.pending is not None and state.pending.player == 1


def test_s2_actions_wild_draw_four_next_player_draws_four_and_loses_turn() -> None:
    """RULES.md §2 "Actions": W+4: choose the colour; next player draws 4 and loses the turn."""
    state = table(
        ["W+4 R1 R2", "B1 B2", "G1 G2"], discard="G5", draw_pile="Y1 Y2 Y3 Y4 Y5", current=0
    )
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    assert state.pending is not None
    assert state.pending.kind is PendingKind.RESPOND_TO_DRAW
    assert state.pending.player == 1 and state.pending.amount == 4
    assert set(view(state, 1).legal_codes) == {"a", "ch"}
    state = after(state, accept(1))
    assert hand(state, 1) == ["B1", "B2", "Y1", "Y2", "Y3", "Y4"]
    assert state.pending is not None and state.pending.player == 2
    assert state.color is not None and state.color.value == "R"


def test_s2_actions_wild_draw_four_with_the_colour_is_a_bluff_never_refused() -> None:
    """RULES.md §2 "Actions" [digital]: W+4 is legal only without a card of the current
    colour, but the engine lets a player bluff; the challenge catches it."""
    state = table(["W+4 G1 R2", "B1 B2", "G1 G2"], discard="G5", current=0)
    assert "p.W+4" in view(state, 0).legal_codes
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    assert state.pending is not None and state.pending.bluffed


def test_s2_actions_wild_draw_four_matching_only_by_number_is_no_bluff() -> None:
    """RULES.md §2 "Actions": cards matching only by number or symbol don't count."""
    state = table(["W+4 R5 BS", "B1 B2", "G1 G2"], discard="GS", current=0, color="G")
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    assert state.pending is not None and not state.pending.bluffed


def test_s2_actions_wild_draw_four_bluff_judged_on_colour_before_the_play() -> None:
    """The colour that counts is the one in play when W+4 is played (after a wild, the
    chosen colour)."""
    state = table(["W+4 R1", "B1 B2", "G1 G2"], discard="W", color="R", current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "G"))
    assert state.pending is not None and state.pending.bluffed


def test_s2_actions_wild_colour_is_not_revealed_before_choosing() -> None:
    state = table(["W R1", "B1 B2"], discard="R5", current=0)
    state = after(state, play(0, "W"))
    for viewer in (0, 1, None):
        assert view(state, viewer).color is None
        assert view(state, viewer).top == "W"


def test_s2_uno_call_is_offered_with_two_cards_on_a_play_drawn() -> None:
    """RULES.md §2 "UNO": the call is available with two cards (with or before the play)."""
    state = table(["G1", "B1 B2"], discard="R5", draw_pile="R7", current=0)
    state = after(state, draw(0))
    assert set(view(state, 0).legal_codes) == {"p.R7", "k", "u"}
    state = after(state, call_uno(0), play(0, "R7"))
    assert state.uno_window is None
