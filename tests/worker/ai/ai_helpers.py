"""Helpers for the AI tests: scripted tables and the views AI players get from them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.engine.rules import Action, Applied, GameState, Setup, View, apply, from_setup, view
from services.worker.ai import HardPolicy, Policy, get_policy


def table(hands: Sequence[str], discard: str, draw_pile: str = "", **kw: Any) -> GameState:
    """A scripted table in RULES.md §1 notation; ``current`` (default seat 0) owes a turn."""
    kw.setdefault("current", 0)
    state, _ = from_setup(Setup(hands=list(hands), discard=discard, draw_pile=draw_pile, **kw))
    return state


def after(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        result = apply(state, action)
        assert isinstance(result, Applied), f"{action} refused: {result}"
        state = result.state
    return state


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
