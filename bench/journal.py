"""A bench run's finished work on disk, so a run of hours can stop and go on later.

Each finished task is one JSON line: the task and what it measured.  The first line is
the run's fingerprint (a hash of the code that plays, and the settings that pick the
deals): a journal is only read back by a run with the same fingerprint, so results of
other code or other deals are never mixed in.  A line cut short by a stop is ignored, and
its task is played again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def fingerprint(sources: Iterable[str], settings: dict[str, Any]) -> str:
    """A hash of every ``.py`` file under the ``sources`` folders (relative to the project)
    and of ``settings``."""
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
    for folder in sorted(sources):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class Journal:
    def __init__(self, path: Path, run: str) -> None:
        self.path = path
        self.entries: list[dict[str, Any]] = []
        if path.exists():
            lines = path.read_text().splitlines()
            head = _parse(lines[0]) if lines else None
            if head is None or head.get("run") != run:
                raise SystemExit(
                    f"{path} was written by another version of the code or other settings "
                    f"(run {head.get('run') if head else '?'}, this one {run}): "
                    "give another path, or delete it to start over"
                )
            self.entries = _entries(lines[1:])
        else:
            path.write_text(json.dumps({"run": run}) + "\n")

    def record(self, entry: dict[str, Any]) -> None:
        with self.path.open("a") as out:
            out.write(json.dumps(entry) + "\n")


def read_entries(path: Path) -> list[dict[str, Any]]:
    """The finished tasks of a journal file, whatever run wrote it: for comparing runs of
    different code (``bench/same_play.py``), never for going on with one."""
    return _entries(path.read_text().splitlines()[1:])


def _entries(lines: Iterable[str]) -> list[dict[str, Any]]:
    """The finished tasks among a journal's lines (a line cut short is left out)."""
    return [e for e in map(_parse, lines) if e is not None]


def _parse(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
