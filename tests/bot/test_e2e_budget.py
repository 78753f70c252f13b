"""A group's budget (20 messages a minute) is kept for moves: a write whose only news is the
UNO window closing does not take the slot the next move needs (services/bot/README.md
"Rendering", 6). Against the local Telegram with the real engine, worker and bot."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
import redis
from scenes import deal

from services.bot.ratelimit import GROUP, PREFIX


@pytest.fixture(scope="module")
def budget_stack(stack: Any) -> Any:
    """This module's stack with its bot on Telegram's own group budget (the other tests'
    bots have theirs lifted so games run at a test's pace)."""
    for bot in stack.bots:
        bot.stop()
    stack.bots.clear()
    stack.start_bot("bot-budget", UNO_BOT_GROUP_MESSAGES_PER_MINUTE="20")
    return stack


def log_read_up(client: redis.Redis) -> bool:
    """Whether the bot's replicas have read and acknowledged every entry of the event log."""
    for key in client.scan_iter(match="uno:eventlog:*"):
        for group in client.xinfo_groups(key):
            if group["name"] in (b"bot", "bot") and (group["pending"] or group["lag"]):
                return False
    return True


def set_group_bucket(client: redis.Redis, token: str, chat_id: int, ahead_ms: int) -> None:
    """Set the chat's bucket of the bot's group budget (services/bot/ratelimit.py) to
    ``ahead_ms`` past Redis's clock, kept for two minutes."""
    seconds, micros = client.time()
    now = seconds * 1000 + micros // 1000
    client.set(f"{PREFIX}{token.split(':')[0]}:{chat_id}", now + ahead_ms, px=120_000)


def test_the_uno_window_closing_leaves_the_last_slot_to_the_next_move(
    budget_stack: Any, make_group: Any
) -> None:
    stack = budget_stack
    scene = deal(stack, make_group(2), {"hands": ["R1 R2", "B1 B2 B3"], "discard": "R3"})
    scene.open_hand(0)
    assert not scene.press(0, "p.R1")["text"]  # down to one card, UNO not called
    table = scene.players.wait_table("Catch", lambda m: "Catch" in str(m.get("reply_markup")))
    edits = len(table["history"])

    # Keep the group's bucket (services/bot/ratelimit.py) with one slot free and none
    # beyond it, as if the chat had just spent the rest: what the next move needs.
    client = redis.Redis.from_url(stack.redis_url)
    interval, tolerance = GROUP.args()
    holding = threading.Event()
    holding.set()

    def hold() -> None:
        while holding.is_set():
            set_group_bucket(client, stack.token, scene.group.id, tolerance - interval // 2)
            time.sleep(0.05)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:

        async def window_open() -> bool:
            async with stack.engine_client() as engine:
                view = await engine.spectator_view(scene.game.game_id)
            return view.view is not None and view.view.uno_window is not None

        # The worker closes the window after UNO_UNO_WINDOW_SECONDS (2 s in tests).
        stack.control.wait_until(
            lambda: not asyncio.run(window_open()), timeout=60, what="the UNO window to close"
        )
        stack.control.wait_until(
            lambda: log_read_up(client), timeout=60, what="the bot to read the close"
        )
        # The close was read and left for later: the table still shows it as it was.
        still = scene.players.table()
        assert still is not None and len(still["history"]) == edits
        assert "Catch" in str(still.get("reply_markup"))
    finally:
        holding.clear()
        holder.join()
    # Once the budget has room again, the buttons go.
    scene.players.wait_table(
        "the Catch button gone", lambda m: "Catch" not in str(m.get("reply_markup"))
    )
    client.close()


def test_moves_made_while_the_table_waits_for_its_slot_go_out_in_one_edit(
    budget_stack: Any, make_group: Any
) -> None:
    stack = budget_stack
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "R7 B2 B3"], "discard": "R3"})
    table = scene.table()
    edits = len(table["history"])
    scene.open_hand(0)
    scene.open_hand(1)
    # The group's next slot is 10 s away, as if the chat had just spent its budget.
    client = redis.Redis.from_url(stack.redis_url)
    _, tolerance = GROUP.args()
    set_group_bucket(client, stack.token, scene.group.id, tolerance + 10_000)
    client.close()
    assert not scene.press(0, "p.R1")["text"]
    assert not scene.press(1, "p.R7")["text"]  # while the table waits for its slot
    shown = scene.players.wait_table("both moves", lambda m: "🟥 7" in m["text"], timeout=90)
    # One edit carried both: the render took its slot first and rendered after the wait.
    assert len(shown["history"]) == edits + 1, [h["text"] for h in shown["history"][edits:]]
    assert "🟥 1" in shown["text"]
