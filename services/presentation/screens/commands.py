"""The command menus Telegram shows beside the message box: each command and what it does,
in a group and in a private chat. The words are here with every other word; the bot
registers them (``BotCommand``)."""

from __future__ import annotations

from services.presentation.i18n import gettext


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
