"""Numbers written the way each language writes them (Babel, CLDR data).

Babel gives each locale's separators and its default numbering system (Persian: ``arabext``,
the Extended Arabic-Indic digits ۰–۹; English and Gujarati: Latin digits) but formats the
digits themselves in Latin; the digits of a native numbering system are put in here.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Final

from babel import Locale
from babel.numbers import format_decimal

#: The zero of each numbering system a supported language defaults to; the other nine
#: digits follow it in Unicode.
_ZERO_OF_NUMBERING_SYSTEM: Final = {"latn": "0", "arabext": "\u06f0"}


@cache
def _digit_table(language: str) -> dict[int, int]:
    system = Locale.parse(language).default_numbering_system
    try:
        zero = ord(_ZERO_OF_NUMBERING_SYSTEM[system])
    except KeyError:
        raise ValueError(f"no digits known for {language}'s numbering system {system}") from None
    return {ord("0") + d: zero + d for d in range(10)}


def localize_digits(language: str, text: str) -> str:
    """``text`` with its Latin digits written in ``language``'s own digits."""
    return text.translate(_digit_table(language))


@lru_cache(maxsize=4096)  # Babel takes tens of µs a number; a table writes a dozen
def format_number(language: str, value: int | float) -> str:
    """``value`` with ``language``'s digits and separators: 1,250 · ۱٬۲۵۰ · 1,250."""
    formatted = format_decimal(value, locale=language, numbering_system="default")
    return localize_digits(language, formatted)


def format_clock(language: str, seconds: int) -> str:
    """A countdown as minutes:seconds in ``language``'s digits: 0:45 · ۰:۴۵."""
    minutes, rest = divmod(max(0, seconds), 60)
    return localize_digits(language, f"{minutes}:{rest:02d}")
