"""bench/same_play.py: tasks both journals finished are compared round by round, per table;
a task one journal lacks is left out."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import same_play


def journal(path: Path, run: str, tasks: list[tuple[str, int, int, list[bool]]]) -> Path:
    lines = [json.dumps({"run": run})]
    for variant, players, first, won in tasks:
        task = {
            "subject": "hard",
            "variant": variant,
            "players": players,
            "opponent": "strong",
            "first_round": first,
            "rounds": len(won),
            "seed": 1,
        }
        lines.append(json.dumps({"task": task, "tally": {"won": won}}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_tables_that_played_alike_and_one_that_did_not(tmp_path: Path) -> None:
    old = journal(tmp_path / "old.jsonl", "a", [
        ("classic", 2, 0, [True, False]), ("classic", 2, 2, [False, False]),
        ("flip", 4, 0, [True, True]), ("minions", 2, 0, [True]),
    ])  # fmt: skip
    new = journal(tmp_path / "new.jsonl", "b", [
        ("classic", 2, 0, [True, False]), ("classic", 2, 2, [False, False]),
        ("flip", 4, 0, [False, True]),
    ])  # fmt: skip
    table = same_play.agreement(same_play.rounds_won(old), same_play.rounds_won(new))
    assert table == {("classic", 2): (2, 2, 4), ("flip", 4): (1, 0, 2)}
