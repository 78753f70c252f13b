"""Numbers in each language's digits and separators (Babel, CLDR)."""

from __future__ import annotations

import pytest

from services.presentation.locales.numerals import format_clock, format_number, localize_digits


@pytest.mark.parametrize(
    ("language", "value", "text"),
    [
        ("en", 1250, "1,250"),
        ("gu", 1250, "1,250"),
        ("fa", 1250, "۱٬۲۵۰"),
        ("fa", 7, "۷"),
        ("fa", 2.5, "۲٫۵"),
        ("en", 2.5, "2.5"),
    ],
)
def test_numbers(language: str, value: float, text: str) -> None:
    assert format_number(language, value) == text


def test_clock_and_digits() -> None:
    assert format_clock("en", 45) == "0:45"
    assert format_clock("fa", 105) == "۱:۴۵"
    assert format_clock("gu", -3) == "0:00"
    assert localize_digits("fa", "R5 0123456789") == "R۵ ۰۱۲۳۴۵۶۷۸۹"


def test_a_language_with_unknown_digits_is_refused() -> None:
    with pytest.raises(ValueError, match="numbering system"):
        format_number("ar_EG", 5)  # Arabic-Indic digits: not a language of the bot
