"""bench/rollout_value_fit.py: its features score a seat as ``rollout.value`` does, and its
fit is the maximum of what it maximises (the likelihood, less a small ridge)."""

from __future__ import annotations

import math

import pytest

from bench import rollout_value_fit as value_fit
from services.worker.ai.rollout import value


@pytest.mark.parametrize(
    ("variant", "players"), [("classic", 2), ("classic", 4), ("no_mercy", 4), ("flip", 2)]
)
def test_the_tables_weights_in_feature_order_give_rollout_value(variant: str, players: int) -> None:
    rounds = value_fit.play_rounds(variant, players, rounds=6, seed=500)
    data = value_fit.samples(rounds, with_order=False)
    direct = [math.log(value(s, winner)) for states, winner in rounds for s in states]
    assert len(direct) == len(data) > 0
    assert value_fit.log_likelihood(
        data, value_fit.current_weights(variant, players)
    ) == pytest.approx(sum(direct) / len(direct), abs=1e-9)


def test_the_fit_is_at_least_as_likely_as_the_constants_and_nearby_weights() -> None:
    rounds = value_fit.play_rounds("classic", 4, rounds=40, seed=900)
    data = value_fit.samples(rounds, with_order=True)
    fitted = value_fit.fit(data, value_fit.ORDER_FEATURES)
    best = value_fit.objective(data, fitted)
    constants = [*value_fit.current_weights("classic", 4), 0.0, 0.0]
    assert best > value_fit.objective(data, constants)
    for i in range(value_fit.ORDER_FEATURES):
        for nudge in (-0.05, 0.05):
            moved = list(fitted)
            moved[i] += nudge
            assert value_fit.objective(data, moved) <= best
