"""Message text as Telegram stores it: UTF-16 offsets, and the entities Telegram finds by
itself in plain text (``bot_command``, ``mention``, ``hashtag``, ``url``).

Entity offsets and lengths count UTF-16 code units, as in the Bot API. The patterns follow
Telegram's own (tdlib ``match_bot_commands``, ``match_mentions``): a command is ``/`` plus 1-64
of ``[A-Za-z0-9_]``, optionally ``@`` plus a 3-32 character username, not glued to a word
character or ``/<>`` on either side.
"""

from __future__ import annotations

import re
from typing import Any

MAX_TEXT_LENGTH = 4096
#: A file's caption: at most 1024 UTF-16 units after parsing (the Bot API's sendPhoto).
MAX_CAPTION_LENGTH = 1024

_BOT_COMMAND = re.compile(r"(?<![\w/<>])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/<>@])")
_MENTION = re.compile(r"(?<!\w)@[A-Za-z0-9_]{2,32}(?!\w)")
_HASHTAG = re.compile(r"(?<![\w#])#\w*[^\W\d_]\w*(?![\w#])")
# Telegram's URL finder knows far more forms; links with a scheme are what bots post.
_URL = re.compile(r"(?<![\w@/])(?:https?|tg)://[^\s<>\"]+[^\s<>\".,;:!?)\]']")


def utf16_length(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (what entity offsets count)."""
    return len(text.encode("utf-16-le")) // 2


def utf16_offset(text: str, index: int) -> int:
    """UTF-16 offset of the Python string index ``index`` in ``text``."""
    return utf16_length(text[:index])


def detected_entities(text: str) -> list[dict[str, Any]]:
    """The entities Telegram finds in plain text, ordered by offset."""
    found: list[tuple[int, int, str]] = []
    for pattern, kind in (
        (_BOT_COMMAND, "bot_command"),
        (_MENTION, "mention"),
        (_HASHTAG, "hashtag"),
        (_URL, "url"),
    ):
        for match in pattern.finditer(text):
            found.append((match.start(), match.end(), kind))
    found.sort()
    entities: list[dict[str, Any]] = []
    last_end = -1
    for start, end, kind in found:
        if start < last_end:
            continue  # overlapping matches: the first one wins
        offset = utf16_offset(text, start)
        entities.append({"offset": offset, "length": utf16_length(text[start:end]), "type": kind})
        last_end = end
    return entities


def merge_entities(
    formatting: list[dict[str, Any]], detected: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Formatting entities plus detected ones that do not fall inside a code or link entity,
    sorted as Telegram sorts them (by offset, longer first)."""
    blocking = [e for e in formatting if e["type"] in {"code", "pre", "text_link", "text_mention"}]

    def blocked(entity: dict[str, Any]) -> bool:
        start, end = entity["offset"], entity["offset"] + entity["length"]
        return any(b["offset"] < end and start < b["offset"] + b["length"] for b in blocking)

    merged = list(formatting) + [e for e in detected if not blocked(e)]
    merged.sort(key=lambda e: (e["offset"], -e["length"]))
    return merged


def command_of(text: str, entities: list[dict[str, Any]]) -> tuple[str, str | None] | None:
    """``(command, addressee)`` when the message starts with a ``bot_command`` entity:
    ``"/new@UnoBot x"`` -> ``("new", "UnoBot")``; ``None`` otherwise."""
    for entity in entities:
        if entity["type"] == "bot_command" and entity["offset"] == 0:
            token = text.encode("utf-16-le")[: entity["length"] * 2].decode("utf-16-le")
            name, _, addressee = token[1:].partition("@")
            return name, addressee or None
    return None
