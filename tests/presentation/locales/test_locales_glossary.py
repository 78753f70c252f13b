"""Card and rule names come from the rule sheets (RULES.md §1 "Names in the seeds")."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.engine.rules.cards import Color, Kind
from services.engine.rules.variant import TITLE_CONTEXT, HouseRule
from services.engine.rules.variants import VARIANTS
from services.presentation.locales.glossary import (
    CARD_NAMES,
    COLOURS,
    HOUSE_RULES,
    UNO_CALL,
    VARIANT_CARD_NAMES,
    Term,
    UnknownCard,
    colour_name,
    face_name,
    symbol_name,
)

RULES_MD = Path(__file__).resolve().parents[3] / "docs" / "RULES.md"

#: RULES.md §1: the name each seed gives a card, by (language, variant, code).
SEED_NAMES = {
    ("fa", "classic", "S"): "پَرش",
    ("fa", "classic", "R"): "معکوس",
    ("fa", "classic", "+2"): "دوتا کارت بکِش",
    ("fa", "classic", "W"): "آزاد",
    ("fa", "flip", "F"): "چرخش",
    ("fa", "flip", "+1"): "1+",
    ("fa", "flip", "+5"): "5+",
    ("fa", "flip", "SE"): "سوپر پَرش",
    ("fa", "flip", "W+2"): "2+ آزاد",
    ("fa", "flip", "WDC"): "رنگکِشی آزاد",
    ("fa", "no_mercy", "+2"): "دوچپون",
    ("fa", "no_mercy", "+4"): "چارچپون",
    ("fa", "no_mercy", "SE"): "پَرش همگانی",
    ("fa", "no_mercy", "DA"): "بِسوزون بِره",
    ("fa", "no_mercy", "WR+4"): "آزاد چارچپون معکوس",
    ("fa", "no_mercy", "W+6"): "آزاد شیشچپون",
    ("fa", "no_mercy", "W+10"): "آزاد دهچپون",
    ("fa", "no_mercy", "WCR"): "آزاد رولت رنگی",
    ("fa", "minions", "W"): "رنگین کمان",
    ("fa", "minions", "W+4"): "موز وحشی",
    ("fa", "minions", "WDF"): "دامفو",
    ("gu", "flip", "S"): "સ્કિપ",
    ("gu", "flip", "R"): "રિવર્સ",
    ("gu", "flip", "F"): "ફ્લિપ",
    ("gu", "flip", "+1"): "ડ્રો વન",
    ("gu", "flip", "+5"): "ડ્રો ફાઇવ",
    ("gu", "flip", "SE"): "સ્કિપ એવરીવન",
    ("gu", "flip", "W"): "વાઇલ્ડ",
    ("gu", "flip", "W+2"): "વાઇલ્ડ ડ્રો ટુ",
    ("gu", "flip", "WDC"): "વાઇલ્ડ ડ્રો કલર",
}

#: The seeds were copied without zero-width non-joiners (کارتهای for کارت‌های); the
#: catalogs write Persian with them, as it is spelled.
INVISIBLE = dict.fromkeys(map(ord, "\u200c\u200e\u200f"))


def plain(text: str) -> str:
    return text.translate(INVISIBLE)


@pytest.mark.parametrize(("language", "variant", "code"), sorted(SEED_NAMES))
def test_card_names_are_the_seeds_own(language: str, variant: str, code: str) -> None:
    assert plain(symbol_name(language, code, variant)) == SEED_NAMES[language, variant, code]


def glossary_terms() -> list[Term]:
    """Every entry of the glossary's tables."""
    nested = [t for names in VARIANT_CARD_NAMES.values() for t in names.values()]
    return [
        *COLOURS.values(),
        *CARD_NAMES.values(),
        *nested,
        # each variant's title, which the rules hold and the glossary translates
        *(Term(TITLE_CONTEXT, v.words.title) for v in VARIANTS.values()),
        *HOUSE_RULES.values(),
        UNO_CALL,
    ]


def test_the_seed_names_are_those_rules_md_lists() -> None:
    section_1 = plain(RULES_MD.read_text(encoding="utf-8").split("## 2.")[0])
    assert [n for n in SEED_NAMES.values() if n not in section_1] == []


def test_persian_and_gujarati_colours_and_uno() -> None:
    assert [plain(colour_name("fa", c)) for c in "BGRY"] == ["آبی", "سبز", "قرمز", "زرد"]
    assert [plain(colour_name("fa", c)) for c in "PTOV"] == ["صورتی", "سبز-آبی", "نارنجی", "بنفش"]
    assert UNO_CALL.in_language("fa") == "اونو!"
    assert UNO_CALL.in_language("gu") == "યુનો!"


def test_every_card_kind_of_the_engine_has_a_name() -> None:
    named = set(CARD_NAMES)
    assert {k.value for k in Kind if not k.is_number} == named
    assert {c.value for c in Color} == set(COLOURS)


def test_every_variant_and_house_rule_has_a_title() -> None:
    words = [v.words for v in VARIANTS.values()]
    assert [w for w in words if not (w.name and w.title and w.summary)] == []
    # Every house rule of the rules library, and the false-catch penalty every variant offers.
    assert {r.value for r in HouseRule} | {"false_catch_penalty"} == set(HOUSE_RULES)


@pytest.mark.parametrize("language", ["fa", "gu"])
def test_every_term_is_translated(language: str) -> None:
    untranslated = [
        t for t in glossary_terms() if "{" not in t.name and t.in_language(language) == t.name
    ]
    assert untranslated == []


def test_face_names() -> None:
    assert face_name("en", "R7") == "Red 7"
    assert face_name("en", "BS") == "Blue Skip"
    assert face_name("en", "W+4", "minions") == "Wild Banana"
    assert face_name("en", "R5/PSE", "flip") == "Red 5"
    assert face_name("fa", "R7") == "قرمز ۷"
    assert face_name("fa", "BS") == "پَرش آبی"
    assert face_name("fa", "G+2", "no_mercy") == "دوچپون سبز"
    assert face_name("gu", "R7") == "લાલ 7"
    assert face_name("gu", "PSE", "flip") == "ગુલાબી સ્કિપ એવરીવન"


@pytest.mark.parametrize("code", ["", "X7", "R", "RZ", "W+9", "R10"])
def test_unknown_codes_are_refused(code: str) -> None:
    with pytest.raises(UnknownCard):
        face_name("en", code)


def test_a_flip_card_is_named_by_the_side_in_play() -> None:
    assert face_name("en", "R5/PSE", "flip", "dark") == "Pink Skip Everyone"
    assert face_name("fa", "W+2/W", "flip", "dark") == "آزاد"
    assert face_name("gu", "W+2/W", "flip", "light") == "વાઇલ્ડ ડ્રો ટુ"


def test_inline_results_name_the_card_in_the_players_words() -> None:
    from services.presentation.screens.hand import Choice
    from services.presentation.screens.inline_results import titled as _titled

    skip = Choice("p.RS", "▶ 🟥 ⊘", "RS")
    assert _titled("fa-IR", skip, "classic", "light") == "▶ 🟥 ⊘ · پَرش قرمز"
    assert _titled("en", skip, "classic", "light") == "▶ 🟥 ⊘ · Red Skip"
    banana = Choice("p.W+4", "▶ 🌈 +4", "W+4")
    assert _titled("fa", banana, "minions", "light") == "▶ 🌈 +4 · موز وحشی"
    draw = Choice("d", "📥 Draw")
    assert _titled("fa", draw, "classic", "light") == "📥 Draw"
