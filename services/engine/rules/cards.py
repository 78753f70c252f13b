"""Cards, faces and the compact card notation of RULES.md §1.

A *face* is what is printed on one side of a card: a colour (none for wilds) and a kind.
A *card* is a physical card: one face, or for UNO Flip a light face and a dark face.
Cards are plain immutable values; two identical cards are interchangeable, which is what a
player sees too.  Card codes (``R5``, ``W+4``, ``R5/PSE``) are the one textual form, used in
set-ups, logs, transcripts, JSON and callback data.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cache


class Color(StrEnum):
    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"
    # UNO Flip's dark side.
    PINK = "P"
    TEAL = "T"
    ORANGE = "O"
    VIOLET = "V"


LIGHT_COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
DARK_COLORS: tuple[Color, ...] = (Color.PINK, Color.TEAL, Color.ORANGE, Color.VIOLET)


class Side(IntEnum):
    """Which side of UNO Flip's cards is in play; every other variant stays LIGHT."""

    LIGHT = 0
    DARK = 1

    @property
    def colors(self) -> tuple[Color, ...]:
        return LIGHT_COLORS if self is Side.LIGHT else DARK_COLORS


class Kind(StrEnum):
    """What a face does. The value is the symbol used in card codes."""

    N0 = "0"
    N1 = "1"
    N2 = "2"
    N3 = "3"
    N4 = "4"
    N5 = "5"
    N6 = "6"
    N7 = "7"
    N8 = "8"
    N9 = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW1 = "+1"
    DRAW2 = "+2"
    DRAW4 = "+4"
    DRAW5 = "+5"
    FLIP = "F"
    SKIP_EVERYONE = "SE"
    DISCARD_ALL = "DA"
    WILD = "W"
    WILD_DRAW4 = "W+4"
    WILD_DRAW2 = "W+2"
    WILD_DRAW_COLOR = "WDC"
    WILD_REVERSE_DRAW4 = "WR+4"
    WILD_DRAW6 = "W+6"
    WILD_DRAW10 = "W+10"
    WILD_COLOR_ROULETTE = "WCR"
    WILD_DRAW3 = "W+3"
    WILD_DUMB_FU = "WDF"

    # The properties read tables built once below: the rules ask these on every play, and
    # an enum's ``value`` is slow to reach.

    @property
    def is_wild(self) -> bool:
        return self in WILD_KINDS

    @property
    def is_number(self) -> bool:
        return self in _NUMBERS

    @property
    def number(self) -> int:
        """Face value of a number card (only meaningful when ``is_number``)."""
        return _NUMBERS.get(self, 0)

    @property
    def draw_amount(self) -> int:
        """Cards a draw card makes the victim take (0 for cards that aren't draw cards)."""
        return _DRAW_AMOUNTS.get(self, 0)


_DRAW_AMOUNTS = {
    Kind.DRAW1: 1,
    Kind.DRAW2: 2,
    Kind.DRAW4: 4,
    Kind.DRAW5: 5,
    Kind.WILD_DRAW2: 2,
    Kind.WILD_DRAW3: 3,
    Kind.WILD_DRAW4: 4,
    Kind.WILD_REVERSE_DRAW4: 4,
    Kind.WILD_DRAW6: 6,
    Kind.WILD_DRAW10: 10,
}

WILD_KINDS = frozenset(k for k in Kind if k.value.startswith("W"))
_NUMBERS = {k: int(k.value) for k in Kind if k.value.isdigit()}

NUMBER_KINDS: tuple[Kind, ...] = tuple(k for k in Kind if k.is_number)


class _Coded:
    """The ``code`` of a face or card, computed once when it is made.

    A slot of this base rather than a dataclass field, so equality, ``repr``, ``fields`` and
    ``asdict`` stay those of the fields alone.  Codes are written on every save and every
    event, and reaching an enum's ``value`` each time was the costliest part of that.
    """

    __slots__ = ("code",)
    code: str


@dataclass(frozen=True, slots=True)
class Face(_Coded):
    color: Color | None
    kind: Kind

    def __post_init__(self) -> None:
        code = self.kind.value if self.color is None else self.color.value + self.kind.value
        object.__setattr__(self, "code", code)

    # A face's code names its colour and kind and nothing else (RULES.md §1), so comparing
    # and hashing the code is comparing and hashing the fields, in one step.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Face) and other.__class__ is self.__class__:
            return self.code == other.code
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.code)

    def __reduce__(self) -> tuple[type[Face], tuple[Color | None, Kind]]:
        # Copies and pickles are rebuilt through ``__init__``, which sets ``code``.
        return (Face, (self.color, self.kind))

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True, slots=True)
class Card(_Coded):
    light: Face
    dark: Face | None = None

    def __post_init__(self) -> None:
        code = self.light.code if self.dark is None else f"{self.light.code}/{self.dark.code}"
        object.__setattr__(self, "code", code)

    # As for faces: the code names both faces, so it stands for the fields.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card) and other.__class__ is self.__class__:
            return self.code == other.code
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.code)

    def __reduce__(self) -> tuple[type[Card], tuple[Face, Face | None]]:
        return (Card, (self.light, self.dark))

    def face(self, side: Side) -> Face:
        if side is Side.DARK and self.dark is not None:
            return self.dark
        return self.light

    def hidden_face(self, side: Side) -> Face | None:
        """The face turned away from the holder (UNO Flip), or None for one-sided cards."""
        if self.dark is None:
            return None
        return self.light if side is Side.DARK else self.dark

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"card({self.code!r})"


class NotationError(ValueError):
    """A card code that RULES.md §1 does not define."""


_COLOR_CODES = {c.value: c for c in Color}
_KIND_CODES = {k.value: k for k in Kind}


@cache
def parse_face(code: str) -> Face:
    if code in _KIND_CODES and _KIND_CODES[code].is_wild:
        return Face(None, _KIND_CODES[code])
    color = _COLOR_CODES.get(code[:1])
    kind = _KIND_CODES.get(code[1:])
    if color is None or kind is None or kind.is_wild:
        raise NotationError(f"not a card face: {code!r}")
    return Face(color, kind)


@cache
def card(code: str) -> Card:
    """Parse a card code: ``R5``, ``W+4``, ``YS``, or a Flip card ``R5/PSE``."""
    light, sep, dark = code.partition("/")
    if not sep:
        return Card(parse_face(light))
    return Card(parse_face(light), parse_face(dark))


def cards(codes: str) -> tuple[Card, ...]:
    """Parse a space-separated list of card codes."""
    return tuple(card(c) for c in codes.split())


def codes(items: tuple[Card, ...] | list[Card]) -> str:
    """The space-separated codes of ``items`` (the inverse of ``cards``)."""
    return " ".join([c.code for c in items])


def face_matches(face: Face, color: Color | None, top_kind: Kind) -> bool:
    """RULES.md §2 "A turn": a wild, or the colour in play, or the top card's symbol."""
    return face.color is None or face.color == color or face.kind == top_kind
