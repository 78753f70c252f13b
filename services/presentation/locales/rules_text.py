"""The ``/rules <variant>`` texts: one file per language and variant, as rich text.

``rules/<language>/<variant>.md`` is plain text that translators edit directly, with three
marks only: a line ``# Title`` or ``## Section`` is a bold heading, a line ``- item`` a
bullet; the rest is text as it is written (each front escapes it for its markup). The
English texts restate RULES.md; the Persian and Gujarati texts follow the rule sheets
themselves and use their card names (glossary.py).

A text longer than one Telegram message (4,096 characters of its text, as Telegram counts
them after its markup) is cut between paragraphs.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Final

from services.presentation.rich import Rich, as_rich, bold, join

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


def render_line(line: str) -> Rich:
    """One line of a rules file as rich text."""
    for mark in ("## ", "# "):
        if line.startswith(mark):
            return bold(line[len(mark) :].strip())
    if line.startswith("- "):
        return as_rich("• " + line[2:].strip())
    return as_rich(line.rstrip())


def split_messages(paragraphs: list[Rich], limit: int = MESSAGE_LIMIT) -> list[Rich]:
    """Paragraphs joined by blank lines into as few messages of at most ``limit`` (of their
    text) as they fit in; a paragraph too long on its own is cut between its lines."""
    messages: list[Rich] = []
    current = Rich()
    for paragraph in paragraphs:
        fits = telegram_length(paragraph.plain) <= limit
        pieces = [paragraph] if fits else paragraph.split("\n")
        for piece in pieces:
            if telegram_length(piece.plain) > limit:
                length = telegram_length(piece.plain)
                raise ValueError(f"a line of {length} characters: {piece.plain[:40]}…")
            candidate = current + "\n\n" + piece if current else piece
            if telegram_length(candidate.plain) <= limit:
                current = candidate
            else:
                messages.append(current)
                current = piece
    if current:
        messages.append(current)
    return messages


@cache
def rules_messages(language: str, variant: str) -> tuple[Rich, ...]:
    """The rules of ``variant`` in ``language`` as messages of rich text, in order."""
    text = rules_path(language, variant).read_text(encoding="utf-8")
    paragraphs = [
        join("\n", (render_line(line) for line in block.strip().split("\n")))
        for block in text.split("\n\n")
        if block.strip()
    ]
    return tuple(split_messages(paragraphs))
