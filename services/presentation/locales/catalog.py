"""The gettext catalogs: which languages the bot speaks, and translating one message.

English is the source language: a message's English text is its ``msgid``, so English
needs no catalog. Persian and Gujarati are read from the compiled catalogs
``<language>/LC_MESSAGES/bot.mo`` (``make catalogs`` builds them from the ``.po``
files; a missing one is an installation error, never a silent fall-back to English).

Messages are ``str.format`` templates with named fields (``"{player} drew {n} cards"``;
a literal brace is doubled). Every argument is formatted for the language:

- ``str`` → wrapped in a first-strong isolate (user names, card codes: ``bidi.isolate``);
- ``Phrase`` (a translated message or glossary name, already in the language) → as is;
- ``int`` / ``float`` → the language's digits and separators (``numerals.format_number``);
- anything else → its ``str``, isolated.

The functions take the message where gettext's own do (``gettext(language, message)``,
``ngettext(language, singular, plural, n)``, ``pgettext(language, context, message)``;
``babel.cfg`` tells the extractor so), positional-only, so any name is free for a field
(``{language}``, ``{message}``). Every translation returns a ``Phrase``, so a translated
message can be an argument of another without being isolated.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Final

from services.presentation.locales.bidi import Phrase, isolate
from services.presentation.locales.numerals import format_number
from services.presentation.rich import Rich, fill

LOCALES_DIR: Final = Path(__file__).resolve().parent
DOMAIN: Final = "bot"
SOURCE_LANGUAGE: Final = "en"
#: Every language the bot speaks, the source first.
LANGUAGES: Final = ("en", "fa", "gu")
#: Each language by its own name (what /language lists).
LANGUAGE_NAMES: Final = {"en": "English", "fa": "فارسی", "gu": "ગુજરાતી"}
#: Language tags Telegram may send that mean a language we speak under another code.
_ALIASES: Final = {"prs": "fa", "pes": "fa"}

#: A message argument: any value reads as its ``str``, isolated, but numbers and ``Phrase``.
Argument = object


class CatalogMissing(RuntimeError):
    """A supported language's compiled catalog is not installed (run ``make catalogs``)."""


def negotiate(language_code: str | None) -> str:
    """The language to speak to someone whose Telegram client says ``language_code``
    (an IETF tag such as ``fa``, ``fa-IR``, ``gu``, ``en-GB``): its primary language when
    we speak it, else English."""
    if not language_code:
        return SOURCE_LANGUAGE
    primary = language_code.replace("_", "-").split("-", 1)[0].lower()
    primary = _ALIASES.get(primary, primary)
    return primary if primary in LANGUAGES else SOURCE_LANGUAGE


def catalog_path(language: str) -> Path:
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``language`` (English: the messages themselves)."""
    if language not in LANGUAGES:
        raise ValueError(f"unsupported language {language!r}; speak one of {LANGUAGES}")
    if language == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    path = catalog_path(language)
    try:
        with path.open("rb") as mo:
            return _gettext.GNUTranslations(mo)
    except FileNotFoundError:
        raise CatalogMissing(f"{path} is missing: run `make catalogs`") from None


def format_arguments(language: str, template: str, arguments: Mapping[str, Argument]) -> Phrase:
    """``template`` with its named fields filled in, each formatted for ``language``."""
    return Phrase(template.format_map({k: _argument(language, v) for k, v in arguments.items()}))


def format_rich(language: str, template: str, arguments: Mapping[str, Argument]) -> Rich:
    """``format_arguments`` giving rich text: a rich argument (a name that mentions its
    person) keeps its looks and goes in as it is, like a ``Phrase``."""
    return fill(
        template,
        {k: v if isinstance(v, Rich) else _argument(language, v) for k, v in arguments.items()},
    )


def _argument(language: str, value: object) -> str:
    if isinstance(value, Phrase):
        return str(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_number(language, value)
    return isolate(str(value))


def gettext(language: str, message: str, /, **arguments: Argument) -> Phrase:
    """``message`` in ``language``, its fields filled in."""
    return format_arguments(language, translations(language).gettext(message), arguments)


def ngettext(language: str, singular: str, plural: str, n: int, /, **arguments: Argument) -> Phrase:
    """The form of ``singular``/``plural`` that ``language`` uses for ``n`` (its plural
    rule is in the catalog's header); ``{n}`` is ``n`` in the language's digits."""
    template = translations(language).ngettext(singular, plural, n)
    return format_arguments(language, template, {"n": n, **arguments})


def rich_gettext(language: str, message: str, /, **arguments: Argument) -> Rich:
    """``gettext`` whose arguments may be rich text, as rich text."""
    return format_rich(language, translations(language).gettext(message), arguments)


def rich_ngettext(
    language: str, singular: str, plural: str, n: int, /, **arguments: Argument
) -> Rich:
    """``ngettext`` whose arguments may be rich text, as rich text."""
    template = translations(language).ngettext(singular, plural, n)
    return format_rich(language, template, {"n": n, **arguments})


def pgettext(language: str, context: str, message: str, /, **arguments: Argument) -> Phrase:
    """``message`` in ``language`` as meant in ``context`` (the same English word can
    need two translations: a card's "Skip" and a button's "Skip")."""
    template = translations(language).pgettext(context, message)
    return format_arguments(language, template, arguments)


def npgettext(
    language: str, context: str, singular: str, plural: str, n: int, /, **arguments: Argument
) -> Phrase:
    """``ngettext`` within ``context``."""
    template = translations(language).npgettext(context, singular, plural, n)
    return format_arguments(language, template, {"n": n, **arguments})
