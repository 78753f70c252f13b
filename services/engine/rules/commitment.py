"""The commitment to a round's shuffle: what lets anyone check a deal (RULES.md §2 "Checking
a deal").

Each round is shuffled from a seed of its own. While the round is played the table shows
``deal_commitment(seed)`` (in every view) and nothing else of the seed; the round's end
reveals the seed (``round_ended``). Anyone can then check that the revealed seed is the
one committed to and re-deal the round from it with this library.
"""

from __future__ import annotations

import hashlib


def deal_commitment(seed: int) -> str:
    """SHA-256 of the seed's decimal digits (ASCII), in lowercase hex."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()
