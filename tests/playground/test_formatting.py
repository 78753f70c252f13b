"""parse_mode HTML and MarkdownV2: text and entities as Telegram makes them, and its refusals
word for word. The cases with expected errors come from Telegram's own parser (tdlib's
MessageEntity tests): offsets are UTF-8 bytes of the markup (the stadium emoji is 4 bytes)."""

from __future__ import annotations

from typing import Any

import pytest

from playground.errors import BotApiError
from playground.formatting import format_text, parse_html, parse_markdown_v2
from playground.text import detected_entities

PREFIX = "Bad Request: can't parse entities: "


def refusal(parse: Any, markup: str) -> str:
    with pytest.raises(BotApiError) as caught:
        parse(markup)
    assert caught.value.error_code == 400
    assert caught.value.description.startswith(PREFIX)
    return caught.value.description[len(PREFIX) :]


@pytest.mark.parametrize(
    ("markup", "error"),
    [
        ("a < b", 'Unsupported start tag "" at byte offset 2'),
        ("<b>open", 'Can\'t find end tag corresponding to start tag "b"'),
        ("close</b>", "Unexpected end tag at byte offset 5"),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("<blink>x</blink>", 'Unsupported start tag "blink" at byte offset 0'),
        ("<b x", "Unclosed start tag at byte offset 0"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ("🏟<u>x", 'Can\'t find end tag corresponding to start tag "u"'),
        ("🏟 <p>", 'Unsupported start tag "p" at byte offset 5'),
        ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
    ],
)
def test_html_refusals(markup: str, error: str) -> None:
    assert refusal(parse_html, markup) == error


def test_html_entities_and_tags() -> None:
    text, entities = parse_html(
        '<b>Lobby</b> &lt;3 &amp; &foo; &#128512; <a href="https://t.me/x">link</a> '
        '<pre><code class="language-py">c</code></pre> <tg-spoiler>s</tg-spoiler> <b>x</>'
    )
    assert text == "Lobby <3 & &foo; 😀 link c s x"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 5},
        {"type": "text_link", "url": "https://t.me/x", "offset": 20, "length": 4},
        {"type": "pre", "language": "py", "offset": 25, "length": 1},
        {"type": "spoiler", "offset": 27, "length": 1},
        {"type": "bold", "offset": 29, "length": 1},
    ]


@pytest.mark.parametrize(
    ("markup", "error"),
    [
        ("🏟 🏟_abacaba", "Can't find end of Italic entity at byte offset 9"),
        ("🏟 🏟_abac * asd ", "Can't find end of Bold entity at byte offset 15"),
        ("🏟 🏟`", "Can't find end of Code entity at byte offset 9"),
        ("🏟 🏟```", "Can't find end of Pre entity at byte offset 9"),
        ("🏟 🏟__", "Can't find end of Underline entity at byte offset 9"),
        ("🏟 🏟||test\\|", "Can't find end of Spoiler entity at byte offset 9"),
        ("🏟 🏟!", "Character '!' is reserved and must be escaped with the preceding '\\'"),
        ("Version 1.0", "Character '.' is reserved and must be escaped with the preceding '\\'"),
        ("x - y", "Character '-' is reserved and must be escaped with the preceding '\\'"),
        ("[telegram\\.org](", "Can't find end of a URL at byte offset 16"),
        ("[telegram\\.org](asd", "Can't find end of a URL at byte offset 16"),
    ],
)
def test_markdown_v2_refusals(markup: str, error: str) -> None:
    assert refusal(parse_markdown_v2, markup) == error


@pytest.mark.parametrize(
    ("markup", "text", "entities"),
    [
        ("🏟 🏟_abac \\* asd _", "🏟 🏟abac * asd ", [("italic", 5, 11)]),
        ("🏟 \\.🏟_🏟\\. 🏟_", "🏟 .🏟🏟. 🏟", [("italic", 6, 6)]),
        ("||test||", "test", [("spoiler", 0, 4)]),
        ("🏟 🏟`🏟 🏟```", "🏟 🏟🏟 🏟", [("code", 5, 5)]),
        (
            "*a* _b_ __c__ ~d~",
            "a b c d",
            [("bold", 0, 1), ("italic", 2, 1), ("underline", 4, 1), ("strikethrough", 6, 1)],
        ),
        (">quote\n>more\nafter", "quote\nmore\nafter", [("blockquote", 0, 11)]),
    ],
)
def test_markdown_v2_text(markup: str, text: str, entities: list[tuple[str, int, int]]) -> None:
    parsed, found = parse_markdown_v2(markup)
    assert parsed == text
    assert [(e["type"], e["offset"], e["length"]) for e in found] == entities


def test_markdown_v2_link() -> None:
    assert parse_markdown_v2("[rules](https://t.me/x) \\(ok\\)") == (
        "rules (ok)",
        [{"type": "text_link", "url": "https://t.me/x", "offset": 0, "length": 5}],
    )


def test_text_is_trimmed_and_entities_follow() -> None:
    assert format_text("  <b>hi</b> there \n", "HTML", None) == (
        "hi there",
        [{"type": "bold", "offset": 0, "length": 2}],
    )


def test_bot_commands_mentions_and_utf16_offsets() -> None:
    text = "🏟 /new@UnoBot now, /join /a/b @ann #uno x/y"
    assert [(e["type"], e["offset"], e["length"]) for e in detected_entities(text)] == [
        ("bot_command", 3, 11),
        ("bot_command", 20, 5),
        ("mention", 31, 4),
        ("hashtag", 36, 4),
    ]
