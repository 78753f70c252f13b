"""The messages of their own besides the scores: a game ended early, a Dumb Fu penalty's
reason, a player who blocked the bot."""

from __future__ import annotations

from typing import Any

from services.engine.views import GameInfo, SeatInfo
from services.presentation.i18n import gettext, rich_gettext
from services.presentation.rich import Rich, as_rich, join
from services.presentation.screens.people import person
from services.presentation.screens.scores import game_over, round_end, score_lines


def game_ended(locale: str | None, event: dict[str, Any]) -> Rich:
    if event.get("reason") == "abandoned":
        return rich_gettext(locale, "The game ended: every player left.")
    return rich_gettext(locale, "The game was ended.")


def frozen_penalty(locale: str | None, game: GameInfo, event: dict[str, Any]) -> Rich:
    seat = event.get("player")
    name = person(game.seats[seat]) if isinstance(seat, int) and seat < len(game.seats) else "?"
    return "🧊 " + rich_gettext(
        locale,
        "{name} moved while frozen by Dumb Fu and draws 4 cards.",
        name=name,
    )


def blocked(locale: str | None, seat: SeatInfo) -> Rich:
    return rich_gettext(
        locale,
        "{name} has blocked me, so their hand is no longer in our private chat: "
        "use 🃏 My cards to play.",
        name=person(seat),
    )


def turn_nudge(locale: str | None, chat_title: str) -> Rich:
    """A player's own reminder, in private, that a decision in the group waits for them."""
    return as_rich(
        "⏰ "
        + gettext(
            locale,
            "Your turn in “{chat}”: play soon, or the AI plays for you.",
            chat=chat_title,
        )
    )


def notice(
    locale: str | None, game: GameInfo, event: dict[str, Any], *, scores: list[int] | None = None
) -> Rich:
    """The message of one of ``event_lines.NOTICE_EVENTS``; ``scores``: each seat's, for a
    game ended in play (its one message says where it stood)."""
    kind = event["type"]
    if kind == "round_ended":
        return round_end(locale, game, event)
    if kind == "game_over":
        return game_over(locale, game, event)
    if kind == "game_ended":
        ended = game_ended(locale, event)
        return ended if scores is None else join("\n", [ended, *score_lines(locale, game, scores)])
    return frozen_penalty(locale, game, event)
