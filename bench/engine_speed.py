"""Speed of the rules engine under random legal play, with RLCard's UNO as a baseline.

Policy: the player owing a decision plays a card chosen uniformly among their legal plays,
draws only when they have none, always calls UNO and never challenges (colours, swaps and
other decisions uniformly).  Prints, for every variant in the registry and 2 and 4 players:
whole games (to the target score) per second, single rounds per second and decisions per
second.  When ``rlcard`` is importable (``make setup-bench``), RLCard's ``uno`` environment
with its random agents runs in the same process as a baseline (two players, one round is one
RLCard game), and the ratio of our two-player Classic rounds/s to its games/s is printed.
Also prints the size of a 4-player Classic state serialised as compact JSON.

Usage: .venv/bin/python bench/engine_speed.py [--seconds S]
Nothing here asserts on time; the figures are for reading.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.engine.rules import (
    VARIANTS,
    Action,
    ActionType,
    Applied,
    GameState,
    Options,
    apply,
    legal_actions,
    new_game,
    to_json,
)

ONE_ROUND = Options(target_score=1)  # any round won with a card left elsewhere ends the game


def choose(state: GameState, rng: random.Random) -> Action:
    assert state.pending is not None
    actions = legal_actions(state, state.pending.player)
    calls = [a for a in actions if a.type is ActionType.CALL_UNO]
    if calls:
        return calls[0]
    plays = [a for a in actions if a.type is ActionType.PLAY]
    if plays:
        return rng.choice(plays)
    others = [a for a in actions if a.type is not ActionType.CHALLENGE]
    for kind in (ActionType.CHOOSE_COLOR, ActionType.SWAP, ActionType.ACCEPT, ActionType.DRAW):
        of_kind = [a for a in others if a.type is kind]
        if of_kind:
            return rng.choice(of_kind)
    return rng.choice(others or list(actions))


def play_game(variant: str, players: int, seed: int, options: Options | None) -> int:
    """Play one game; return the number of decisions taken."""
    rng = random.Random(seed)
    state, _ = new_game(variant, [f"P{i}" for i in range(players)], options, seed=seed)
    decisions = 0
    while state.pending is not None and decisions < 100_000:
        result = apply(state, choose(state, rng))
        assert isinstance(result, Applied), result
        state = result.state
        decisions += 1
    return decisions


def measure(
    variant: str, players: int, options: Options | None, seconds: float, first_seed: int = 0
) -> tuple[float, float]:
    """Games/s and decisions/s over at least ``seconds`` of play."""
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play_game(variant, players, first_seed + games, options)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and games >= 3:
            return games / elapsed, decisions / elapsed


def rlcard_env() -> Any | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    return env


def measure_rlcard(env: Any, seconds: float) -> tuple[float, float]:
    games = decisions = 0
    start = time.perf_counter()
    while True:
        trajectories, _ = env.run(is_training=False)
        # Each player's trajectory alternates state, action, ..., state.
        decisions += sum(len(t) // 2 for t in trajectories)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and games >= 3:
            return games / elapsed, decisions / elapsed


def state_size() -> int:
    state, _ = new_game("classic", ["Ana", "Ben", "Cy", "Dee"], seed=1)
    rng = random.Random(1)
    sizes = []
    for _ in range(200):
        if state.pending is None:
            break
        sizes.append(len(json.dumps(to_json(state), separators=(",", ":"))))
        result = apply(state, choose(state, rng))
        assert isinstance(result, Applied)
        state = result.state
    return max(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--slices", type=int, default=6, help="interleaved baseline slices")
    args = parser.parse_args()

    print(f"{'variant':<10} {'players':>7} {'games/s':>9} {'rounds/s':>9} {'decisions/s':>12}")
    for name in sorted(VARIANTS):
        for players in (2, 4):
            games, decisions = measure(name, players, None, args.seconds)
            rounds, _ = measure(name, players, ONE_ROUND, args.seconds)
            print(f"{name:<10} {players:>7} {games:>9.1f} {rounds:>9.1f} {decisions:>12.0f}")

    env = rlcard_env()
    if env is None:
        print("rlcard: not installed (make setup-bench) — no baseline")
    else:
        # Interleaved slices, best of each: a busy machine slows both sides alike.
        ours_best = theirs_best = (0.0, 0.0)
        for slice_number in range(args.slices):
            ours = measure("classic", 2, ONE_ROUND, args.seconds / 2, 1000 * slice_number)
            theirs = measure_rlcard(env, args.seconds / 2)
            ours_best, theirs_best = max(ours_best, ours), max(theirs_best, theirs)
        print(
            f"{'classic':<10} {2:>7} {'':>9} {ours_best[0]:>9.1f} {ours_best[1]:>12.0f}"
            "  (one round, interleaved with RLCard)"
        )
        print(f"{'rlcard uno':<10} {2:>7} {'':>9} {theirs_best[0]:>9.1f} {theirs_best[1]:>12.0f}")
        ratio = ours_best[0] / theirs_best[0]
        print(f"ratio ours/RLCard, 2-player rounds/s: {ratio:.1f}x (goal 10x)")

    print(f"4-player Classic state as compact JSON: {state_size()} bytes at most (goal 4096)")


if __name__ == "__main__":
    main()
