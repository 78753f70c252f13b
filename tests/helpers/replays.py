"""Games played as the service plays them, for the export's tests: every action sent as its
code (the face its player sees) and parsed back, a fresh seed drawn for every action in
case it deals the next round, and the history (seeds, moves) kept as the game record keeps
it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from services.engine.game_export import BY_PLAYER, BY_SERVICE, ExportSeat, Move, build
from services.engine.rules import (
    Action,
    Applied,
    Event,
    GameState,
    Options,
    apply,
    new_game,
)
from services.engine.rules.view import as_seen
from tests.helpers.rules import random_action


@dataclass
class PlayedGame:
    state: GameState
    events: list[Event]
    seeds: list[int]
    moves: list[Move]
    export: dict[str, Any]


def play(
    variant: str, players: int, options: Options, rng: random.Random, max_moves: int = 400
) -> PlayedGame:
    """A random game of up to ``max_moves`` moves (ended early if it is not over by then)."""
    names = [f"P{i}" for i in range(players)]
    seeds = [rng.getrandbits(63)]
    state, first = new_game(variant, names, options, seed=seeds[0])
    events = list(first)
    moves: list[Move] = []
    while state.pending is not None and len(moves) < max_moves:
        chosen = as_seen(random_action(state, rng, others=0.1), state.side)
        action = Action.from_code(chosen.player, chosen.code)
        next_seed = rng.getrandbits(63)
        result = apply(state, action, next_seed)
        assert isinstance(result, Applied), result
        new_state, new_events = result
        if new_state.round != state.round:
            seeds.append(next_seed)
        by = BY_SERVICE if action.player is None else BY_PLAYER
        moves.append(Move(action.player, action.code, by))
        state = new_state
        events += new_events
    export = build(
        "g-test",
        variant,
        options,
        [ExportSeat(n) for n in names],
        seeds,
        moves,
        ended_early=state.pending is not None,
    )
    return PlayedGame(state, events, seeds, moves, export)
