"""Whether two strength runs played the same: per table, how many tasks both journals hold
and how many of those won and lost exactly the same rounds.

``bench/ai_strength.py --journal`` keeps each finished task's rounds won (``won``, deal by
deal).  Two versions of the hard player that play a table alike win and lose the same
rounds on the same deals; a change that should leave a table alone (weights for other
tables, a budget for another variant) is checked this way on every task both runs
finished, whatever each journal's fingerprint.

    .venv/bin/python bench/same_play.py OLD.jsonl NEW.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai_strength import Task
from bench.journal import read_entries


def rounds_won(path: Path) -> dict[Task, list[bool]]:
    return {Task(**e["task"]): e["tally"]["won"] for e in read_entries(path)}


def agreement(
    old: dict[Task, list[bool]], new: dict[Task, list[bool]]
) -> dict[tuple[str, int], tuple[int, int, int]]:
    """Per (variant, players): tasks in both, of those identical, rounds they hold."""
    out: dict[tuple[str, int], tuple[int, int, int]] = {}
    for task in sorted(old.keys() & new.keys(), key=lambda t: (t.variant, t.players)):
        table = (task.variant, task.players)
        both, same, rounds = out.get(table, (0, 0, 0))
        out[table] = (both + 1, same + (old[task] == new[task]), rounds + len(new[task]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    args = parser.parse_args()
    print(f"{'variant':<10} {'players':>7} {'tasks in both':>13} {'identical':>9} {'rounds':>7}")
    for (variant, players), (both, same, rounds) in agreement(
        rounds_won(args.old), rounds_won(args.new)
    ).items():
        print(f"{variant:<10} {players:>7} {both:>13} {same:>9} {rounds:>7}")


if __name__ == "__main__":
    main()
