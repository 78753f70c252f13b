"""A screen as plain data: its text and its buttons, rows of ``Button``, with no Telegram
type in them (``services.bot.keyboards`` makes Telegram's keyboard of one)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.bot.callbacks import Callback


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

    text: str
    keyboard: Keyboard | None = None


def button(text: str, callback: Callback) -> Button:
    return Button(text, callback=callback)


def rows(buttons: Sequence[Button], width: int) -> list[tuple[Button, ...]]:
    """``buttons`` laid out ``width`` to a row."""
    return [tuple(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def callbacks(keyboard: Keyboard | None) -> list[Callback]:
    """Every callback ``keyboard`` sends, row by row."""
    return [b.callback for row in keyboard or () for b in row if b.callback is not None]
