"""A screen as plain data: its text (rich text, no markup) and its buttons, rows of
``Button``, with no Telegram type in them (``services.bot.keyboards`` makes Telegram's
keyboard of one, ``services.bot.telegram_html`` its HTML)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from services.presentation.callbacks import Callback
from services.presentation.rich import Rich


@dataclass(frozen=True, slots=True)
class Button:
    """One button: it sends ``callback``, or (``inline_query``) opens the inline-mode hand
    with that text in the chat's input field, or opens ``url`` (a link), or ``web_app`` (a
    Mini App's page, inside Telegram: private chats only)."""

    text: str
    callback: Callback | None = None
    inline_query: str | None = None
    url: str | None = None
    web_app: str | None = None


#: Rows of buttons, top to bottom.
Keyboard = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True, slots=True)
class Screen:
    """A message's whole content: its text and its keyboard (None: no buttons)."""

    text: Rich
    keyboard: Keyboard | None = None


def button(text: str, callback: Callback) -> Button:
    return Button(text, callback=callback)


#: Telegram's button widths, as a model: a row on a phone is about ``ROW_COLUMNS`` columns
#: of text wide, shared evenly by its buttons, each losing ``BUTTON_MARGIN`` to its edges;
#: a label wider than its share is cut with "…". Fitted to what a phone shows: four cards
#: to a row show "▶ 🟥 7" but cut "▶ 🌈 +4", three to a row cut "⭐ Classic".
ROW_COLUMNS = 32
BUTTON_MARGIN = 2


def columns(text: str) -> int:
    """``text``'s width in columns: an emoji (or a character made one by U+FE0F) two,
    marks and format characters (joiners, isolates) none, anything else one."""
    width = 0
    for char in text:
        if char == "\ufe0f":
            width += 1  # the character before it shows as an emoji: two columns
        elif unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            width += 2
        else:
            width += 1
    return width


def label_room(per_row: int) -> int:
    """The columns a label has on a row of ``per_row`` buttons."""
    return ROW_COLUMNS // per_row - BUTTON_MARGIN


def fits(text: str, per_row: int) -> bool:
    """Whether ``text`` shows whole on a row of ``per_row`` buttons."""
    return columns(text) <= label_room(per_row)


def rows(buttons: Sequence[Button], most: int) -> list[tuple[Button, ...]]:
    """``buttons`` laid out in order, at most ``most`` to a row and fewer where a label
    would not show whole (``fits``)."""
    laid: list[tuple[Button, ...]] = []
    row: list[Button] = []
    for b in buttons:
        wider = [*row, b]
        if row and (len(row) == most or not all(fits(x.text, len(wider)) for x in wider)):
            laid.append(tuple(row))
            row = []
        row.append(b)
    if row:
        laid.append(tuple(row))
    return laid


def callbacks(keyboard: Keyboard | None) -> list[Callback]:
    """Every callback ``keyboard`` sends, row by row."""
    return [b.callback for row in keyboard or () for b in row if b.callback is not None]
