"""Every AI policy answers every decision with one of its legal actions, in every variant
(read from the registry at run time, so a new variant is covered without a change here),
with and without the house rules it offers, and every kind of decision the variant can
ask for reaches the strong policy (RULES.md §7: a stand-in may owe any of them)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from ai_helpers import quick_policy

from services.engine.rules import (
    VARIANTS,
    Action,
    ActionType,
    Options,
    PendingKind,
    View,
    new_game,
)
from services.engine.rules.effects import seven
from services.engine.rules.variant import HouseRule, Stacking, Variant
from services.worker.ai import POLICIES, Policy, get_policy
from services.worker.ai.arena import Arena, seat_names


@dataclass
class Recorder:
    """Wraps a policy and checks and counts what it is asked and answers."""

    inner: Policy
    kinds: Counter[PendingKind] = field(default_factory=Counter)
    reactions: Counter[ActionType] = field(default_factory=Counter)

    @property
    def name(self) -> str:
        return self.inner.name

    def for_game(self) -> Recorder:
        return Recorder(self.inner.for_game(), self.kinds, self.reactions)

    def choose(self, view: View, rng: random.Random) -> Action:
        assert view.pending is not None and view.pending.player == view.viewer
        action = self.inner.choose(view, rng)
        assert action in view.legal, (view.pending.kind, action, view.legal_codes)
        self.kinds[view.pending.kind] += 1
        return action

    def react(self, view: View, rng: random.Random) -> Action | None:
        action = self.inner.react(view, rng)
        assert action is None or action in view.legal
        if action is not None:
            self.reactions[action.type] += 1
        return action


def option_sets(variant: Variant) -> list[Options]:
    offered = variant.house_rules
    every = {
        rule.value: True
        for rule in (HouseRule.PROGRESSIVE_DRAW, HouseRule.SEVEN_O, HouseRule.JUMP_IN)
        if rule in offered
    }
    sets = [Options(), Options(**every)]
    if HouseRule.DRAW_UNTIL_PLAYABLE in offered:
        sets.append(Options(draw_until_playable=True))
    return sets


def reachable_kinds(variant: Variant) -> set[PendingKind]:
    """The decisions this variant (with its offered house rules on) can ask for."""
    kinds = {PendingKind.TURN, PendingKind.PLAY_DRAWN, PendingKind.CHOOSE_COLOR}
    rules = list(variant.rules.values())
    if (
        any(r.challengeable for r in rules)
        or variant.stacking is not Stacking.NONE
        or HouseRule.PROGRESSIVE_DRAW in variant.house_rules
    ):
        kinds.add(PendingKind.RESPOND_TO_DRAW)
    if any(r.effect is seven for r in rules) or variant.seven_o_rules:
        kinds.add(PendingKind.CHOOSE_SWAP)
    if any(r.answer is not None for r in rules):
        kinds.add(PendingKind.CHOOSE_ROULETTE_COLOR)
    return kinds


def play_rounds(variant: str, recorders: list[Recorder], options: Options, seed: int) -> None:
    state, _ = new_game(variant, seat_names(recorders), options, seed=seed)
    Arena(recorders, random.Random(seed)).play_game(state, rounds=2)


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
