"""/new's question and the lobby: the group's message before the deal; and what the lobby's
words (its buttons, /new, /join, /leave, /start, /end, /back, /kick) answer the person who
sent them."""

from __future__ import annotations

from collections.abc import Sequence

from services.engine.views import GameInfo, SeatInfo, VariantFacts
from services.presentation.callbacks import Callback, Kind
from services.presentation.i18n import N_, gettext, language, ngettext, rich_gettext
from services.presentation.locales.glossary import HOUSE_RULES, house_rule_name
from services.presentation.locales.numerals import localize_digits
from services.presentation.rich import Rich, join, text
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


# -- what the lobby's words answer ------------------------------------------------------------

#: After a variant's summary (``VariantFacts.summary_msgid``) in the lobby's 📖 Rules alert.
FIRST_TO = N_("First to {n}.")


def group_only(locale: str | None) -> Rich:
    """/new or /settings outside a group."""
    return rich_gettext(locale, "Add me to a group and type /new there.")


def which_uno(locale: str | None) -> Rich:
    """/new's question (its buttons: ``variant_keyboard``)."""
    return rich_gettext(locale, "🎴 Which UNO shall we play?")


def game_already_on(locale: str | None) -> str:
    """/new, or a variant chosen, where a game is already on."""
    return gettext(locale, "A game is already on here: /join it.")


def already_here(locale: str | None, *, seated: bool, playing: bool) -> Rich:
    """/new where a game is already on: where the sender stands in it."""
    if seated and playing:
        return rich_gettext(
            locale, "You are already playing in this game: 🃏 My cards shows your cards."
        )
    if seated:
        return rich_gettext(locale, "You are already in this game: the host deals it with ▶️ Start.")
    return text(game_already_on(locale))


def rules_summary(locale: str, facts: VariantFacts) -> str:
    """The lobby's 📖 Rules alert: the variant in short, and the score that wins it."""
    summary = gettext(locale, facts.summary_msgid)
    target = localize_digits(language(locale), str(facts.target_score))
    return f"{summary} {gettext(locale, FIRST_TO, n=target)}"


def lobby_changed(locale: str | None) -> str:
    """An Add AI press on a lobby older than the game's."""
    return gettext(
        locale, "The lobby has changed since this button was drawn: look at it and press again."
    )


def already_done(locale: str | None) -> str:
    """A second Add AI press of the same lobby."""
    return gettext(locale, "Already done: the lobby shows it in a moment.")


def ai_added(locale: str | None, level: str) -> str:
    """An AI seated by an Add AI press (``level``: its level's id)."""
    return gettext(
        locale,
        "Added: {level}. The lobby shows it in a moment.",
        level=ai_level_name(locale, level),
    )


def joined(locale: str | None) -> str:
    return gettext(locale, "You're in!")


def left(locale: str | None) -> str:
    return gettext(locale, "You left the game.")


def done(locale: str | None) -> str:
    """A host's lobby word done (Add AI, start)."""
    return gettext(locale, "Done.")


def no_game_here(locale: str | None) -> Rich:
    """A lobby word in a chat without a game."""
    return rich_gettext(locale, "No game here. Start one with /new.")


def welcome_back(locale: str | None) -> str:
    return gettext(locale, "Welcome back!")


def not_away(locale: str | None) -> str:
    """/back from someone the game does not hold out."""
    return gettext(locale, "You are not away in this game.")


def kick_needs_reply(locale: str | None) -> Rich:
    return rich_gettext(locale, "Reply to a message of the player to kick.")


def removed_from_game(locale: str | None) -> Rich:
    """/kick done."""
    return rich_gettext(locale, "Removed from the game.")


def not_in_the_game(locale: str | None) -> Rich:
    """/kick of someone without a seat."""
    return rich_gettext(locale, "That player is not in the game.")
