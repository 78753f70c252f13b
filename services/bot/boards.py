"""What /stats, /top and /forgetme show: pure functions from the records' values to text
(Telegram HTML) and buttons, every word through ``i18n``."""

from __future__ import annotations

import html

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from services.bot.callbacks import Callback, Kind
from services.bot.i18n import gettext, ngettext, number
from services.bot.locales.bidi import isolate
from services.bot.render import VARIANTS, variant_name
from services.records.queries import (
    BoardEntry,
    BoardOrder,
    ChatSettings,
    UserStats,
    VariantRecord,
)

#: What ``/top`` understands after the command: a variant (several spellings), ``global``
#: and ``wins``.
VARIANT_WORDS = {
    **{v: v for v in VARIANTS},
    "nomercy": "no_mercy",
    "no-mercy": "no_mercy",
    "mercy": "no_mercy",
}
GLOBAL_WORDS = {"global", "all", "world"}
WINS_WORDS = {"wins", "win"}


class BadBoardRequest(ValueError):
    """A word after /top that names no variant, ``global`` or ``wins``."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


def parse_top(args: list[str]) -> tuple[str, BoardOrder, bool]:
    """``/top [variant] [global] [wins]``, in any order: (variant, order, global?)."""
    variant, order, everywhere = "classic", BoardOrder.RATING, False
    for raw in args:
        word = raw.casefold()
        if word in VARIANT_WORDS:
            variant = VARIANT_WORDS[word]
        elif word in GLOBAL_WORDS:
            everywhere = True
        elif word in WINS_WORDS:
            order = BoardOrder.WINS
        else:
            raise BadBoardRequest(raw)
    return variant, order, everywhere


def _name(locale: str | None, name: str | None, is_ai: bool) -> str:
    shown = html.escape(name) if name else gettext(locale, "(forgotten player)")
    return ("🤖 " if is_ai else "") + isolate(shown)


def rating(value: float) -> float:
    """A rating as shown: one decimal (fields get the reader's digits from ``gettext``)."""
    return round(value, 1)


def _record_line(locale: str | None, record: VariantRecord) -> str:
    return gettext(
        locale,
        "{variant}: games {games} · wins {wins} · points {points} · rating {rating}",
        variant=variant_name(locale, record.variant),
        games=record.games,
        wins=record.wins,
        points=record.points,
        rating=rating(record.rating),
    )


def stats_text(locale: str | None, name: str, stats: UserStats | None) -> str:
    """/stats: a player's games, wins, points and rating per variant, everywhere and in the
    chat asked in."""
    shown = isolate(html.escape(name))
    if stats is None or not (stats.variants or stats.in_chat):
        return gettext(
            locale, "No finished games on record for {name} yet.", name=html.escape(name)
        )
    lines = [f"📊 <b>{shown}</b>"]
    if stats.in_chat:
        lines.append("")
        lines.append(gettext(locale, "In this chat:"))
        lines.extend(_record_line(locale, r) for r in stats.in_chat)
    if stats.variants:
        lines.append("")
        lines.append(gettext(locale, "Everywhere:"))
        lines.extend(_record_line(locale, r) for r in stats.variants)
    return "\n".join(lines)


def board_text(
    locale: str | None,
    variant: str,
    order: BoardOrder,
    everywhere: bool,
    entries: list[BoardEntry],
) -> str:
    """/top: a short board, by rating or by wins, of a chat or of everyone."""
    where = gettext(locale, "everywhere") if everywhere else gettext(locale, "this chat")
    how = gettext(locale, "by rating") if order is BoardOrder.RATING else gettext(locale, "by wins")
    title = gettext(
        locale,
        "🏆 {variant} — {where}, {order}",
        variant=variant_name(locale, variant),
        where=where,
        order=how,
    )
    if not entries:
        return (
            html.escape(title)
            + "\n\n"
            + gettext(locale, "No one on this board yet: finish a game!")
        )
    lines = [f"<b>{html.escape(title)}</b>", ""]
    for entry in entries:
        if order is BoardOrder.RATING:
            value = gettext(locale, "rating {rating}", rating=rating(entry.rating))
        else:
            value = ngettext(locale, "{n} win", "{n} wins", entry.wins)
        games = ngettext(locale, "{n} game", "{n} games", entry.games)
        lines.append(
            f"{number(locale, entry.place)}. {_name(locale, entry.name, entry.is_ai)}"
            f" — {value} · {games}"
        )
    return "\n".join(lines)


def forget_question(locale: str | None, user_id: int) -> tuple[str, InlineKeyboardMarkup]:
    """/forgetme's question, with the button only the asker may press."""
    text = gettext(
        locale,
        "This deletes your ratings and standings and removes your name from past games. "
        "It cannot be undone. Are you sure?",
    )
    button = InlineKeyboardButton(
        gettext(locale, "Yes, forget me"),
        callback_data=Callback(Kind.FORGET, "", 0, str(user_id)).encode(),
    )
    return text, InlineKeyboardMarkup([[button]])


#: The turn times /settings offers (seconds).
TURN_CHOICES = (15, 30, 60, 120)


def settings_message(
    locale: str | None, current: ChatSettings, default_turn_seconds: int
) -> tuple[str, InlineKeyboardMarkup]:
    """/settings: the chat's defaults for new games, and buttons to change them (the
    current choices ticked)."""
    turn = current.turn_seconds or default_turn_seconds
    text = "\n".join(
        [
            gettext(locale, "⚙️ Settings for new games here (chat admins can change them):"),
            gettext(
                locale, "Default variant: {variant}", variant=variant_name(locale, current.variant)
            ),
            ngettext(locale, "Turn time: {n} second", "Turn time: {n} seconds", turn),
        ]
    )
    variants = [
        InlineKeyboardButton(
            ("✅ " if v == current.variant else "") + variant_name(locale, v),
            callback_data=Callback(Kind.SETTINGS, "", 0, f"v.{v}").encode(),
        )
        for v in VARIANTS
    ]
    turns = [
        InlineKeyboardButton(
            ("✅ " if s == turn else "") + gettext(locale, "{seconds} s", seconds=s),
            callback_data=Callback(Kind.SETTINGS, "", 0, f"t.{s}").encode(),
        )
        for s in TURN_CHOICES
    ]
    return text, InlineKeyboardMarkup([variants[:3], variants[3:], turns])
