"""Right-to-left text done right: isolates around names and codes (Unicode UAX #9).

A Persian message that quotes a Latin user name, a card code or a number would otherwise
let the bidi algorithm reorder its neighbours ("alice 5 کارت" can read as "5 alice"). Every
value interpolated into a message is wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL
ISOLATE, so it is laid out on its own, in its own direction, and leaves the surrounding
text in order. Text that is already in the message's language (a translated card name, a
nested translated message) is a ``Phrase`` and goes in as is.
"""

from __future__ import annotations

from typing import Final

FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_DIRECTIONAL_ISOLATE: Final = "\u2069"
RIGHT_TO_LEFT_MARK: Final = "\u200f"

RTL_LANGUAGES: Final = frozenset({"fa"})


class Phrase(str):
    """Text already written in the language of the message it goes into (a translation,
    a card name from the glossary): interpolated without an isolate."""

    __slots__ = ()


def isolate(text: str) -> str:
    """``text`` wrapped in a first-strong isolate: laid out in its own direction (that of
    its first strong letter) without reordering what surrounds it."""
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def is_rtl(language: str) -> bool:
    return language in RTL_LANGUAGES


def with_direction(language: str, text: str) -> str:
    """``text`` with each line started by a right-to-left mark in a right-to-left language.

    A line whose first strong letter is Latin (or that has none: only names in isolates,
    emoji and numbers, like a list of players and their card counts) would otherwise be laid
    out left to right in the middle of a Persian message. Apply it once, to a whole message,
    just before it is sent.
    """
    if not is_rtl(language):
        return text
    return "\n".join(
        line if not line or line.startswith(RIGHT_TO_LEFT_MARK) else RIGHT_TO_LEFT_MARK + line
        for line in text.split("\n")
    )
