"""Every word a user reads goes through here: ``gettext`` and ``ngettext`` for a locale.

The door to ``services.presentation.locales``. ``locale`` is whatever the caller knows — a Telegram
``language_code`` (``fa-IR``), a stored choice, or None — and is narrowed to a language the
bot speaks (``language``; English when it speaks none of the user's). Messages are
``{name}``-field templates; each value is formatted for the language: text is wrapped in
Unicode isolates so right-to-left messages stay in order, numbers get the language's digits
(Persian ۰–۹), and a ``Phrase`` goes in as it is: a translated message passed into
another, or a name ``screens.people.person`` already isolated (isolating it again would nest two
isolates around it: each name is isolated once, where it is made).

The ``rich_`` forms give rich text (``services.presentation.rich``) and take it as a field's
value: a screen's message that names a person (a mention) is one; the plain forms give the
words of a button, an alert or a title, which show no styles.

Catalogs: ``services/presentation/locales/<lang>/LC_MESSAGES/bot.po`` (domain ``bot``), compiled by
``make catalogs``; ``make catalogs-update`` extracts the messages (``babel.cfg``: the locale is
each function's first argument) and merges them into every language.
"""

from __future__ import annotations

from services.presentation.locales.catalog import LANGUAGES, SOURCE_LANGUAGE, negotiate
from services.presentation.locales.catalog import gettext as _gettext
from services.presentation.locales.catalog import ngettext as _ngettext
from services.presentation.locales.catalog import pgettext as _pgettext
from services.presentation.locales.catalog import rich_gettext as _rich_gettext
from services.presentation.locales.catalog import rich_ngettext as _rich_ngettext
from services.presentation.locales.numerals import format_number
from services.presentation.rich import Rich


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is written; it is translated where it is
    shown (``gettext(locale, message)``)."""
    return message


def language(locale: str | None) -> str:
    """The language the bot speaks to ``locale``: ``en``, ``fa`` or ``gu``."""
    return negotiate(locale)


def available_locales() -> list[str]:
    """The languages with a catalog (English, the source, needs none)."""
    return [code for code in LANGUAGES if code != SOURCE_LANGUAGE]


def number(locale: str | None, value: int | float) -> str:
    """``value`` in the digits and separators of ``locale``'s language (۱٬۲۵۰ in Persian)."""
    return format_number(negotiate(locale), value)


def gettext(locale: str | None, message: str, /, **values: object) -> str:
    """``message`` in ``locale``, with ``{name}`` fields filled from ``values``."""
    return _gettext(negotiate(locale), message, **values)


def ngettext(locale: str | None, singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of ``singular``/``plural`` for ``n`` in ``locale``; ``{n}`` is filled too."""
    return _ngettext(negotiate(locale), singular, plural, n, **values)


def pgettext(locale: str | None, context: str, message: str, /, **values: object) -> str:
    """``message`` as meant in ``context`` (glossary entries: ``card``, ``colour`` …)."""
    return _pgettext(negotiate(locale), context, message, **values)


def rich_gettext(locale: str | None, message: str, /, **values: object) -> Rich:
    """``gettext`` as rich text; a rich value (a name that mentions its person) keeps its
    looks."""
    return _rich_gettext(negotiate(locale), message, **values)


def rich_ngettext(
    locale: str | None, singular: str, plural: str, n: int, /, **values: object
) -> Rich:
    """``ngettext`` as rich text; a rich value keeps its looks."""
    return _rich_ngettext(negotiate(locale), singular, plural, n, **values)
