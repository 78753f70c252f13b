"""How strong the strong AI player is: its share of round wins against the baselines.

For every variant in the registry (read at run time, so a new variant is reported without
a change here), with 2 and 4 players, the strong policy plays ``--rounds`` rounds against
``random`` and against ``first`` (first-legal).  With 4 players it is one strong seat
against three baseline seats, so the fair share is 25%; with 2 it is 50%.  Each round is
the first round of a fresh game dealt from a fixed seed (``--seed`` + round index; both
baselines face the same deals), and the strong seat rotates through the seats.

Printed per pairing: rounds, the strong seat's win share with its 95% Wilson interval, the
fair share, and the mean points per round gained by the strong seat and by a baseline seat
(the round's scoring, No Mercy's knock-out points included).  Then the goals of the issue
for 2-player Classic.  How long a decision takes is ``bench/ai_latency.py``'s.

For reference, RLCard's rule agent wins 51% against a random agent in its own 2-player UNO.

    .venv/bin/python bench/ai_strength.py [--rounds 2000] [--workers 2] [--variants classic]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.engine.rules import VARIANTS
from services.worker.ai import get_policy
from services.worker.ai.arena import play_one_round

STRONG = "strong"
BASELINES = ("random", "first")
PLAYER_COUNTS = (2, 4)
CHUNK = 250  # rounds per task handed to a worker process
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Task:
    variant: str
    players: int
    opponent: str
    first_round: int
    rounds: int
    seed: int


@dataclass
class Tally:
    rounds: int = 0
    wins: int = 0
    strong_points: int = 0
    baseline_points: int = 0  # summed over every baseline seat

    def add(self, other: Tally) -> None:
        self.rounds += other.rounds
        self.wins += other.wins
        self.strong_points += other.strong_points
        self.baseline_points += other.baseline_points


def run(task: Task) -> tuple[Task, Tally]:
    strong = get_policy(STRONG)
    baseline = get_policy(task.opponent)
    tally = Tally()
    for index in range(task.first_round, task.first_round + task.rounds):
        seat = index % task.players
        policies = [baseline] * task.players
        policies[seat] = strong
        result = play_one_round(task.variant, policies, seed=task.seed + index)
        tally.rounds += 1
        tally.wins += result.winner == seat
        tally.strong_points += result.points[seat]
        tally.baseline_points += sum(result.points) - result.points[seat]
    return task, tally


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial share."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return centre - half, centre + half


def tasks(variants: list[str], rounds: int, seed: int) -> Iterator[Task]:
    for variant in variants:
        for players in PLAYER_COUNTS:
            for opponent in BASELINES:
                for start in range(0, rounds, CHUNK):
                    yield Task(variant, players, opponent, start, min(CHUNK, rounds - start), seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per pairing")
    parser.add_argument("--workers", type=int, default=2, help="processes (this machine: 2)")
    parser.add_argument("--seed", type=int, default=20_000, help="first deal's seed")
    parser.add_argument("--variants", nargs="*", default=None, help="default: every variant")
    args = parser.parse_args()
    variants = args.variants or list(VARIANTS)
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; known: {sorted(VARIANTS)}")

    started = time.perf_counter()
    results: dict[tuple[str, int, str], Tally] = {}
    with Pool(args.workers) as pool:
        for task, tally in pool.imap_unordered(run, tasks(variants, args.rounds, args.seed)):
            key = (task.variant, task.players, task.opponent)
            results.setdefault(key, Tally()).add(tally)
    elapsed = time.perf_counter() - started

    header = (
        f"{'variant':<10} {'players':>7} {'vs':<7} {'rounds':>6}  {'strong wins':>11}  "
        f"{'95% CI':<15} {'fair':>4}  {'pts/round strong':>16}  {'pts/round baseline':>18}"
    )
    print(header)
    print("-" * len(header))
    for variant in variants:
        for players in PLAYER_COUNTS:
            for opponent in BASELINES:
                t = results[(variant, players, opponent)]
                low, high = wilson(t.wins, t.rounds)
                baseline_seats = t.rounds * (players - 1)
                print(
                    f"{variant:<10} {players:>7} {opponent:<7} {t.rounds:>6}  "
                    f"{t.wins / t.rounds:>11.1%}  [{low:5.1%}, {high:5.1%}]  "
                    f"{1 / players:>4.0%}  {t.strong_points / t.rounds:>16.1f}  "
                    f"{t.baseline_points / baseline_seats:>18.1f}"
                )
    if "classic" in variants:
        vs_random = results[("classic", 2, "random")]
        vs_first = results[("classic", 2, "first")]
        low_first, _ = wilson(vs_first.wins, vs_first.rounds)
        print()
        share = vs_random.wins / vs_random.rounds
        print(
            f"goal, 2-player Classic: >= 65% against random: {share:.1%}"
            f" ({'met' if share >= 0.65 else 'NOT met'}); "
            f"clearly above first-legal (CI above the fair 50%): lower bound {low_first:.1%} "
            f"({'met' if low_first > 0.5 else 'NOT met'})"
        )
        print("reference: RLCard's rule agent wins 51% against random in its 2-player UNO")
    print(
        f"\n{sum(t.rounds for t in results.values())} rounds in {elapsed:.0f} s "
        f"on {args.workers} processes"
    )


if __name__ == "__main__":
    main()
