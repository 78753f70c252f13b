"""The catalogs ship only complete: every message translated in every language, nothing
fuzzy, the English placeholders kept, CLDR's plural forms, compiled catalogs current
(issue: "a test fails on a missing, fuzzy or placeholder-mismatched entry")."""

from __future__ import annotations

import gettext
import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural

from services.presentation.locales import catalog as catalog_module
from services.presentation.locales.bidi import FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE, Phrase
from services.presentation.locales.catalog import (
    LANGUAGES,
    CatalogMissing,
    format_arguments,
    negotiate,
    translations,
)
from tools.catalog_check import (
    MAPPING_FILE,
    all_problems,
    catalog_problems,
    compiled_problems,
    extracted_keys,
    po_path,
    read_catalog,
    template_problems,
)

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def test_the_bots_catalogs_have_no_problem() -> None:
    assert all_problems() == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_compiles_and_answers_in_its_language(language: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog(po_path(language)))
    compiled.seek(0)
    loaded = gettext.GNUTranslations(compiled)
    assert loaded.pgettext("colour", "Red") not in ("", "Red")
    assert translations(language).pgettext("colour", "Red") == loaded.pgettext("colour", "Red")


# ------------------------------------------------------------------ the checks can fail


def _template() -> Catalog:
    template = Catalog(locale="en")
    template.add("{player} played {card}")
    template.add(("{player} drew {n} card", "{player} drew {n} cards"))
    template.add("Skip", context="card")
    return template


def _persian() -> Catalog:
    persian = Catalog(locale="fa")
    persian.add("{player} played {card}", "{player} {card} رو بازی کرد")
    persian.add(
        ("{player} drew {n} card", "{player} drew {n} cards"),
        ("{player} یه کارت کشید", "{player} {n} تا کارت کشید"),
    )
    persian.add("Skip", "پَرش", context="card")
    return persian


def _entry(catalog: Catalog, msgid: str, context: str | None = None) -> Message:
    entry = catalog.get(msgid, context)
    assert entry is not None
    return entry


def test_a_complete_catalog_passes() -> None:
    assert catalog_problems("fa", _template(), _persian()) == []


def test_a_missing_entry_fails() -> None:
    persian = _persian()
    persian.delete("Skip", context="card")
    assert catalog_problems("fa", _template(), persian) == ["fa: missing ('card', 'Skip')"]


def test_an_empty_translation_fails() -> None:
    persian = _persian()
    _entry(persian, "Skip", "card").string = ""
    assert catalog_problems("fa", _template(), persian) == ["fa: untranslated ('card', 'Skip')"]


def test_a_fuzzy_entry_fails() -> None:
    persian = _persian()
    _entry(persian, "Skip", "card").flags.add("fuzzy")
    assert catalog_problems("fa", _template(), persian) == ["fa: fuzzy ('card', 'Skip')"]


def test_a_renamed_placeholder_fails() -> None:
    persian = _persian()
    _entry(persian, "{player} played {card}").string = "{name} {card} رو بازی کرد"
    problems = catalog_problems("fa", _template(), persian)
    assert len(problems) == 1
    assert "placeholders ['card', 'name'] instead of ['card', 'player']" in problems[0]


def test_a_dropped_placeholder_in_a_plural_form_fails_but_n_may_go() -> None:
    persian = _persian()
    _entry(persian, "{player} drew {n} card").string = ("یه کارت کشید", "{player} {n} تا کارت کشید")
    problems = catalog_problems("fa", _template(), persian)
    assert len(problems) == 1
    assert "placeholders [] instead of ['n', 'player']" in problems[0]


def test_malformed_braces_fail() -> None:
    persian = _persian()
    _entry(persian, "{player} played {card}").string = "{player} {card رو بازی کرد"
    assert "malformed braces" in catalog_problems("fa", _template(), persian)[0]


def test_a_wrong_number_of_plural_forms_fails() -> None:
    persian = _persian()
    _entry(persian, "{player} drew {n} card").string = ("{player} {n} تا کارت کشید",)
    assert "1 plural forms instead of 2" in catalog_problems("fa", _template(), persian)[0]


