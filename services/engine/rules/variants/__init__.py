"""The registry of playable variants, by name."""

from __future__ import annotations

from ..table import Table
from ..variant import Variant
from .classic import CLASSIC
from .flip import FLIP
from .minecraft import MINECRAFT
from .minions import MINIONS
from .no_mercy import NO_MERCY

#: In the rule sheet's order (RULES.md §3-§6), which the bot's variant keyboards follow.
VARIANTS: dict[str, Variant[Table]] = {
    v.name: v for v in (CLASSIC, FLIP, NO_MERCY, MINECRAFT, MINIONS)
}


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant[Table]:
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariant(name) from None
