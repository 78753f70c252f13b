"""The percentile every bench prints: nearest rank, with no interpolation, so a p99 is a time
some request really took."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

Number = TypeVar("Number", int, float)


def percentile(values: Sequence[Number], q: float) -> Number:
    """The value at rank ``q`` (0..1) of ``values``, sorted here; ``values`` must not be empty."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
