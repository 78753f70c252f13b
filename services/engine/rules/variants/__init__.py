"""The registry of playable variants, by name."""

from __future__ import annotations

from ..table import Table
from ..variant import Variant
from .classic import CLASSIC
from .flip import FLIP
from .minecraft import MINECRAFT
from .minions import MINIONS
from .no_mercy import NO_MERCY

VARIANTS: dict[str, Variant[Table]] = {
    v.name: v for v in (CLASSIC, FLIP, MINECRAFT, MINIONS, NO_MERCY)
}


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant[Table]:
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariant(name) from None
