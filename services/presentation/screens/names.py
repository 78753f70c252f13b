"""Names as a screen shows them: a variant's, and a list of names (a seat's own name is
``screens.people``'s, as rich text)."""

from __future__ import annotations

from collections.abc import Sequence

from services.engine.views import UnknownVariant, variant_facts
from services.presentation.i18n import gettext, language
from services.presentation.locales.bidi import Phrase


def variant_name(locale: str | None, variant: str) -> str:
    """A variant's name in ``locale``'s words (its message id is the rules': ``variant_facts``);
    a variant the engine does not play, as it is written."""
    try:
        return gettext(locale, variant_facts(variant).name_msgid)
    except UnknownVariant:
        return variant


def listed(locale: str | None, names: Sequence[str]) -> Phrase:
    """Names already in ``locale``'s language, as a list (Persian with "؛": its names hold "،")."""
    return Phrase(("؛ " if language(locale) == "fa" else ", ").join(names))
