"""/new's question and the lobby: the group's message before the deal."""

from __future__ import annotations

from collections.abc import Sequence

from services.engine.views import GameInfo, SeatInfo
from services.presentation.callbacks import Callback, Kind
from services.presentation.i18n import gettext, language, ngettext, rich_gettext
from services.presentation.locales.glossary import HOUSE_RULES, house_rule_name
from services.presentation.rich import Rich, join
from services.presentation.screens.keyboard import Button, Keyboard, Screen, button, rows
from services.presentation.screens.names import listed, variant_name
from services.presentation.screens.people import person

#: The arguments of the lobby's buttons: anything else is data the bot did not write,
#: answered as out of date (a modified client can send any data).
LOBBY_BUTTONS = frozenset({"join", "leave", "ai.strong", "ai.random", "ai.hard", "start", "rules"})
#: The lobby's Add AI buttons: each press adds a seat.
AI_BUTTONS = frozenset({"ai.strong", "ai.random", "ai.hard"})


def variant_keyboard(
    locale: str | None, variants: Sequence[str], chat_tag: str, default: str | None = None
) -> Keyboard:
    """/new's question: which of ``variants``. No game exists yet, so the game field is
    empty. The chat's default variant (its settings) comes first, starred."""
    ordered = sorted(variants, key=lambda v: v != default)
    buttons = [
        button(
            ("⭐ " if v == default else "") + variant_name(locale, v),
            Callback(Kind.VARIANT, chat_tag, 0, v),
        )
        for v in ordered
    ]
    return tuple(rows(buttons, 3))


def lobby_text(locale: str | None, game: GameInfo) -> Rich:
    lines: list[Rich | str] = [
        "🎴 "
        + gettext(
            locale,
            "UNO {variant} · waiting for players",
            variant=variant_name(locale, game.variant),
        ),
        rich_gettext(locale, "Host: {name}", name=person(host_seat(game))),
        *settings_lines(locale, game),
        "",
    ]
    for seat in game.seats:
        if seat.ai:
            # Which AI is which: the level each seat plays at, as the Add AI buttons name it.
            lines.append("🤖 " + person(seat) + f" · {ai_level_name(locale, seat.ai)}")
        else:
            lines.append("• " + person(seat))
    lines.append("")
    lines.append(
        ngettext(locale, "{n} player", "{n} players", len(game.seats))
        + " · "
        + gettext(locale, "the host starts the game")
    )
    return join("\n", lines)


def ai_level_name(locale: str | None, level: str) -> str:
    """An AI seat's level in words: the strong AI (the default), the easy one (random
    play, and the test suite's first-legal player), the hard one."""
    if level == "hard":
        return gettext(locale, "hard AI")
    if level in ("random", "first-legal"):
        return gettext(locale, "easy AI")
    return gettext(locale, "strong AI")


def lobby_keyboard(locale: str | None, game: GameInfo) -> Keyboard:
    g = game.game_id

    def word(text: str, arg: str) -> Button:
        # [decision] The Add AI buttons carry the lobby's version: each press adds a seat,
        # so one pressed on a lobby older than the game's (a second press while the lobby
        # is slow to redraw) is refused, not applied again (lobby.py ``lobby_button``).
        # The other words mean the same on any version (joining twice changes nothing), and
        # hold none: two people joining from the same lobby both get in.
        v = game.version if arg in AI_BUTTONS else 0
        return button(text, Callback(Kind.LOBBY, g, v, arg))

    groups = (
        (
            word("✋ " + gettext(locale, "Join"), "join"),
            word("🚪 " + gettext(locale, "Leave"), "leave"),
        ),
        (
            word("🤖 " + gettext(locale, "Add AI"), "ai.strong"),
            word("🎲 " + gettext(locale, "Add easy AI"), "ai.random"),
            word("🧠 " + gettext(locale, "Add hard AI"), "ai.hard"),
        ),
        (
            word("▶️ " + gettext(locale, "Start"), "start"),
            word("📖 " + gettext(locale, "Rules"), "rules"),
        ),
    )
    return tuple(row for group in groups for row in rows(group, 3))


def lobby(locale: str | None, game: GameInfo) -> Screen:
    return Screen(lobby_text(locale, game), lobby_keyboard(locale, game))


def settings_lines(locale: str | None, game: GameInfo) -> list[str]:
    """The chat's settings this game plays with, where they differ from the variant's and
    the service's own: the house rules, the target score, the UNO window; and the turn's
    time, always (a chat's first question of a game)."""
    lines = []
    rules = [house_rule_name(language(locale), r) for r in HOUSE_RULES if game.rules.get(r)]
    if rules:
        lines.append(gettext(locale, "House rules: {rules}", rules=listed(locale, rules)))
    extras = [ngettext(locale, "Turn: {n} second", "Turn: {n} seconds", game.turn_seconds)]
    target = game.rules.get("target_score")
    if isinstance(target, int) and target > 0:
        extras.append(ngettext(locale, "Target: {n} point", "Target: {n} points", target))
    if game.uno_window_seconds is not None:
        extras.append(
            ngettext(
                locale, "UNO window: {n} second", "UNO window: {n} seconds", game.uno_window_seconds
            )
        )
    lines.append(" · ".join(extras))
    return lines


def host_seat(game: GameInfo) -> SeatInfo:
    for seat in game.seats:
        if seat.user_id == game.host:
            return seat
    return SeatInfo(seat=-1, name=str(game.host), user_id=game.host)
