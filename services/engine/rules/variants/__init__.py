"""The registry of playable variants, by name."""

from __future__ import annotations

from ..variant import Variant
from .classic import CLASSIC

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC,)}


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariant(name) from None
