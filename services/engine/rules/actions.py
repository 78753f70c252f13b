"""The closed set of actions a player (or the service) can take, with compact codes.

Codes are short enough to share Telegram's 64-byte ``callback_data`` with a game id and a
state version: ``p.R5`` play, ``d`` draw, ``k`` keep the drawn card, ``c.R`` colour,
``ch`` challenge, ``a`` accept a draw card, ``u`` call UNO, ``x.2`` catch seat 2,
``s.1`` swap with seat 1, ``close`` close the UNO window (the service's timer),
``fm.3`` seat 3 moved while frozen (reported by the bot).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, Color, NotationError, card


class ActionType(StrEnum):
    PLAY = "p"
    DRAW = "d"
    PASS = "k"  # keep the drawn card and end the turn
    CHOOSE_COLOR = "c"
    CHALLENGE = "ch"
    ACCEPT = "a"  # take the draw card's cards without challenging or stacking
    CALL_UNO = "u"
    CATCH = "x"
    SWAP = "s"
    CLOSE_UNO_WINDOW = "close"  # system: the UNO window's time ran out
    FROZEN_MOVED = "fm"  # system: the frozen player (Minions) moved


SYSTEM_ACTIONS = frozenset({ActionType.CLOSE_UNO_WINDOW, ActionType.FROZEN_MOVED})


@dataclass(frozen=True, slots=True)
class Action:
    """``player`` is the acting seat; ``None`` for system actions taken by the service."""

    type: ActionType
    player: int | None = None
    card: Card | None = None
    color: Color | None = None
    target: int | None = None

    @property
    def code(self) -> str:
        t = self.type
        if t is ActionType.PLAY and self.card is not None:
            return f"p.{self.card.code}"
        if t is ActionType.CHOOSE_COLOR and self.color is not None:
            return f"c.{self.color.value}"
        if t in (ActionType.CATCH, ActionType.SWAP, ActionType.FROZEN_MOVED):
            return f"{t.value}.{self.target}"
        return t.value

    def __str__(self) -> str:
        who = "system" if self.player is None else f"#{self.player}"
        return f"{who} {self.code}"

    @staticmethod
    def from_code(player: int | None, code: str) -> Action:
        """Parse an action code; raises ``ValueError`` (or ``NotationError``) when malformed."""
        head, _, arg = code.partition(".")
        try:
            t = ActionType(head)
        except ValueError:
            raise ValueError(f"unknown action code {code!r}") from None
        if t is ActionType.PLAY:
            return Action(t, player, card=card(arg))
        if t is ActionType.CHOOSE_COLOR:
            try:
                return Action(t, player, color=Color(arg))
            except ValueError:
                raise NotationError(f"not a colour: {arg!r}") from None
        if t in (ActionType.CATCH, ActionType.SWAP, ActionType.FROZEN_MOVED):
            if not arg.isdigit():
                raise ValueError(f"action {code!r} needs a seat number")
            return Action(t, player, target=int(arg))
        if arg:
            raise ValueError(f"action {code!r} takes no argument")
        return Action(t, player)


# Constructors that read well at call sites and in tests.
def play(player: int, c: Card | str) -> Action:
    return Action(ActionType.PLAY, player, card=card(c) if isinstance(c, str) else c)


def draw(player: int) -> Action:
    return Action(ActionType.DRAW, player)


def keep(player: int) -> Action:
    return Action(ActionType.PASS, player)


def choose_color(player: int, color: Color | str) -> Action:
    return Action(ActionType.CHOOSE_COLOR, player, color=Color(color))


def challenge(player: int) -> Action:
    return Action(ActionType.CHALLENGE, player)


def accept(player: int) -> Action:
    return Action(ActionType.ACCEPT, player)


def call_uno(player: int) -> Action:
    return Action(ActionType.CALL_UNO, player)


def catch(player: int, target: int) -> Action:
    return Action(ActionType.CATCH, player, target=target)


def swap(player: int, target: int) -> Action:
    return Action(ActionType.SWAP, player, target=target)


def close_uno_window() -> Action:
    return Action(ActionType.CLOSE_UNO_WINDOW)


def frozen_moved(target: int) -> Action:
    return Action(ActionType.FROZEN_MOVED, target=target)
