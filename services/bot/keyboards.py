"""A screen's keyboard (``screens.keyboard``, plain data) as Telegram's, and the digest of
what a message shows, by which an edit that changes nothing is skipped."""

from __future__ import annotations

import hashlib
import re

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from services.bot.telegram_html import telegram_html
from services.presentation.screens.keyboard import Button, Keyboard, Screen


def telegram_button(button: Button) -> InlineKeyboardButton:
    if button.inline_query is not None:
        return InlineKeyboardButton(
            button.text, switch_inline_query_current_chat=button.inline_query
        )
    if button.url is not None:
        return InlineKeyboardButton(button.text, url=button.url)
    if button.web_app is not None:
        return InlineKeyboardButton(button.text, web_app=WebAppInfo(button.web_app))
    assert button.callback is not None
    return InlineKeyboardButton(button.text, callback_data=button.callback.encode())


def markup(keyboard: Keyboard | None) -> InlineKeyboardMarkup | None:
    if keyboard is None:
        return None
    return InlineKeyboardMarkup([[telegram_button(b) for b in row] for row in keyboard])


_VERSION_FIELD = re.compile(r"\|\d+\|")


def fingerprint(screen: Screen, *, versions: bool = True) -> str:
    """A digest of the screen as Telegram is sent it; with ``versions=False`` the buttons'
    versions are left out, so a hand whose cards and choices did not change is not edited
    for a new version alone (a press on it that is out of date is answered and refreshes
    it)."""
    shown = markup(screen.keyboard)
    buttons = shown.to_json() if shown is not None else ""
    if not versions:
        buttons = _VERSION_FIELD.sub("|*|", buttons)
    return hashlib.blake2b(
        f"{telegram_html(screen.text)}\0{buttons}".encode(), digest_size=8
    ).hexdigest()
