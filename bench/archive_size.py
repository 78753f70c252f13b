"""Archives and exports of finished games (docs/EXPORT.md): how big, how fast.

Plays ``--games`` whole games per variant between AI players (the worker's ``random``
level by default, ``--policy``) on the pure rules engine, as the service plays them: every
action sent as its code, a fresh seed drawn with each one for the next round. For each game
it times what the end of a game costs (the engine writing the export out by replaying the
history, the writer's compact form deflated: ``game_export.build`` + ``compact`` + zlib) and
the verifier (``game_export.replay``), and prints per variant the median and largest archive
per game and per round, the export's size, the time to archive a game and to verify a
round.

    .venv/bin/python bench/archive_size.py --games 50
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.engine.game_export import (
    BY_PLAYER,
    BY_SERVICE,
    ExportSeat,
    Move,
    build,
    compact,
    replay,
)
from services.engine.rules import (
    VARIANTS,
    Action,
    Applied,
    GameState,
    Options,
    apply,
    new_game,
    view,
)
from services.worker.ai import Policy, get_policy

MAX_MOVES = 20_000


def play(variant: str, players: int, policy_name: str, seed: int) -> tuple[list[int], list[Move]]:
    """One whole game; its history (each round's seed, every move)."""
    rng = random.Random(seed)
    seats = [get_policy(policy_name).for_game() for _ in range(players)]
    seeds = [rng.getrandbits(63)]
    state, _ = new_game(variant, [f"P{i}" for i in range(players)], seed=seeds[0])
    moves: list[Move] = []
    while state.pending is not None and len(moves) < MAX_MOVES:
        _, action = _next(state, seats, rng)
        action = Action.from_code(action.player, action.code)
        next_seed = rng.getrandbits(63)
        result = apply(state, action, next_seed)
        assert isinstance(result, Applied), result
        if result.state.round != state.round:
            seeds.append(next_seed)
        moves.append(
            Move(action.player, action.code, BY_SERVICE if action.player is None else BY_PLAYER)
        )
        state = result.state
    return seeds, moves


def _next(state: GameState, seats: list[Policy], rng: random.Random) -> tuple[int, Action]:
    assert state.pending is not None
    owed = state.pending.player
    others = [s for s in range(len(seats)) if s != owed]
    rng.shuffle(others)
    for s in others:
        reaction = seats[s].react(view(state, s), rng)
        if reaction is not None:
            return s, reaction
    return owed, seats[owed].choose(view(state, owed), rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per variant")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", default="random", help="AI level of every seat")
    args = parser.parse_args()
    print(f"{args.games} games per variant, {args.players} players, AI level {args.policy}")
    header = (
        f"{'variant':<10} {'rounds':>6} {'moves':>6} | archive B/game med max"
        f" | B/round med max | export KB med | archive ms med max | verify ms/round med max"
    )
    print(header)
    for variant in sorted(VARIANTS):
        sizes, per_round, exports, archive_ms, verify_ms, rounds, moves = [], [], [], [], [], [], []
        for g in range(args.games):
            seeds, history = play(variant, args.players, args.policy, g)
            seats = [ExportSeat(f"P{i}") for i in range(args.players)]
            start = time.perf_counter()
            export = build(f"g{g}", variant, Options(), seats, seeds, history)
            kept = zlib.compress(json.dumps(compact(export), separators=(",", ":")).encode(), 9)
            archive_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            replay(export)
            verify_ms.append((time.perf_counter() - start) * 1000 / len(seeds))
            sizes.append(len(kept))
            per_round.append(len(kept) / len(seeds))
            exports.append(len(json.dumps(export)) / 1024)
            rounds.append(len(seeds))
            moves.append(len(history))
        print(
            f"{variant:<10} {statistics.median(rounds):>6.0f} {statistics.median(moves):>6.0f} |"
            f" {statistics.median(sizes):>8.0f} {max(sizes):>6} |"
            f" {statistics.median(per_round):>7.0f} {max(per_round):>5.0f} |"
            f" {statistics.median(exports):>13.1f} |"
            f" {statistics.median(archive_ms):>10.1f} {max(archive_ms):>6.1f} |"
            f" {statistics.median(verify_ms):>11.2f} {max(verify_ms):>6.2f}"
        )


if __name__ == "__main__":
    main()
