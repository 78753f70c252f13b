"""Playing a sampled world forward: a player for every seat, and a value at the end.

The hard player's search (``hard.py``) values a candidate action by applying it to many
sampled worlds and playing each on for a few actions with the rules engine itself
(``legal_actions`` and ``apply``, nothing re-implemented, so a rollout follows the rules
exactly).  Nobody calls UNO, catches or jumps in inside a rollout.

Two rollout players: ``as_rollout_player(policy)`` plays a policy (the hard player uses
strong) from each seat's ``view`` of the world, as in a real game; ``greedy`` reads the
world's state directly (every hand is known there: it is the world's own guess, not the
real game's) and is cheap, one ``legal_actions`` per step: play a card of the colour in
play, else any coloured one, wilds last; draw only when nothing can be played; play a drawn
card; name the colour held most; always stack on a draw card; swap with the smallest hand.

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
    ActionType,
    Applied,
    Event,
    EventType,
    GameState,
    PendingKind,
    apply,
    legal_actions,
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


def rollout(
    state: GameState, me: int, horizon: int, rng: random.Random, player: Player | None = None
) -> float:
    """``me``'s chance of winning the round, after playing ``state`` on for at most
    ``horizon`` actions with ``player`` at every seat (default: the greedy one)."""
    start_round = state.round
    decide = player or greedy
    for _ in range(horizon):
        pending = state.pending
        if pending is None or state.round != start_round:
            break
        result = apply(state, decide(state, pending.player, rng))
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


def greedy(state: GameState, seat: int, rng: random.Random) -> Action:
    """The rollout player's action for the decision ``seat`` owes."""
    legal = legal_actions(state, seat)
    pending = state.pending
    assert pending is not None
    kind = pending.kind
    if kind is PendingKind.CHOOSE_COLOR or kind is PendingKind.CHOOSE_ROULETTE_COLOR:
        held: dict[object, int] = {}
        side = state.side
        for c in state.players[seat].hand:
            color = c.face(side).color
            if color is not None:
                held[color] = held.get(color, 0) + 1
        colors = [a for a in legal if a.type is ActionType.CHOOSE_COLOR]
        if kind is PendingKind.CHOOSE_ROULETTE_COLOR:
            return min(colors, key=lambda a: held.get(a.color, 0))
        return max(colors, key=lambda a: held.get(a.color, 0))
    if kind is PendingKind.CHOOSE_SWAP:
        return min(
            (a for a in legal if a.type is ActionType.SWAP),
            key=lambda a: len(state.players[a.target or 0].hand),
        )
    plays = [a for a in legal if a.type is ActionType.PLAY]
    if plays:
        side = state.side
        colored = [a for a in plays if a.card is not None and a.card.face(side).color is not None]
        if colored and kind is not PendingKind.RESPOND_TO_DRAW:
            same = [
                a for a in colored if a.card is not None and a.card.face(side).color == state.color
            ]
            return rng.choice(same or colored)
        return rng.choice(plays)
    for wanted in (ActionType.ACCEPT, ActionType.DRAW, ActionType.PASS):
        for a in legal:
            if a.type is wanted:
                return a
    # Only a UNO call or a catch is left (never owed); take the first settling one.
    return next((a for a in legal if a.type not in _UNOWED), legal[0])


_UNOWED = frozenset({ActionType.CALL_UNO, ActionType.CATCH})


def as_rollout_player(policy: Policy) -> Player:
    """A policy played from each seat's view of the sampled state, as in a real game (the
    view built by the engine, the decision owed only: nobody reacts out of turn)."""

    def decide(state: GameState, seat: int, rng: random.Random) -> Action:
        return policy.choose(view(state, seat), rng)

    return decide
