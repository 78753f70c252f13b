"""The /rules texts: every variant in every language, within Telegram's message limit,
naming the cards by the glossary's (the seeds') names and keeping every figure of the
English text (target scores, penalties, deck sizes)."""

from __future__ import annotations

import re

import pytest

from services.engine.rules import VARIANTS
from services.presentation.locales.catalog import LANGUAGES
from services.presentation.locales.glossary import symbol_name
from services.presentation.locales.rules_text import (
    MESSAGE_LIMIT,
    render_line,
    rules_messages,
    rules_path,
    split_messages,
    telegram_length,
)
from services.presentation.rich import Style, as_rich, bold

#: The cards each variant's text must name.
VARIANT_CARDS = {
    "classic": ["S", "R", "+2", "W", "W+4"],
    "flip": ["+1", "S", "R", "F", "W", "W+2", "+5", "SE", "WDC"],
    "no_mercy": ["+2", "+4", "S", "SE", "R", "DA", "WR+4", "W+6", "W+10", "WCR"],
    "minecraft": ["W+3", "+2", "S", "R", "W", "W+4"],
    "minions": ["W", "W+4", "WDF", "+2", "S", "R"],
}
CASES = [(language, variant) for language in LANGUAGES for variant in VARIANTS]
PERSIAN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")


def numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text.translate(PERSIAN_DIGITS))}


@pytest.mark.parametrize(("language", "variant"), CASES)
def test_rules_fit_telegram_messages(language: str, variant: str) -> None:
    messages = rules_messages(language, variant)
    assert messages
    assert all(0 < telegram_length(m.plain) <= MESSAGE_LIMIT for m in messages)
    assert messages[0].spans[0].style is Style.BOLD


@pytest.mark.parametrize(("language", "variant"), CASES)
def test_rules_name_the_variants_cards_as_the_glossary_does(language: str, variant: str) -> None:
    text = rules_path(language, variant).read_text(encoding="utf-8")
    missing = [
        code for code in VARIANT_CARDS[variant] if symbol_name(language, code, variant) not in text
    ]
    assert missing == []


@pytest.mark.parametrize(("language", "variant"), [c for c in CASES if c[0] != "en"])
def test_translations_keep_every_figure_of_the_english(language: str, variant: str) -> None:
    english = numbers(rules_path("en", variant).read_text(encoding="utf-8"))
    translated = numbers(rules_path(language, variant).read_text(encoding="utf-8"))
    assert english - translated == set()


def test_each_translation_has_the_english_sections() -> None:
    for variant in VARIANTS:
        sections = {
            language: rules_path(language, variant).read_text(encoding="utf-8").count("\n## ")
            for language in LANGUAGES
        }
        assert len(set(sections.values())) == 1, (variant, sections)


def test_markup() -> None:
    assert render_line("# A & B") == bold("A & B")
    assert render_line("## <Skip> ") == bold("<Skip>")
    assert render_line("- draw 2") == as_rich("• draw 2")
    assert render_line("a <b>  ") == as_rich("a <b>")


def test_long_texts_are_cut_between_paragraphs_then_lines() -> None:
    paragraph = as_rich("\n".join(["x" * 30] * 3))  # 92 characters
    assert split_messages([paragraph, paragraph], limit=200) == [paragraph + "\n\n" + paragraph]
    assert split_messages([paragraph, paragraph], limit=150) == [paragraph, paragraph]
    cut = split_messages([paragraph], limit=70)
    assert cut == [as_rich("x" * 30 + "\n\n" + "x" * 30), as_rich("x" * 30)]
    # The limit counts the text, not the markup a front adds to it.
    assert split_messages([bold("x" * 60)], limit=60) == [bold("x" * 60)]
    with pytest.raises(ValueError, match="a line of 30"):
        split_messages([paragraph], limit=20)


def test_emoji_count_twice() -> None:
    assert telegram_length("🟥") == 2


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        rules_messages("en", "speed")


@pytest.mark.parametrize("language", LANGUAGES)
def test_classic_names_every_house_rule_as_the_glossary_does(language: str) -> None:
    from services.engine.rules.variant import HouseRule
    from services.presentation.locales.glossary import house_rule_name

    text = rules_path(language, "classic").read_text(encoding="utf-8").casefold()
    missing = [r for r in HouseRule if house_rule_name(language, r.value).casefold() not in text]
    assert missing == []
