"""Rich text: built, joined, filled in and split without losing a span's looks, and
marked for right-to-left reading as its Telegram HTML would be."""

from __future__ import annotations

import pytest

from services.bot.telegram_html import telegram_html
from services.presentation.i18n import gettext, ngettext, rich_gettext, rich_ngettext
from services.presentation.locales.bidi import RIGHT_TO_LEFT_MARK, with_direction
from services.presentation.rich import (
    EMPTY,
    Rich,
    Span,
    Style,
    as_rich,
    bold,
    code,
    fill,
    italic,
    join,
    link,
    mention,
)


def test_neighbours_that_look_alike_are_one_span_and_empty_ones_none() -> None:
    joined = as_rich("a") + "b" + as_rich("") + mention("Ann", 7) + mention("!", 7)
    assert joined.spans == (Span("ab"), Span("Ann!", mention=7))
    assert joined == "a" + (as_rich("b") + mention("Ann!", 7))
    assert not EMPTY and not as_rich("") and as_rich(" ")


def test_plain_is_every_span_s_text_without_its_looks() -> None:
    text = bold("Rules") + ": " + italic("fast") + " " + code("/new") + " " + link("site", "u")
    assert text.plain == "Rules: fast /new site"
    assert [s.style for s in text.spans][:3] == [Style.BOLD, Style.NONE, Style.ITALIC]


def test_join_puts_the_separator_between_each_two() -> None:
    assert join(" · ", ["a", mention("B", 2), "c"]).plain == "a · B · c"
    assert join("\n", []) == EMPTY
    assert join(bold("|"), ["x", "y"]) == as_rich("x") + bold("|") + "y"


def test_split_keeps_each_piece_s_looks() -> None:
    text = as_rich("one\ntw") + mention("o\nthree", 3)
    assert text.split("\n") == [
        as_rich("one"),
        as_rich("tw") + mention("o", 3),
        mention("three", 3),
    ]
    assert [piece.plain for piece in text.split("\n")] == text.plain.split("\n")


def test_fill_keeps_a_rich_value_s_looks_and_takes_a_str_as_text() -> None:
    filled = fill("{who} drew {n} {{x}}", {"who": mention("Ann", 1), "n": "<2>"})
    assert filled == mention("Ann", 1) + " drew <2> {x}"


def test_a_rich_message_is_the_plain_one_with_its_values_looks() -> None:
    """The rich forms of gettext say the same words as the plain ones, in every language,
    with numbers in its digits and a str value isolated."""
    for language in ("en", "fa", "gu"):
        name = mention("\u2068Ann\u2069", 5)
        rich = rich_gettext(language, "waiting for {name}", name=name)
        plain = gettext(language, "waiting for {name}", name=name.plain)
        # A str value is isolated, a rich one goes in as it is (isolated where it was made).
        assert rich.plain == gettext(language, "waiting for {name}", name="Ann")
        assert rich.plain != plain
        assert Span("\u2068Ann\u2069", mention=5) in rich.spans
        drew = rich_ngettext(language, "{name} drew {n}", "{name} drew {n}", 12, name="Bo")
        assert drew.plain == ngettext(language, "{name} drew {n}", "{name} drew {n}", 12, name="Bo")


def test_direction_marks_go_where_the_html_s_would() -> None:
    """Marking rich text for a right-to-left language, then writing it as HTML, gives what
    marking its HTML gave: a mark before each line that has none, outside a mention."""
    text = mention("Ann", 1) + " plays\n\n" + RIGHT_TO_LEFT_MARK + "marked\nx " + bold("y\nz")
    marked = with_direction("fa", text)
    assert telegram_html(marked) == with_direction("fa", telegram_html(text))
    assert marked.plain == with_direction("fa", text.plain)
    assert marked.spans[0] == Span(RIGHT_TO_LEFT_MARK)
    assert with_direction("en", text) is text
    assert with_direction("fa", EMPTY) == EMPTY


def test_rich_text_is_immutable() -> None:
    text = as_rich("a")
    with pytest.raises(AttributeError):
        text.spans = ()  # type: ignore[misc]
    assert text == Rich((Span("a"),))
