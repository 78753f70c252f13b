"""Playing a sampled world forward: a player for every seat, and a value at the end.

The hard player's search (``hard.py``) values a candidate action by applying it to many
sampled worlds and playing each on for a few actions with the rules engine itself
(``legal_actions`` and ``apply``, nothing re-implemented, so a rollout follows the rules
exactly).  Nobody calls UNO, catches or jumps in inside a rollout.

The rollout player, ``as_rollout_player(policy)``, plays a policy (the hard player uses
strong) from each seat's ``view`` of the world, as in a real game.  A cheaper player that
read the world's state directly played worse (``hard.py``) and is gone.

A rollout stops when the round ends (the winner is known) or after ``horizon`` actions;
``value`` then estimates each seat's chance of winning the round from what each seat holds
(a softmax of a score fitted on strong players' rounds: the hand's size, its wilds and
action cards, who is to move).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from services.engine.rules import (
    Action,
    Applied,
    Event,
    EventType,
    GameState,
    apply,
    view,
)

from .policy import Policy

# The value of an unfinished rollout: each standing seat's odds of winning the round, a
# softmax of a score per seat, fitted (maximum likelihood, conditional logit) on 2,500
# rounds of 2-player Classic between strong players, every third state of each round,
# tested on the 30 % held out.  The score: ``HAND_SCORE[n]`` for a hand of n cards (one
# card more costs most near out: 1 -> 2 cards is -0.58, 7 -> 8 only -0.12), ``SLOPE`` per
# card beyond the table, plus ``WILD`` per wild held (a card with no colour on the side in
# play), ``ACTION`` per coloured action card, ``TO_MOVE`` for the seat owing the decision.
# Held-out log-likelihood per state: -0.633 (the coin's -0.693); the earlier softmax of
# -0.45 per card scored -0.781, worse than the coin: it was sure of the wrong things.
HAND_SCORE = (0.0, 0.0, -0.58, -0.972, -1.229, -1.431, -1.639, -1.805, -1.922, -2.14,
              -2.288, -2.486, -2.672)  # fmt: skip
SLOPE = -0.14
WILD = 0.705
ACTION = 0.191
TO_MOVE = 0.098


def rollout(state: GameState, me: int, horizon: int, rng: random.Random, player: Player) -> float:
    """``me``'s chance of winning the round, after playing ``state`` on for at most
    ``horizon`` actions with ``player`` at every seat."""
    start_round = state.round
    for _ in range(horizon):
        pending = state.pending
        if pending is None or state.round != start_round:
            break
        result = apply(state, player(state, pending.player, rng))
        assert isinstance(result, Applied), result
        ended = round_winner(result.events)
        if ended is not None:
            return 1.0 if ended == me else 0.0
        state = result.state
    return value(state, me)


# A rollout player: the action for the decision ``seat`` owes in a (sampled) state.
Player = Callable[[GameState, int, random.Random], Action]


def round_winner(events: Sequence[Event]) -> int | None:
    """The seat that won the round, when these events end it."""
    for event in events:
        if event.type is EventType.ROUND_ENDED:
            return int(event.data["winner"])
    return None


def value(state: GameState, me: int) -> float:
    """``me``'s odds of winning the round from here: its share of the softmax of every
    standing seat's score (the hand's size, its wilds and action cards, the move)."""
    side = state.side
    owing = state.pending.player if state.pending is not None else -1
    last = len(HAND_SCORE) - 1
    weights = []
    for seat, p in enumerate(state.players):
        if p.knocked_out:
            weights.append(0.0)
            continue
        n = len(p.hand)
        score = HAND_SCORE[n] if n <= last else HAND_SCORE[last] + SLOPE * (n - last)
        for c in p.hand:
            f = c.face(side)
            if f.color is None:
                score += WILD
            elif not f.kind.is_number:
                score += ACTION
        if seat == owing:
            score += TO_MOVE
        weights.append(math.exp(score))
    total = sum(weights)
    return weights[me] / total if total else 0.0


def as_rollout_player(policy: Policy) -> Player:
    """A policy played from each seat's view of the sampled state, as in a real game (the
    view built by the engine, the decision owed only: nobody reacts out of turn)."""

    def decide(state: GameState, seat: int, rng: random.Random) -> Action:
        return policy.choose(view(state, seat), rng)

    return decide
