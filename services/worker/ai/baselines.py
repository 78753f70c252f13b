"""The two baseline AI players the strong one is measured against.

- ``random``: uniform among the legal plays (a stacked draw card is a play too); draws (or
  takes the cards owed, or keeps the drawn card) only when it has no play; a uniformly
  random colour, swap target or roulette colour.
- ``first``: the first legal play in ``legal_actions`` order (the order of the hand), else
  the first remaining choice; colours in the side's fixed order.

Both always call UNO when they may and never challenge a wild draw card.  [decision] They
never catch a player who forgot UNO, and never jump in: both are out-of-turn initiatives,
and a baseline only does what its own decision demands (calling UNO is part of playing).
"""

from __future__ import annotations

import random
from typing import Self

from services.engine.rules import Action, ActionType, View

# Out-of-turn initiatives and the challenge, which no baseline ever takes.
_NEVER = frozenset({ActionType.CATCH, ActionType.CHALLENGE})


def _uno_call(view: View) -> Action | None:
    for action in view.legal:
        if action.type is ActionType.CALL_UNO:
            return action
    return None


def _candidates(view: View) -> tuple[list[Action], list[Action]]:
    """The legal plays, and every other allowed choice (draw, keep, accept, colour, swap)."""
    plays: list[Action] = []
    others: list[Action] = []
    for action in view.legal:
        if action.type in _NEVER or action.type is ActionType.CALL_UNO:
            continue
        (plays if action.type is ActionType.PLAY else others).append(action)
    return plays, others


class _Baseline:
    """What both baselines share: call UNO when allowed, else pick among the choices."""

    name: str

    def for_game(self) -> Self:
        return self

    def choose(self, view: View, rng: random.Random) -> Action:
        call = _uno_call(view)
        if call is not None:
            return call
        plays, others = _candidates(view)
        return self._pick(plays or others, rng)

    def react(self, view: View, rng: random.Random) -> Action | None:
        return _uno_call(view)

    def _pick(self, choices: list[Action], rng: random.Random) -> Action:
        raise NotImplementedError


class RandomPolicy(_Baseline):
    name = "random"

    def _pick(self, choices: list[Action], rng: random.Random) -> Action:
        return rng.choice(choices)


class FirstLegalPolicy(_Baseline):
    name = "first"

    def _pick(self, choices: list[Action], rng: random.Random) -> Action:
        return choices[0]
