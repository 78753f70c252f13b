"""What a chat message says, without its markup: the tests compare the words people read."""

from __future__ import annotations

import html

from services.presentation.rich import Rich


def plain_text(text: Rich | str) -> str:
    """A screen's rich text, or Telegram HTML as the chat received it, as plain text, its
    isolates taken out."""
    plain = text.plain if isinstance(text, Rich) else html.unescape(text)
    return plain.replace("\u2068", "").replace("\u2069", "")
