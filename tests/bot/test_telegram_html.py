"""Rich text as the bot sends it: every span escaped for Telegram's HTML, each style and
mention its tag, the bot's own words (already HTML) as they are."""

from __future__ import annotations

from services.bot.telegram_html import telegram_html
from services.presentation.rich import (
    Rich,
    Span,
    Style,
    as_rich,
    bold,
    code,
    italic,
    link,
    mention,
    text,
)


def test_text_is_escaped_where_telegram_requires_it() -> None:
    assert telegram_html(as_rich("<b>x</b> & 'y' \"z\"")) == (
        "&lt;b&gt;x&lt;/b&gt; &amp; 'y' \"z\""
    )


def test_each_look_is_its_tag() -> None:
    assert telegram_html(bold("a") + italic("b") + code("c")) == "<b>a</b><i>b</i><code>c</code>"
    both = as_rich("") + text("x")
    assert telegram_html(both) == "x"
    styled = bold("a") + " "
    assert telegram_html(styled) == "<b>a</b> "
    nested = Rich((Span("n", Style.BOLD | Style.ITALIC),))
    assert telegram_html(nested) == "<b><i>n</i></b>"


def test_a_mention_links_its_person_and_a_link_its_address() -> None:
    assert telegram_html(mention("\u2068<Ann>\u2069", 42)) == (
        '<a href="tg://user?id=42">\u2068&lt;Ann&gt;\u2069</a>'
    )
    assert telegram_html(link("site", 'https://x.example/?a=1&b="2"')) == (
        '<a href="https://x.example/?a=1&amp;b=&quot;2&quot;">site</a>'
    )


def test_the_bots_own_html_goes_through_as_it_is() -> None:
    assert telegram_html("<b>Rules</b> &amp;") == "<b>Rules</b> &amp;"
