"""The command menus Telegram shows beside the message box: each command and what it does,
in a group and in a private chat (the bot registers them: ``BotCommand``); and /help, the
commands in a message. The words are here with every other word."""

from __future__ import annotations

from services.presentation.i18n import gettext, rich_gettext
from services.presentation.rich import Rich


def group_commands(locale: str | None) -> list[tuple[str, str]]:
    """(command, description) for a group's menu."""
    return [
        ("new", gettext(locale, "start a game")),
        ("join", gettext(locale, "join the game")),
        ("leave", gettext(locale, "leave the game")),
        ("start", gettext(locale, "deal (the host)")),
        ("end", gettext(locale, "end the game")),
        ("kick", gettext(locale, "remove a player (reply to them)")),
        ("back", gettext(locale, "I'm back")),
        ("rules", gettext(locale, "the rules in short")),
        ("help", gettext(locale, "how to play")),
        ("language", gettext(locale, "the group's language (admins)")),
        ("stats", gettext(locale, "my games, wins and rating (or reply to someone)")),
        ("top", gettext(locale, "the best players: /top global, /top wins, /top flip")),
        ("forgetme", gettext(locale, "delete my records")),
        ("settings", gettext(locale, "settings for new games (admins)")),
        ("replay", gettext(locale, "watch the last game again")),
    ]


def private_commands(locale: str | None) -> list[tuple[str, str]]:
    """(command, description) for a private chat's menu."""
    return [
        ("start", gettext(locale, "show my hands")),
        ("help", gettext(locale, "how to play")),
        ("language", gettext(locale, "my language")),
        ("stats", gettext(locale, "my games, wins and rating")),
        ("top", gettext(locale, "the best players: /top wins, /top flip")),
        ("replay", gettext(locale, "watch a game you played: /replay <game id>")),
        ("forgetme", gettext(locale, "delete my records")),
    ]


def help_text(locale: str | None) -> Rich:
    """/help: how to play, command by command."""
    return rich_gettext(
        locale,
        "🎴 UNO in your group.\n"
        "/new — start a game (choose the variant)\n"
        "/join, /leave — take or leave a seat\n"
        "/start — deal (the host)\n"
        "/end — end the game (the host or an admin)\n"
        "/kick — reply to a player to remove them (the host or an admin)\n"
        "/back — come back after being away\n"
        "/rules [variant] — the rules in short\n\n"
        "Play from “My cards” (inline mode) or from your hand in a private chat with me.\n"
        "Minions' Dumb Fu needs group privacy mode off so I notice a frozen player "
        "talking.",
    ) + rich_gettext(
        locale,
        "\n\n/stats, /top — games, wins and ratings\n"
        "/replay — watch a finished game again, move by move, and check its deals",
    )


def private_hello(locale: str | None) -> Rich:
    """/start in a private chat from someone with no hand to show."""
    return rich_gettext(locale, "Hi! Add me to a group and type /new there to play UNO.")
