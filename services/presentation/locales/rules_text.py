"""The ``/rules <variant>`` texts: one file per language and variant, sent as Telegram HTML.

``rules/<language>/<variant>.md`` is plain text that translators edit directly, with three
marks only: a line ``# Title`` or ``## Section`` is a bold heading, a line ``- item`` a
bullet. The English texts restate RULES.md; the Persian and Gujarati texts follow the rule
sheets themselves and use their card names (glossary.py).

A text longer than one Telegram message (4,096 characters) is cut between paragraphs.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Final

RULES_DIR: Final = Path(__file__).resolve().parent / "rules"
#: Telegram's limit on one message's text.
MESSAGE_LIMIT: Final = 4096


#: A variant's name as the engine spells it (so a person's word never makes a path).
_VARIANT_NAME = re.compile(r"[a-z_]{1,32}")


def is_written(language: str, variant: str) -> bool:
    """Whether ``variant``'s rules are written in ``language`` (every variant the engine
    plays has its file in every language: tests/bot/locales hold it so)."""
    return (
        _VARIANT_NAME.fullmatch(variant) is not None
        and (RULES_DIR / language / f"{variant}.md").is_file()
    )


def written_variants(language: str) -> list[str]:
    """The variants whose rules are written in ``language``, by name."""
    return sorted(
        p.stem for p in (RULES_DIR / language).glob("*.md") if is_written(language, p.stem)
    )


def rules_path(language: str, variant: str) -> Path:
    if not is_written(language, variant):
        raise ValueError(f"unknown variant {variant!r}: no rules of it in {language!r}")
    return RULES_DIR / language / f"{variant}.md"


def telegram_length(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units (an emoji outside the BMP is 2)."""
    return len(text.encode("utf-16-le")) // 2


def render_line(line: str) -> str:
    """One line of a rules file as Telegram HTML."""
    for mark in ("## ", "# "):
        if line.startswith(mark):
            return f"<b>{html.escape(line[len(mark) :].strip())}</b>"
    if line.startswith("- "):
        return "• " + html.escape(line[2:].strip())
    return html.escape(line.rstrip())


def split_messages(paragraphs: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Paragraphs joined by blank lines into as few messages of at most ``limit`` as they
    fit in; a paragraph too long on its own is cut between its lines."""
    messages: list[str] = []
    current = ""
    for paragraph in paragraphs:
        pieces = [paragraph] if telegram_length(paragraph) <= limit else paragraph.split("\n")
        for piece in pieces:
            if telegram_length(piece) > limit:
                raise ValueError(f"a line of {telegram_length(piece)} characters: {piece[:40]}…")
            candidate = f"{current}\n\n{piece}" if current else piece
            if telegram_length(candidate) <= limit:
                current = candidate
            else:
                messages.append(current)
                current = piece
    if current:
        messages.append(current)
    return messages


@cache
def rules_messages(language: str, variant: str) -> tuple[str, ...]:
    """The rules of ``variant`` in ``language`` as Telegram HTML messages, in order."""
    text = rules_path(language, variant).read_text(encoding="utf-8")
    paragraphs = [
        "\n".join(render_line(line) for line in block.strip().split("\n"))
        for block in text.split("\n\n")
        if block.strip()
    ]
    return tuple(split_messages(paragraphs))
