"""Golden transcripts: one whole seeded 3-player game per variant, written out by
``services.engine.rules.transcript.play_transcript`` and compared with the checked-in text
in ``golden/<variant>.txt``.  Any change to the rules, the RNG use or the rendering shows up
here as a readable diff.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 .venv/bin/pytest
tests/engine/rules/test_golden.py`` and review the diff before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from services.engine.rules import VARIANTS
from services.engine.rules.transcript import play_transcript

GOLDEN = Path(__file__).parent / "golden"
PLAYERS = ["Ana", "Ben", "Cy"]
SEED = 2024


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_golden_transcript(variant: str) -> None:
    """The seeded game of ``variant`` plays out exactly as recorded."""
    text = play_transcript(variant, PLAYERS, SEED)
    path = GOLDEN / f"{variant}.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(
            f"no golden transcript for {variant!r} yet: create {path} with "
            "`UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/rules/test_golden.py "
            f"-k {variant}`, read it through, and commit it"
        )
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), "golden", "now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:80])
        pytest.fail(
            f"{variant} transcript differs from {path.name} (first lines of the diff below); "
            f"if the change is intended, regenerate with UPDATE_GOLDEN=1\n{shown}"
        )


def test_golden_transcript_is_deterministic() -> None:
    assert play_transcript("classic", PLAYERS, SEED) == play_transcript("classic", PLAYERS, SEED)


def test_golden_transcript_hides_other_hands_until_the_round_ends() -> None:
    """A transcript's spectator lines never name a card in a hand; each player's private
    line shows only their own."""
    text = play_transcript("classic", PLAYERS, 7)
    for line in text.splitlines():
        if line.lstrip().startswith("= "):
            assert "hand" not in line
