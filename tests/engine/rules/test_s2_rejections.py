"""Illegal actions in Classic (RULES.md §2): each is refused with a stable reason and leaves
the state exactly as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from services.engine.rules import Action, ActionType, Color, GameState, Reason
from services.engine.rules.actions import (
    accept,
    call_uno,
    catch,
    challenge,
    choose_color,
    close_uno_window,
    draw,
    frozen_moved,
    keep,
    play,
    swap,
)
from tests.helpers.rules import after, refused, table


def _turn() -> GameState:
    return table(["R1 G2 W", "B1 B2 R9", "G1 G2 Y3"], discard="R5", draw_pile="Y7 Y8", current=0)


def _choosing() -> GameState:
    return after(_turn(), play(0, "W"))


def _drawn() -> GameState:
    return after(table(["G1 G2", "B1 B2"], discard="R5", draw_pile="R7 Y8", current=0), draw(0))


def _hit() -> GameState:
    state = table(["W+4 R1 R2", "B1 B2", "G1 G2"], discard="R5", draw_pile="Y1 Y2 Y3 Y4", current=0)
    return after(state, play(0, "W+4"), choose_color(0, "G"))


CASES: list[tuple[str, Callable[[], GameState], Action, Reason]] = [
    ("not your turn: play", _turn, play(1, "R9"), Reason.NOT_YOUR_TURN),
    ("not your turn: draw", _turn, draw(2), Reason.NOT_YOUR_TURN),
    ("not your turn: keep", _turn, keep(1), Reason.NOT_YOUR_TURN),
    ("not your turn: colour", _choosing, choose_color(1, "R"), Reason.NOT_YOUR_TURN),
    ("card not in hand", _turn, play(0, "R9"), Reason.CARD_NOT_IN_HAND),
    ("card not in hand: wild", _turn, play(0, "W+4"), Reason.CARD_NOT_IN_HAND),
    ("does not match", _turn, play(0, "G2"), Reason.DOES_NOT_MATCH),
    ("keep without drawing", _turn, keep(0), Reason.WRONG_DECISION),
    ("colour during a turn", _turn, choose_color(0, "R"), Reason.WRONG_DECISION),
    ("accept during a turn", _turn, accept(0), Reason.WRONG_DECISION),
    ("challenge during a turn", _turn, challenge(0), Reason.WRONG_DECISION),
    ("swap without Seven-O", _turn, swap(0, 1), Reason.WRONG_DECISION),
    ("play while choosing", _choosing, play(0, "R1"), Reason.WRONG_DECISION),
    ("draw while choosing", _choosing, draw(0), Reason.WRONG_DECISION),
    ("dark colour", _choosing, choose_color(0, Color.PINK), Reason.BAD_COLOR),
    ("other card after drawing", _drawn, play(0, "G1"), Reason.MUST_PLAY_DRAWN),
    ("draw again", _drawn, draw(0), Reason.WRONG_DECISION),
    ("play on a W+4", _hit, play(1, "B1"), Reason.NOT_STACKABLE),
    ("draw instead of accept", _hit, draw(1), Reason.WRONG_DECISION),
    ("challenge by another", _hit, challenge(2), Reason.NOT_YOUR_TURN),
    ("UNO with three cards", _turn, call_uno(0), Reason.CANNOT_CALL_UNO),
    ("UNO out of turn", _turn, call_uno(1), Reason.CANNOT_CALL_UNO),
    ("catch nobody", _turn, catch(1, 0), Reason.NOTHING_TO_CATCH),
    ("catch yourself", _turn, catch(1, 1), Reason.BAD_TARGET),
    ("catch a missing seat", _turn, catch(1, 9), Reason.BAD_TARGET),
    ("no such player", _turn, play(5, "R1"), Reason.NOT_A_PLAYER),
    ("negative seat", _turn, draw(-1), Reason.NOT_A_PLAYER),
    ("player without seat", _turn, Action(ActionType.DRAW), Reason.NOT_A_PLAYER),
    ("close with no window", _turn, close_uno_window(), Reason.NOTHING_TO_CLOSE),
    ("close by a player", _turn, Action(ActionType.CLOSE_UNO_WINDOW, 0), Reason.SYSTEM_ONLY),
    ("frozen by a player", _turn, Action(ActionType.FROZEN_MOVED, 0, target=1), Reason.SYSTEM_ONLY),
    ("nobody is frozen", _turn, frozen_moved(1), Reason.NOT_FROZEN),
]


@pytest.mark.parametrize(
    ("make", "action", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_s2_illegal_action_is_refused_and_changes_nothing(
    make: Callable[[], GameState], action: Action, reason: Reason
) -> None:
    """RULES.md §2: every illegal action returns Rejected with a stable reason; the state is
    untouched."""
    refused(make(), action, reason)


def test_s2_reason_codes_are_stable() -> None:
    """Clients and translations key on these values."""
    assert {r.value for r in Reason} >= {
        "game_over",
        "not_a_player",
        "not_your_turn",
        "wrong_decision",
        "card_not_in_hand",
        "does_not_match",
        "must_play_drawn",
        "cannot_challenge",
        "bad_color",
        "bad_target",
        "cannot_call_uno",
        "nothing_to_catch",
        "nothing_to_close",
        "system_only",
    }
