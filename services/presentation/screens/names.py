"""Names as a screen shows them: a variant's, and a list of names (a seat's own name is
``screens.people``'s, as rich text)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from services.engine.views import UnknownVariant, variant_facts
from services.presentation.i18n import gettext, language, rich_gettext
from services.presentation.locales.bidi import Phrase
from services.presentation.rich import Rich


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


#: The most of a person's own text a reply repeats back (a 4,000-character word after /top
#: would make the reply longer than Telegram's 4,096 and nothing would be sent).
ECHO_CHARS = 32


def shortened(text: str, limit: int = ECHO_CHARS) -> str:
    """A person's own text as a reply repeats it back: at most ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def unknown_rules_word(locale: str | None, word: str, variants: Sequence[str]) -> Rich:
    """A name after /rules that calls no variant: the names /rules knows."""
    return rich_gettext(
        locale,
        "I don't know {word}. Try /rules alone or a variant: {known}.",
        word=shortened(word),
        known=known_variants(locale, variants),
    )


def known_variants(locale: str | None, variants: Iterable[str]) -> str:
    """The variants a command knows, each by its name and the word to type: "No Mercy
    (no_mercy), …"."""
    return ", ".join(variant_name(locale, v) + f" ({v})" for v in variants)
