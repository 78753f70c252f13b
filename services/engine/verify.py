"""Check a game's export: ``python -m services.engine.verify FILE`` (``-`` reads stdin).

Re-deals each round from its seed with the open-source rules, checks the seed against the
commitment the table showed during the round, and replays every move through the rules
(game_export.replay). Prints the verdict; exits 0 when the export holds, 1 when it parts
from the rules (saying at which round or move), 2 when the file cannot be read as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from services.engine.game_export import Divergence, replay


def _read(path: str) -> Any:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m services.engine.verify", description="Check a game's export."
    )
    parser.add_argument("file", help="the export (JSON; - for stdin)")
    args = parser.parse_args(argv)
    try:
        export = _read(args.file)
    except (OSError, ValueError) as e:
        print(f"cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    try:
        replayed = replay(export)
    except Divergence as e:
        print(f"NOT VALID: {e}")
        return 1
    rounds = len(export["rounds"])
    moves = sum(len(r["moves"]) for r in export["rounds"])
    print(
        f"VALID: {rounds} round(s), {moves} move(s) replayed; every seed matches its "
        f"commitment; winner seat {replayed.state.winner}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
