"""Right-to-left text done right: isolates around names and codes (Unicode UAX #9).

A Persian message that quotes a Latin user name, a card code or a number would otherwise
let the bidi algorithm reorder its neighbours ("alice 5 کارت" can read as "5 alice"). Every
value interpolated into a message is wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL
ISOLATE, so it is laid out on its own, in its own direction, and leaves the surrounding
text in order. Text that is already in the message's language (a translated card name, a
nested translated message) is a ``Phrase`` and goes in as is.
"""

from __future__ import annotations

from typing import Final, overload

from services.presentation.rich import Rich

FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_DIRECTIONAL_ISOLATE: Final = "\u2069"
RIGHT_TO_LEFT_MARK: Final = "\u200f"

RTL_LANGUAGES: Final = frozenset({"fa"})


class Phrase(str):
    """Text already written in the language of the message it goes into (a translation,
    a card name from the glossary): interpolated without an isolate."""

    __slots__ = ()


_EMBEDDINGS: Final = frozenset("\u202a\u202b\u202d\u202e")  # LRE RLE LRO RLO
_POP_EMBEDDING: Final = "\u202c"  # PDF
_ISOLATES: Final = frozenset("\u2066\u2067\u2068")  # LRI RLI FSI
_POP_ISOLATE: Final = POP_DIRECTIONAL_ISOLATE


def balanced(text: str) -> str:
    """``text`` with its bidi controls balanced (UAX #9): a pop that closes nothing is taken
    out and whatever is left open is closed at its end, so a name holding an unclosed
    isolate or override ("\u2067…") cannot reorder the rest of the line it is put in."""
    out: list[str] = []
    stack: list[str] = []
    for char in text:
        if char in _EMBEDDINGS or char in _ISOLATES:
            stack.append(char)
        elif char == _POP_EMBEDDING:
            if not stack or stack[-1] not in _EMBEDDINGS:
                continue
            stack.pop()
        elif char == _POP_ISOLATE:
            if not any(c in _ISOLATES for c in stack):
                continue
            # A PDI closes its isolate and every embedding opened inside it.
            while stack[-1] not in _ISOLATES:
                out.append(_POP_EMBEDDING)
                stack.pop()
            stack.pop()
        out.append(char)
    for opened in reversed(stack):
        out.append(_POP_ISOLATE if opened in _ISOLATES else _POP_EMBEDDING)
    return "".join(out)


def isolate(text: str) -> str:
    """``text``, its bidi controls balanced, wrapped in a first-strong isolate: laid out in
    its own direction (that of its first strong letter) without reordering what surrounds
    it."""
    return f"{FIRST_STRONG_ISOLATE}{balanced(text)}{POP_DIRECTIONAL_ISOLATE}"


def is_rtl(language: str) -> bool:
    return language in RTL_LANGUAGES


@overload
def with_direction(language: str, text: str) -> str: ...
@overload
def with_direction(language: str, text: Rich) -> Rich: ...
def with_direction(language: str, text: str | Rich) -> str | Rich:
    """``text`` with each line started by a right-to-left mark in a right-to-left language.

    A line whose first strong letter is Latin (or that has none: only names in isolates,
    emoji and numbers, like a list of players and their card counts) would otherwise be laid
    out left to right in the middle of a Persian message. Apply it once, to a whole message,
    just before it is sent. In rich text the mark stands before whatever the line starts
    with (a mention's name keeps its link to itself).
    """
    if not is_rtl(language):
        return text
    if isinstance(text, Rich):
        return text.insert_plain(_unmarked_line_starts(text.plain), RIGHT_TO_LEFT_MARK)
    return "\n".join(
        line if not line or line.startswith(RIGHT_TO_LEFT_MARK) else RIGHT_TO_LEFT_MARK + line
        for line in text.split("\n")
    )


def _unmarked_line_starts(text: str) -> list[int]:
    """Where each line of ``text`` that is neither empty nor marked already starts."""
    starts, at = [], 0
    for line in text.split("\n"):
        if line and not line.startswith(RIGHT_TO_LEFT_MARK):
            starts.append(at)
        at += len(line) + 1
    return starts
