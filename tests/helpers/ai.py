"""Helpers for the AI tests: scripted tables, the views AI players get from them, a quick
hard policy, and a recorder that checks every answer of a policy is legal."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.engine.rules import (
    Action,
    ActionType,
    GameState,
    Options,
    PendingKind,
    new_game,
)
from services.engine.rules.effects import seven
from services.engine.rules.variant import HouseRule, Stacking, Variant
from services.engine.rules.view import View, view
from services.worker.ai import HardPolicy, Policy, get_policy
from services.worker.ai.arena import Arena, seat_names
from tests.helpers import rules


def table(hands: Sequence[str], discard: str, draw_pile: str = "", **kw: Any) -> GameState:
    """A scripted table in RULES.md §1 notation; ``current`` (default seat 0) owes a turn."""
    kw.setdefault("current", 0)
    return rules.table(hands, discard, draw_pile, **kw)


def seen(state: GameState, seat: int) -> View:
    return view(state, seat)


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def quick_policy(name: str) -> Policy:
    """The registry's policy, but the hard one with a tiny search budget: the tests check
    what it may do (legal moves, its own view), not how well it plays, on every seat of
    many games."""
    if name == "hard":
        return HardPolicy(rollouts=2, horizon=3, min_worlds=2)
    return get_policy(name)


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
