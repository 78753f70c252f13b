"""The fingerprint of a round's commitment on the chat's table (RULES.md §2 "Checking a
deal"): while a round is played the table shows the first digits of the SHA-256 of its
seed, never the seed; the round's end reveals a seed that hashes to what was shown."""

from __future__ import annotations

import hashlib
import random

import orjson
import pytest

from services.engine.rules import EventType, Options, new_game
from services.engine.rules.view import view
from services.presentation.locales.catalog import LANGUAGES
from services.presentation.screens.table import FINGERPRINT_DIGITS, table
from tests.helpers.chat_text import plain_text
from tests.helpers.engine_views import engine_view, game_info
from tests.helpers.replays import play

SEED = 8_123_456_789_012_345_678


def table_text(seed: int, language: str = "en") -> str:
    state, _ = new_game("classic", ["Ana", "Bob"], Options(), seed=seed)
    return plain_text(
        table(language, game_info(state), engine_view(state, None), [], two_sided=False).text
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_shows_the_fingerprint_of_the_rounds_commitment(language: str) -> None:
    """RULES.md §2 "Checking a deal": the table shows a commitment to the seed."""
    fingerprint = hashlib.sha256(str(SEED).encode()).hexdigest()[:FINGERPRINT_DIGITS]
    shown = table_text(SEED, language)
    assert "🔒 " in shown and fingerprint in shown
    assert str(SEED) not in shown
    other = hashlib.sha256(str(SEED + 1).encode()).hexdigest()[:FINGERPRINT_DIGITS]
    assert other not in shown and other in table_text(SEED + 1, language)


def test_no_view_holds_the_seed_while_its_round_is_played() -> None:
    """RULES.md §2 "Checking a deal": a seed never leaves before its round ends."""
    state, _ = new_game("classic", ["Ana", "Bob", "Cyd"], Options(), seed=SEED)
    for seat in (None, 0, 1, 2):
        seen = orjson.dumps(view(state, seat).to_json()).decode()
        assert str(SEED) not in seen


def test_the_revealed_seed_matches_the_fingerprint_shown_all_round() -> None:
    """RULES.md §2 "Checking a deal": the round's end reveals a seed that hashes to the
    commitment the table showed while it was played."""
    game = play("classic", 3, Options(target_score=1), random.Random(7), max_moves=5000)
    ended = [e for e in game.events if e.type is EventType.ROUND_ENDED]
    assert ended, "the game ended no round"
    seed = int(ended[0].data["seed"])
    first = game.export["rounds"][0]
    assert hashlib.sha256(str(seed).encode()).hexdigest() == first["commitment"]
    assert first["commitment"][:FINGERPRINT_DIGITS] in table_text(seed)
