"""What a name people type calls (``/rules no mercy``, ``/top بی رحم``): a variant, by its
id, the spellings its rules list, or its name or title in any language the bot speaks.
The words are the catalogs', so reading them is the presentation's, as writing them is."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from services.engine.views import TITLE_CONTEXT, variant_facts
from services.presentation.i18n import pgettext
from services.presentation.locales.catalog import LANGUAGES
from services.presentation.screens.names import variant_name

#: What a typed name may differ in and still name a variant: case, spaces, hyphens,
#: underscores, the Persian half-space, and Arabic letters typed for Persian ones.
_IGNORED = re.compile(r"[\s\-_\u200c\u200f\u200e]+")
_LETTERS = str.maketrans({"ي": "ی", "ك": "ک"})
#: The word "UNO" a name may start with, in every language.
_UNO_WORDS = ("uno", "اونو", "યુનો")


def _folded(text: str) -> str:
    folded = _IGNORED.sub("", text.casefold().translate(_LETTERS))
    for word in _UNO_WORDS:
        if folded.startswith(word) and len(folded) > len(word):
            return folded[len(word) :]
    return folded


def variant_spellings(variants: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Every name that calls one of ``variants`` (the engine's, each with the spellings
    people type for it: ``VariantFacts.spellings``), folded (``_folded``): its id, those
    spellings, and its names in every language the bot speaks."""
    names: dict[str, str] = {}
    for variant in variants:
        spoken = [variant, variant_name(None, variant)]
        title = variant_facts(variant).title_msgid
        for lang in LANGUAGES:
            spoken.append(variant_name(lang, variant))
            spoken.append(pgettext(lang, TITLE_CONTEXT, title))
        for name in spoken:
            names[_folded(name)] = variant
    for variant, spellings in variants.items():
        for spelling in spellings:
            names[_folded(spelling)] = variant
    return names


def named_variant(text: str, variants: Mapping[str, Sequence[str]]) -> str | None:
    """The variant ``text`` names (``/rules no mercy``, ``/rules بی رحم``); None: none."""
    return variant_spellings(variants).get(_folded(text)) if _folded(text) else None
