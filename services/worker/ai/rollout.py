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
``value`` then estimates each seat's chance of winning the round from the hand sizes (a
softmax of minus the cards held: fewer cards, better odds).
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

# How much one card more in hand lowers a seat's odds, for the value of an unfinished
# rollout (fitted by hand on 2-player Classic: a card is worth about 20 % of the odds).
CARD_WEIGHT = 0.45


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
    """``me``'s share of the softmax of minus the cards each standing seat holds."""
    weights = [
        math.exp(-CARD_WEIGHT * len(p.hand)) if not p.knocked_out else 0.0 for p in state.players
    ]
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
