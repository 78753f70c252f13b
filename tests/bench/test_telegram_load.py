"""bench/telegram_load.py's measuring on two games, so the bench can't rot: the real local
Telegram, engine, worker and bot, a few paced moves, and every figure the table prints
taken from them. Nothing is asserted on speed; only that each figure was measured."""

from __future__ import annotations

import asyncio
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import telegram_load


@pytest.mark.slow
def test_a_steady_run_measures_every_figure(
    redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """One game played from the inline hand, one from the private hands."""
    # Telegram's limits are on: the pace stays under a group's 20 messages a minute.
    window = asyncio.run(
        telegram_load.steady("mixed", games=2, pace=3.0, seconds=9.0, redis_url=redis_url)
    )
    assert window.games == 2
    assert window.turns > 0
    assert len(window.latencies) == window.turns
    assert all(lag > 0 for lag in window.latencies)
    assert window.group_calls > 0 and window.polls > 0
    # Both ways were played: private hands edited, inline queries answered.
    assert window.private_calls > 0 and window.answer_calls > 0
    assert window.cpu["bot"] > 0 and window.cpu["engine"] > 0 and window.cpu["telegram"] > 0
    assert window.cpu["bench"] > 0
    assert {"game", "moves", "rate"} <= set(window.redis_kinds)
    assert window.redis_bytes == sum(
        size
        for kind, size in window.redis_kinds.items()
        if kind not in telegram_load.PER_RATE_KINDS
    )
    # Each turn split at the engine's log entry for its move: both halves, adding up.
    assert window.splits and all(a >= 0 and b >= 0 for a, b in window.splits)
    assert max(a + b for a, b in window.splits) <= max(window.latencies) + 0.002
    assert not math.isnan(window.render_lag)
    # The private game's next movers saw their hands; the table's place was read each turn.
    assert window.hand_latencies and all(lag > 0 for lag in window.hand_latencies)
    assert window.in_view
    telegram_load.print_steady([window], 3.0)
    telegram_load.print_steady([window], 3.0, brisk=True)
    printed = capsys.readouterr().out
    assert "group calls per turn" in printed and "press → table p99" in printed
    assert "private hand p50 / p99" in printed and "≤ 1100 ms" in printed
    assert "log entry → table (bot's render) p50 / p99" in printed


def test_the_table_names_who_owes_and_the_move_in_words() -> None:
    """The two readings of the bot's table the bench relies on (the first the harness's)."""
    from harness.feed import owing_user
    from services.engine.client import GameInfo

    game = GameInfo.model_validate(
        {
            "game_id": "g" * 12,
            "version": 3,
            "status": "playing",
            "chat_id": -1,
            "topic_id": 0,
            "host": 11,
            "variant": "classic",
            "turn_seconds": 60,
            "rules": {},
            "seats": [
                {"seat": 0, "name": "Ann", "user_id": 11},
                {"seat": 1, "name": "Bob", "user_id": 12},
            ],
        }
    )
    text = 'top\n▶ <a href="tg://user?id=12">Bob</a> · to play · ⏱ 60s\nseats'
    assert owing_user(text) == 12
    assert owing_user("no one owes") is None
    line = telegram_load.move_line(game, 1, "p.R5")
    assert line is not None and "Bob" in line and "played" in line
    assert telegram_load.move_line(game, 1, "ch") is None