def test_plural_forms_must_be_those_of_cldr() -> None:
    persian = _persian()
    persian._num_plurals, persian._plural_expr = 3, "(n==1 ? 0 : n==2 ? 1 : 2)"
    problems = catalog_problems("fa", _template(), persian)
    assert problems and "Plural-Forms" in problems[0]


def test_an_entry_the_code_no_longer_has_fails() -> None:
    persian = _persian()
    persian.add("Gone", "رفته")
    assert catalog_problems("fa", _template(), persian) == [
        "fa: not in the template (obsolete): (None, 'Gone')"
    ]


def test_a_stale_compiled_catalog_fails(tmp_path: Path) -> None:
    mo_path = tmp_path / "bot.mo"
    with mo_path.open("wb") as mo:
        write_mo(mo, _persian())
    assert compiled_problems("fa", _persian(), mo_path) == []
    edited = _persian()
    _entry(edited, "Skip", "card").string = "پرش"
    assert compiled_problems("fa", edited, mo_path) == [
        "fa: bot.mo is out of date (run make catalogs): ('card', 'Skip')"
    ]
    assert "missing" in compiled_problems("fa", edited, tmp_path / "none.mo")[0]


def test_a_message_added_to_the_code_but_not_the_template_fails(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text(
        "from services.presentation.locales.catalog import gettext, ngettext\n"
        'gettext(language, "Your turn, {player}")\n'
        'ngettext(language, "{n} card left", "{n} cards left", n)\n',
        encoding="utf-8",
    )
    keys = extracted_keys([tmp_path], MAPPING_FILE)
    assert keys == {(None, "Your turn, {player}"), (None, "{n} card left")}
    template = Catalog()
    template.add("Your turn, {player}")
    assert template_problems(template, keys) == [
        "not in bot.pot (run make catalogs-update): (None, '{n} card left')"
    ]


# ------------------------------------------------------------------ the runtime


def test_telegram_language_codes_pick_a_language() -> None:
    assert negotiate("fa") == "fa"
    assert negotiate("fa-IR") == "fa"
    assert negotiate("prs") == "fa"
    assert negotiate("gu") == "gu"
    assert negotiate("en-GB") == "en"
    assert negotiate("de") == "en"
    assert negotiate("") == "en"
    assert negotiate(None) == "en"


def test_a_missing_compiled_catalog_is_an_error_not_english(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(catalog_module, "LOCALES_DIR", tmp_path)
    translations.cache_clear()
    try:
        with pytest.raises(CatalogMissing, match="make catalogs"):
            translations("fa")
    finally:
        translations.cache_clear()


def test_an_unsupported_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported language"):
        translations("de")


def test_arguments_are_isolated_localized_or_kept() -> None:
    text = format_arguments(
        "fa", "{player} {n} {card}", {"player": "alice", "n": 12, "card": Phrase("پَرش")}
    )
    assert text == f"{FIRST_STRONG_ISOLATE}alice{POP_DIRECTIONAL_ISOLATE} ۱۲ پَرش"
    assert isinstance(text, Phrase)
    assert format_arguments("en", "{v}", {"v": None}) == "\u2068None\u2069"


def test_plural_forms_follow_cldr() -> None:
    assert str(get_plural("fa")) == "nplurals=2; plural=(n > 1);"
    from services.presentation.locales.glossary import card_count

    assert [card_count("en", n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [card_count("gu", n) for n in (0, 1, 2)] == ["0 કાર્ડ", "1 કાર્ડ", "2 કાર્ડ્સ"]
    assert [card_count("fa", n) for n in (1, 7)] == ["۱ کارت", "۷ کارت"]


def test_any_field_name_is_free() -> None:
    from services.presentation.locales.catalog import gettext, ngettext

    assert gettext("en", "{language} {message}", language="fa", message="m") == (
        "\u2068fa\u2069 \u2068m\u2069"
    )
    assert (
        ngettext("en", "{n} {language}", "{n} {language}s", 2, language="x") == "2 \u2068x\u2069s"
    )
