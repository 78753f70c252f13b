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
(a softmax of a score fitted on strong players' rounds at that table: the hand's size, its
wilds and action cards, who is to move).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

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


class ValueWeights(NamedTuple):
    """A seat's score in ``value``: ``hand_score[n]`` for a hand of n cards, ``slope`` per
    card beyond the table, ``wild`` per wild held (a card with no colour on the side in
    play), ``action`` per coloured action card, ``to_move`` for the seat owing the
    decision."""

    hand_score: tuple[float, ...]
    slope: float
    wild: float
    action: float
    to_move: float


# The value of an unfinished rollout: each standing seat's odds of winning the round, a
# softmax of a score per seat, fitted (maximum likelihood, conditional logit) on strong
# players' rounds, every third state of each round, tested on the 30 % held out
# (``bench/rollout_value_fit.py``).  These first weights were fitted on 2,500 rounds of
# 2-player Classic: one card more costs most near out (1 -> 2 cards is -0.58, 7 -> 8 only
# -0.12).  Held-out log-likelihood per state: -0.633 (the coin's -0.693); the earlier
# softmax of -0.45 per card scored -0.781, worse than the coin: it was sure of the wrong
# things.  They serve every table without weights of its own below.
CLASSIC_TWO = ValueWeights(
    (0.0, 0.0, -0.58, -0.972, -1.229, -1.431, -1.639, -1.805, -1.922, -2.14, -2.288, -2.486,
     -2.672),
    slope=-0.14, wild=0.705, action=0.191, to_move=0.098,
)  # fmt: skip

# Tables whose own fit (the same script: 2,500 rounds of Classic, 1,500 of the others)
# predicts the winner on held-out states better than the 2-player Classic weights, by
# 0.01 or more per state.  With four players a card costs more (a hand is one of three to
# beat), and in No Mercy far less (a hand grows by draws of 4 to 10 at any time): the
# Classic weights scored No Mercy worse than the coin (2 players -0.758 against -0.693;
# refit -0.681; 4 players -1.220 against -1.069; refit -1.065).  Four-player Classic
# -1.203 -> -1.176, Flip, Minecraft and Minions about 0.03 better.  Two-player Flip,
# Minecraft and Minions gained less than 0.01 and keep the Classic weights.
TABLE_WEIGHTS: dict[tuple[str, int], ValueWeights] = {
    ("classic", 4): ValueWeights(
        (0.0, 0.0, -0.810, -1.338, -1.758, -2.101, -2.424, -2.697, -2.940, -3.127, -3.380,
         -3.682, -3.973),
        slope=-0.220, wild=0.723, action=0.160, to_move=0.155,
    ),
    ("flip", 4): ValueWeights(
        (0.0, 0.0, -0.826, -1.380, -1.733, -1.965, -2.207, -2.413, -2.604, -2.900, -3.078,
         -3.291, -3.668),
        slope=-0.131, wild=0.707, action=0.049, to_move=0.171,
    ),
    ("minecraft", 4): ValueWeights(
        (0.0, 0.0, -0.781, -1.353, -1.709, -1.992, -2.268, -2.541, -2.755, -2.949, -3.160,
         -3.436, -3.694),
        slope=-0.140, wild=0.598, action=0.194, to_move=0.153,
    ),
    ("minions", 4): ValueWeights(
        (0.0, 0.0, -0.901, -1.440, -1.886, -2.273, -2.588, -2.918, -3.098, -3.431, -3.716,
         -3.916, -4.066),
        slope=-0.404, wild=0.730, action=0.178, to_move=0.147,
    ),
    ("no_mercy", 2): ValueWeights(
        (0.0, 0.0, -0.313, -0.390, -0.562, -0.567, -0.615, -0.617, -0.694, -0.737, -0.832,
         -0.932, -1.060),
        slope=-0.028, wild=0.111, action=0.039, to_move=0.071,
    ),
    ("no_mercy", 4): ValueWeights(
        (0.0, 0.0, -0.306, -0.390, -0.462, -0.486, -0.513, -0.526, -0.548, -0.603, -0.621,
         -0.631, -0.656),
        slope=-0.030, wild=0.071, action=0.015, to_move=0.062,
    ),
}  # fmt: skip


def value_weights(variant: str, players: int) -> ValueWeights:
    """The weights ``value`` scores a seat by at this table."""
    return TABLE_WEIGHTS.get((variant, players), CLASSIC_TWO)


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
    w = value_weights(state.variant, len(state.players))
    side = state.side
    owing = state.pending.player if state.pending is not None else -1
    last = len(w.hand_score) - 1
    weights = []
    for seat, p in enumerate(state.players):
        if p.knocked_out:
            weights.append(0.0)
            continue
        n = len(p.hand)
        score = w.hand_score[n] if n <= last else w.hand_score[last] + w.slope * (n - last)
        for c in p.hand:
            f = c.face(side)
            if f.color is None:
                score += w.wild
            elif not f.kind.is_number:
                score += w.action
        if seat == owing:
            score += w.to_move
        weights.append(math.exp(score))
    total = sum(weights)
    return weights[me] / total if total else 0.0


def as_rollout_player(policy: Policy) -> Player:
    """A policy played from each seat's view of the sampled state, as in a real game (the
    view built by the engine, the decision owed only: nobody reacts out of turn)."""

    def decide(state: GameState, seat: int, rng: random.Random) -> Action:
        return policy.choose(view(state, seat), rng)

    return decide
