"""Card, colour, variant and house-rule names in every language (RULES.md §1 "Names in
the seeds").

The names are gettext entries with a context, so translators keep them in the same
catalogs as every other message, and the Persian and Gujarati catalogs carry the names the
rule sheets themselves use: the Persian sheets' پَرش, معکوس, چرخش, دوچپون, بِسوزون بِره,
آزاد رولت رنگی, مُزاحم, موز وحشی, دامفو …; the Gujarati Flip sheet's સ્કિપ, રિવર્સ, ફ્લિપ,
ડ્રો વન, વાઇલ્ડ ડ્રો કલર … A variant whose sheet names a card differently (No Mercy's
دوچپون and پَرش همگانی, Minions' themed wilds) has its own context, ``card:<variant>``.

Card codes are those of RULES.md §1 (``R7``, ``G+2``, ``PSE``, ``W+4``); this module reads
them itself, as the bot sees them in the engine's views, without the rules library.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from services.presentation.locales.bidi import Phrase
from services.presentation.locales.catalog import npgettext, pgettext


class Term(NamedTuple):
    """One glossary entry: a gettext context and the English name (``babel.cfg`` extracts
    every ``Term(context, name)`` call into the catalogs)."""

    context: str
    name: str

    def in_language(self, language: str) -> Phrase:
        return pgettext(language, self.context, self.name)


COLOURS: Final = {
    # Translators: the colours of the light side (every variant).
    "R": Term("colour", "Red"),
    "Y": Term("colour", "Yellow"),
    "G": Term("colour", "Green"),
    "B": Term("colour", "Blue"),
    # Translators: the colours of UNO Flip's dark side.
    "P": Term("colour", "Pink"),
    "T": Term("colour", "Teal"),
    "O": Term("colour", "Orange"),
    "V": Term("colour", "Violet"),
}

#: The name of every card symbol that is not a number, by its code (RULES.md §1).
CARD_NAMES: Final = {
    # Translators: card names; use the rule sheets' own names (RULES.md §1).
    "S": Term("card", "Skip"),
    "R": Term("card", "Reverse"),
    "+1": Term("card", "Draw One"),
    "+2": Term("card", "Draw Two"),
    "+4": Term("card", "Draw Four"),
    "+5": Term("card", "Draw Five"),
    "F": Term("card", "Flip"),
    "SE": Term("card", "Skip Everyone"),
    "DA": Term("card", "Discard All"),
    "W": Term("card", "Wild"),
    "W+4": Term("card", "Wild Draw Four"),
    "W+2": Term("card", "Wild Draw Two"),
    "WDC": Term("card", "Wild Draw Color"),
    "WR+4": Term("card", "Wild Reverse Draw Four"),
    "W+6": Term("card", "Wild Draw Six"),
    "W+10": Term("card", "Wild Draw Ten"),
    "WCR": Term("card", "Wild Color Roulette"),
    "W+3": Term("card", "Mob (Creeper)"),
    "WDF": Term("card", "Dumb Fu"),
}

#: Where a variant's rule sheet names a card its own way.
VARIANT_CARD_NAMES: Final[dict[str, dict[str, Term]]] = {
    "no_mercy": {
        # Translators: No Mercy's sheet has its own names for these two.
        "+2": Term("card:no_mercy", "Draw Two"),
        "SE": Term("card:no_mercy", "Skip Everyone"),
    },
    "minions": {
        # Translators: Minions' themed cards (its Wild and Wild Draw Four).
        "+2": Term("card:minions", "Draw Two"),
        "W": Term("card:minions", "Rainbow"),
        "W+4": Term("card:minions", "Wild Banana"),
    },
}

#: The chat options of RULES.md §2 "House rules", "Alternate scoring" and the false-catch
#: penalty ("UNO"), by the engine's option name.
HOUSE_RULES: Final = {
    "progressive_draw": Term("house rule", "Progressive Draw"),
    "seven_o": Term("house rule", "Seven-O"),
    "jump_in": Term("house rule", "Jump-In"),
    "draw_until_playable": Term("house rule", "Draw until playable"),
    "alternate_scoring": Term("house rule", "Alternate scoring"),
    # Translators: the house option of RULES.md §2 "UNO": a catch when nobody can be
    # caught costs the catcher 2 cards.
    "false_catch_penalty": Term("house rule", "False catch costs 2"),
}

# Translators: what a player shouts with one card left.
UNO_CALL: Final = Term("call", "UNO!")

_NUMBER_NAME: Final = Term("card", "{colour} {number}")
_ACTION_NAME: Final = Term("card", "{colour} {action}")


class UnknownCard(ValueError):
    """Not a card face code of RULES.md §1."""


def colour_name(language: str, colour: str) -> Phrase:
    """The name of a colour code (``R`` … ``V``)."""
    try:
        return COLOURS[colour].in_language(language)
    except KeyError:
        raise UnknownCard(f"unknown colour code {colour!r}") from None


def symbol_name(language: str, symbol: str, variant: str = "classic") -> Phrase:
    """The name of a card's symbol without its colour: "Skip", "Wild Banana" (Minions)."""
    term = VARIANT_CARD_NAMES.get(variant, {}).get(symbol) or CARD_NAMES.get(symbol)
    if term is None:
        raise UnknownCard(f"unknown card symbol {symbol!r}")
    return term.in_language(language)


def face_name(language: str, code: str, variant: str = "classic", side: str = "light") -> Phrase:
    """The full name of one card face: ``R7`` "Red 7", ``BS`` "Blue Skip", ``W+4`` "Wild
    Draw Four"; of a Flip card (``R5/PSE``), the face of ``side`` ("light" or "dark")."""
    faces = code.split("/", 1)
    face = faces[1] if side == "dark" and len(faces) == 2 else faces[0]
    if face.startswith("W"):
        return symbol_name(language, face, variant)
    if len(face) < 2:
        raise UnknownCard(f"not a card face code: {code!r}")
    colour, symbol = colour_name(language, face[0]), face[1:]
    if symbol.isdigit() and len(symbol) == 1:
        return pgettext(
            language, _NUMBER_NAME.context, _NUMBER_NAME.name, colour=colour, number=int(symbol)
        )
    action = symbol_name(language, symbol, variant)
    return pgettext(language, _ACTION_NAME.context, _ACTION_NAME.name, colour=colour, action=action)


def house_rule_name(language: str, option: str) -> Phrase:
    return HOUSE_RULES[option].in_language(language)


def card_count(language: str, n: int) -> Phrase:
    """ "1 card", "5 cards" in ``language``'s digits and plural form."""
    return npgettext(language, "count", "{n} card", "{n} cards", n)


def point_count(language: str, n: int) -> Phrase:
    """ "1 point", "500 points"."""
    return npgettext(language, "count", "{n} point", "{n} points", n)
