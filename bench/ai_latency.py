"""How long an AI decision takes: p50/p99/max per variant, for the strong policy and, as
the baseline measured in the same run, the random one.

Every seat of each game plays the measured policy (so hands of every size, No Mercy's
big ones included, are timed).  Three figures per decision:

- ``policy``: the policy's own ``choose``/``react`` (what the issue's 5 ms p99 is about);
- ``+view``: building the player's view in the engine as well (``view(state, seat)``);
- ``stand-in``: the worker's path, the view rebuilt from its JSON and the memoryless
  registry policy deciding (``services.worker.stand_in.choose_action``).

    .venv/bin/python bench/ai_latency.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.percentiles import percentile
from services.engine.rules import VARIANTS, new_game, view
from services.worker.ai import get_policy
from services.worker.ai.arena import Arena, Turn, seat_names
from services.worker.stand_in import choose_action

POLICIES = ("strong", "random")
PLAYERS = (2, 4, 6)


def line(label: str, seconds: list[float]) -> str:
    seconds.sort()
    ms = [s * 1e3 for s in (percentile(seconds, 0.5), percentile(seconds, 0.99), seconds[-1])]
    return f"{label:<9} n {len(seconds):>7}  p50 {ms[0]:7.3f}  p99 {ms[1]:7.3f}  max {ms[2]:8.3f}"


def measure(
    variant: str, policy_name: str, rounds: int
) -> tuple[list[float], list[float], list[float]]:
    policy_times: dict[str, list[float]] = {}
    with_view: list[float] = []
    stand_in: list[float] = []
    policy = get_policy(policy_name)

    def observe(turn: Turn) -> None:
        # Re-time this decision the way the worker makes it (view JSON, stand-in); only
        # owed decisions, since a stand-in never acts out of turn.
        if turn.out_of_turn:
            return
        data = turn.view.to_json()
        started = time.perf_counter()
        choose_action(data, policy_name=policy_name, seed_text=str(turn.view.version))
        stand_in.append(time.perf_counter() - started)

    for index in range(rounds):
        players = PLAYERS[index % len(PLAYERS)]
        seats = [policy] * players
        state, _ = new_game(variant, seat_names(seats), seed=index)
        arena = Arena(seats, random.Random(index), observer=observe, latencies=policy_times)
        while state.pending is not None and state.round == 1:
            pending = state.pending
            started = time.perf_counter()
            view(state, pending.player)
            view_seconds = time.perf_counter() - started
            before = len(policy_times.get(policy_name, []))
            state = arena.step(state)
            timed = policy_times.get(policy_name, [])
            if len(timed) > before:
                with_view.append(view_seconds + timed[-1])
    return policy_times.get(policy_name, []), with_view, stand_in


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds per variant and policy")
    args = parser.parse_args()
    for variant in VARIANTS:
        for policy_name in POLICIES:
            own, with_view, stand_in = measure(variant, policy_name, args.rounds)
            print(f"{variant} · {policy_name} (ms)")
            print("  " + line("policy", own))
            print("  " + line("+view", with_view))
            print("  " + line("stand-in", stand_in))
    print("\ngoal: the strong policy's own p99 <= 5 ms")


if __name__ == "__main__":
    main()
