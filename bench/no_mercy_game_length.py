"""How long No Mercy games run (RULES.md §4): plays seeded games to the end with a simple
random-legal policy and prints the longest game, in decisions (applied actions) and in
rounds, and the distribution of both.

The policy: whoever owes the decision picks uniformly among their legal actions; while an
UNO window is open, three times in ten another player catches instead (or, with nobody to
catch, the window times out).  Player counts cycle through 2..10.  A game that reaches
``--cap`` decisions is counted as unfinished (none should).

    .venv/bin/python bench/no_mercy_game_length.py [--games 10000] [--cap 200000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.percentiles import percentile
from services.engine.rules import (
    Action,
    ActionType,
    Applied,
    EventType,
    GameState,
    apply,
    legal_actions,
    new_game,
    owed_by,
)
from services.engine.rules.actions import close_uno_window

VARIANT = "no_mercy"
PLAYER_COUNTS = tuple(range(2, 11))


@dataclass(frozen=True)
class GameLength:
    seed: int
    players: int
    decisions: int
    rounds: int
    knock_outs: int
    finished: bool


def pick_action(state: GameState, rng: random.Random) -> Action:
    if state.uno_window is not None and rng.random() < 0.3:
        catches = [
            a
            for seat in range(len(state.players))
            for a in legal_actions(state, seat)
            if a.type is ActionType.CATCH
        ]
        return rng.choice(catches) if catches else close_uno_window()
    player = owed_by(state)
    assert player is not None
    actions = legal_actions(state, player)
    if not actions:
        raise AssertionError(f"state v{state.version}: seat {player} owes a decision but has none")
    return rng.choice(actions)


def play_one(seed: int, players: int, cap: int) -> GameLength:
    rng = random.Random(seed)
    state, _ = new_game(VARIANT, [f"p{i}" for i in range(players)], seed=seed)
    decisions = knock_outs = 0
    while not state.is_over and decisions < cap:
        result = apply(state, pick_action(state, rng))
        if not isinstance(result, Applied):
            raise AssertionError(f"seed {seed}: a legal action was refused: {result}")
        knock_outs += sum(1 for e in result.events if e.type is EventType.KNOCKED_OUT)
        state = result.state
        decisions += 1
    return GameLength(seed, players, decisions, state.round, knock_outs, state.is_over)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play")
    parser.add_argument("--cap", type=int, default=200_000, help="decisions before giving up")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()

    started = time.perf_counter()
    results = [
        play_one(seed, PLAYER_COUNTS[seed % len(PLAYER_COUNTS)], args.cap)
        for seed in range(args.first_seed, args.first_seed + args.games)
    ]
    elapsed = time.perf_counter() - started

    unfinished = [r for r in results if not r.finished]
    decisions = sorted(r.decisions for r in results)
    longest = max(results, key=lambda r: r.decisions)
    most_rounds = max(results, key=lambda r: r.rounds)
    total_decisions = sum(decisions)

    print(f"No Mercy, {len(results)} seeded random-legal games (seeds {args.first_seed}..)")
    print(f"  unfinished at {args.cap} decisions: {len(unfinished)}")
    print(
        f"  longest game: {longest.decisions} decisions, {longest.rounds} rounds "
        f"(seed {longest.seed}, {longest.players} players)"
    )
    print(
        f"  most rounds:  {most_rounds.rounds} rounds, {most_rounds.decisions} decisions "
        f"(seed {most_rounds.seed}, {most_rounds.players} players)"
    )
    print(
        "  decisions per game: "
        f"mean {statistics.fmean(decisions):.0f}, p50 {percentile(decisions, 0.5)}, "
        f"p90 {percentile(decisions, 0.9)}, p99 {percentile(decisions, 0.99)}, "
        f"p99.9 {percentile(decisions, 0.999)}, max {decisions[-1]}"
    )
    rounds = Counter(r.rounds for r in results)
    print("  rounds per game: " + ", ".join(f"{k}: {rounds[k]}" for k in sorted(rounds)))
    print("  by player count (games, mean / max decisions, max rounds, knock-outs per game):")
    for players in PLAYER_COUNTS:
        group = [r for r in results if r.players == players]
        if not group:
            continue
        print(
            f"    {players:2d} players: {len(group):5d} games, "
            f"{statistics.fmean(r.decisions for r in group):6.0f} / "
            f"{max(r.decisions for r in group):6d} decisions, "
            f"{max(r.rounds for r in group):3d} rounds, "
            f"{statistics.fmean(r.knock_outs for r in group):5.1f} knock-outs"
        )
    print(
        f"  {total_decisions} decisions in {elapsed:.1f} s "
        f"({total_decisions / elapsed:.0f} decisions/s on this machine)"
    )


if __name__ == "__main__":
    main()
