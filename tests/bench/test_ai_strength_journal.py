"""bench/ai_strength.py's journal: a hard run stopped part-way goes on from its finished
tasks and prints the same figures as a run that was never stopped; a journal of other code
or other deals is refused, and a line cut short is played again."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import ai_strength
from bench.journal import Journal


def hard_run(journal: Path | None, seed: int = 7) -> argparse.Namespace:
    return argparse.Namespace(
        timing_rounds=0,
        hard_rounds=1,
        classic_rounds=3,
        four_player_rounds=None,
        seed=seed,
        workers=1,
        journal=str(journal) if journal else None,
    )


def figures(out: str) -> list[str]:
    """The printed table and goal line, without the progress lines and the timing."""
    return [
        line
        for line in out.splitlines()
        if line
        and not line.startswith(("[", "interrupted"))
        and " s on " not in line
        and "read back" not in line
    ]


def test_a_run_goes_on_from_its_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ai_strength.run_hard(hard_run(None), ["classic"])
    whole = figures(capsys.readouterr().out)

    path = tmp_path / "hard.jsonl"
    ai_strength.run_hard(hard_run(path), ["classic"])
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 3  # the run's fingerprint, then one line per task
    # Stopped after its first task, and the next task's line cut short by the stop.
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:20] + "\n")
    capsys.readouterr()

    ai_strength.run_hard(hard_run(path), ["classic"])
    out = capsys.readouterr().out
    assert "1 tasks read back" in out and "2 to play" in out
    assert figures(out) == whole
    assert len(Journal(path, json.loads(lines[0])["run"]).entries) == 3


def test_a_journal_of_other_deals_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hard.jsonl"
    path.write_text(json.dumps({"run": "another"}) + "\n")
    with pytest.raises(SystemExit, match="another version of the code or other settings"):
        ai_strength.run_hard(hard_run(path, seed=8), ["classic"])


def test_more_four_player_rounds_only_add_tasks() -> None:
    """A journal of a run with 300 rounds a table goes on into one that gives the
    4-player tables more: every task of the first is one of the second, the 2-player and
    Classic ones unchanged."""
    shorter = ai_strength.hard_tasks(["classic", "flip"], 300, 20_000, 20_000)
    longer = ai_strength.hard_tasks(["classic", "flip"], 300, 20_000, 20_000, 1_200)
    assert set(shorter) < set(longer)
    added = set(longer) - set(shorter)
    assert {t.players for t in added} == {4}
    assert sum(t.rounds for t in longer if t.players == 4) == 2 * 1_200
