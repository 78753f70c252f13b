"""AI players: policies that choose among a player's legal actions from their own view.

``POLICIES`` maps each policy's name to a ready instance (policies keep no per-game memory,
so one instance can sit at any number of seats and games); ``get_policy`` looks one up with
a clear error.  ``arena`` plays games between them on the pure engine; ``play`` is
``make play``.
"""

from __future__ import annotations

from .baselines import FirstLegalPolicy, RandomPolicy
from .hard import HardPolicy
from .policy import IllegalChoice, Policy
from .strong import StrongPolicy

POLICIES: dict[str, Policy] = {
    p.name: p for p in (HardPolicy(), StrongPolicy(), RandomPolicy(), FirstLegalPolicy())
}


class UnknownPolicy(KeyError):
    def __str__(self) -> str:
        return f"no AI policy named {self.args[0]!r}; known: {', '.join(sorted(POLICIES))}"


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        raise UnknownPolicy(name) from None


__all__ = [
    "POLICIES",
    "FirstLegalPolicy",
    "HardPolicy",
    "IllegalChoice",
    "Policy",
    "RandomPolicy",
    "StrongPolicy",
    "UnknownPolicy",
    "get_policy",
]
