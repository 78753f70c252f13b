"""Every AI policy answers every decision with one of its legal actions, in every variant
(read from the registry at run time, so a new variant is covered without a change here),
with and without the house rules it offers, and every kind of decision the variant can
ask for reaches the strong policy (RULES.md §7: a stand-in may owe any of them)."""

from __future__ import annotations

import random

import pytest

from services.engine.rules import (
    VARIANTS,
)
from services.worker.ai import POLICIES, get_policy
from tests.helpers.ai import Recorder, option_sets, play_rounds, quick_policy, reachable_kinds


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_strong_policy_answers_every_decision_kind_legally(variant: str) -> None:
    """RULES.md §7: the stand-in may owe any decision; the strong policy meets them all."""
    spec = VARIANTS[variant]
    strong = Recorder(get_policy("strong"))
    seed = 0
    for options in option_sets(spec):
        for players in (2, 3, 5):
            for _ in range(4):
                seed += 1
                others = [Recorder(get_policy(("random", "first")[seed % 2]))] * (players - 1)
                seats = [strong, *others]
                random.Random(seed).shuffle(seats)
                play_rounds(variant, seats, options, seed)
    missing = reachable_kinds(spec) - set(strong.kinds)
    assert not missing, f"{variant}: the strong policy never faced {sorted(missing)}"


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_policy_plays_whole_rounds_legally(variant: str, policy: str) -> None:
    spec = VARIANTS[variant]
    for index, options in enumerate(option_sets(spec)):
        for players in (2, 4):
            seats = [Recorder(quick_policy(policy)) for _ in range(players)]
            play_rounds(variant, seats, options, seed=100 * index + players)
            assert sum(sum(r.kinds.values()) for r in seats) > 0
