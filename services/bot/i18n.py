"""Every word a user reads goes through here: ``gettext`` and ``ngettext`` for a locale.

Catalogs are Babel/gettext ``.mo`` files under ``services/bot/locales/<lang>/LC_MESSAGES/
bot.mo`` (domain ``bot``). English is the source language and needs none; a locale without a
catalog falls back to English. Translators extract the strings with
``pybabel extract -k gettext:2 -k ngettext:2,3 -o bot.pot services/bot`` (the locale is each
function's first argument).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations

LOCALES_DIR = Path(__file__).with_name("locales")
DOMAIN = "bot"
DEFAULT_LOCALE = "en"


@cache
def translations(locale: str | None) -> NullTranslations:
    """The catalog of ``locale`` (``"fa"``, ``"gu-IN"`` ...), or English."""
    lang = (locale or DEFAULT_LOCALE).replace("-", "_").split("_")[0].lower()
    if lang == DEFAULT_LOCALE or not (LOCALES_DIR / lang).is_dir():
        return NullTranslations()
    return Translations.load(str(LOCALES_DIR), [lang], DOMAIN)


def available_locales() -> list[str]:
    """The languages with a catalog (English, the source, needs none)."""
    if not LOCALES_DIR.is_dir():
        return []
    return sorted(p.name for p in LOCALES_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())


def gettext(locale: str | None, message: str, /, **values: Any) -> str:
    """``message`` in ``locale``, with ``{name}`` fields filled from ``values``."""
    text = translations(locale).gettext(message)
    return text.format(**values) if values else text


def ngettext(locale: str | None, singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` in ``locale``; ``{n}`` is filled too."""
    text = translations(locale).ngettext(singular, plural, n)
    return text.format(n=n, **values)
