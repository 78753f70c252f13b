"""What a chat message says, without its markup: the tests compare the words people read."""

from __future__ import annotations

import html


def plain_text(text: str) -> str:
    """Telegram HTML ``text`` as plain text, its isolates taken out."""
    return html.unescape(text.replace("\u2068", "").replace("\u2069", ""))
