"""Names as a screen shows them: a seat's, a variant's, a list of them, and HTML back to
plain text."""

from __future__ import annotations

import html
from collections.abc import Sequence

from services.engine.client import GameInfo, SeatInfo, UnknownVariant, variant_facts
from services.presentation.i18n import gettext, language
from services.presentation.locales.bidi import Phrase, isolate


def variant_name(locale: str | None, variant: str) -> str:
    """A variant's name in ``locale``'s words (its message id is the rules': ``variant_facts``);
    a variant the engine does not play, as it is written."""
    try:
        return gettext(locale, variant_facts(variant).name_msgid)
    except UnknownVariant:
        return variant


def person(seat: SeatInfo, *, mention: bool = False) -> str:
    """A seat's name as HTML; isolated so right-to-left names keep the line in order (a
    ``Phrase``: a message it fills in does not isolate it again)."""
    name = isolate(html.escape(seat.name))
    if mention and seat.user_id is not None:
        return Phrase(f'<a href="tg://user?id={seat.user_id}">{name}</a>')
    return Phrase(name)


def seat_names(game: GameInfo) -> list[str]:
    return [person(s) for s in game.seats]


def seat_name(names: Sequence[str], seat: object) -> str:
    """The name of ``seat`` (an event's field) among ``names``; "?" for none of them."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def listed(locale: str | None, names: Sequence[str]) -> Phrase:
    """Names already in ``locale``'s language, as a list (Persian with "؛": its names hold "،")."""
    return Phrase(("؛ " if language(locale) == "fa" else ", ").join(names))


def plain_text(text: str) -> str:
    """HTML ``text`` as plain text, its isolates taken out (an alert or a button shows no
    markup, and its words need none)."""
    return html.unescape(text.replace("\u2068", "").replace("\u2069", ""))
