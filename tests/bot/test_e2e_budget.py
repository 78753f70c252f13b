"""A group's budget (20 messages a minute) is kept for moves: a write whose only news is the
UNO window closing does not take the slot the next move needs (services/bot/README.md
"Rendering", 6), and one person's flood of commands and presses delays no other chat
("Flood limits"). Against the local Telegram with the real engine, worker and bot."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis

from harness.players import callbacks
from services.bot.ratelimit import GROUP, PREFIX
from services.presentation.callbacks import Kind
from tests.helpers.bot_scenes import deal, open_lobby


@pytest.fixture(scope="module")
def budget_stack(stack: Any) -> Any:
    """This module's stack with its bot on Telegram's own group and private budgets and the
    per-person cooldown's own numbers (the other tests' bots have them lifted so games run
    at a test's pace)."""
    only_bot(stack, "bot-budget", BUDGET)
    return stack


#: Telegram's own group and private budgets and the per-person cooldown's own numbers.
BUDGET = {
    "UNO_BOT_GROUP_MESSAGES_PER_MINUTE": "20",
    "UNO_BOT_PRIVATE_MESSAGES_PER_SECOND": "1",
    "UNO_BOT_USER_UPDATES_PER_SECOND": "2",
    "UNO_BOT_USER_UPDATE_BURST": "8",
}


def only_bot(stack: Any, name: str, env: dict[str, str]) -> None:
    """The stack's bot replicas stopped, and one started with ``env``."""
    for bot in stack.bots:
        bot.stop()
    stack.bots.clear()
    stack.start_bot(name, **env)


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
    # The group's next slot is 10 s away, as if the chat had just spent its budget.
    client = redis.Redis.from_url(stack.redis_url)
    _, tolerance = GROUP.args()
    set_group_bucket(client, stack.token, scene.group.id, tolerance + 10_000)
    client.close()
    assert not scene.press(0, "p.R1")["text"]
    # While the table waits for its slot, from the inline hand (it asks the engine; the
    # private hand waits with the table).
    scene.choose_inline(1, "p.R7")
    shown = scene.players.wait_table("both moves", lambda m: "🟥 7" in m["text"], timeout=90)
    # One edit carried both: the render took its slot first and rendered after the wait.
    assert len(shown["history"]) == edits + 1, [h["text"] for h in shown["history"][edits:]]
    assert "🟥 1" in shown["text"]


#: The bidi isolates around names and cards, left out to compare words.
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))


def test_a_private_hand_never_shows_a_state_the_table_has_not(
    budget_stack: Any, make_group: Any
) -> None:
    """While the table waits for the group's budget, the next player's private hand waits
    with it: it never says "your turn" while the table still names the player before."""
    stack = budget_stack
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "R7 B2 B3"], "discard": "R3"})
    scene.table()
    scene.open_hand(0)
    scene.open_hand(1)
    next_player = scene.person(1)["id"]
    client = redis.Redis.from_url(stack.redis_url)
    _, tolerance = GROUP.args()
    set_group_bucket(client, stack.token, scene.group.id, tolerance + 10_000)
    client.close()
    assert not scene.press(0, "p.R1")["text"]
    scene.players.wait_hand(next_player, lambda m: "your turn" in m["text"], "P1's turn", 90)
    table = scene.players.table()
    assert table is not None
    assert table["text"].translate(ISOLATES).startswith("▶ P1"), table["text"]


def test_a_table_write_that_carries_two_moves_tells_both_whole(
    budget_stack: Any, make_group: Any
) -> None:
    """Two moves with two lines each (a +2 and the draw it forced), chosen from the inline
    hand while the table waits for its slot, go out in one write: it tells both cards, not
    only the last three lines (the first card would be told by no table at all)."""
    stack = budget_stack
    scene = deal(stack, make_group(2), {"hands": ["R+2 B+2 G1 G2", "Y1 Y2 Y3"], "discard": "R3"})
    scene.table()
    client = redis.Redis.from_url(stack.redis_url)
    _, tolerance = GROUP.args()
    set_group_bucket(client, stack.token, scene.group.id, tolerance + 10_000)
    client.close()
    scene.choose_inline(0, "p.R+2")  # P1 draws two and is skipped: P0 plays again
    scene.choose_inline(0, "p.B+2")  # while the table waits for its slot
    shown = scene.players.wait_table("both moves", lambda m: "🟦 +2" in m["text"], timeout=90)
    told = shown["text"].translate(ISOLATES).split("\n")[-1]  # the last moves' line
    assert "P0 played 🟥 +2" in told and "P0 played 🟦 +2" in told, told
    assert told.count("P1 drew 2") == 2, told


SLOW_DOWN = "Slow down: too many presses at once."


def test_one_persons_flood_delays_no_other_group(budget_stack: Any, make_group: Any) -> None:
    """100 /help and 100 stale presses on their own hand from one person, at once: another
    group's press is answered and its table shows the move; the flood is answered with one
    "Slow down" toast (the rest of it goes unanswered), the person's chats get no more than
    their budgets, and no unchanged hand is edited."""
    stack, control = budget_stack, budget_stack.control
    hands = {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"}
    others = deal(stack, make_group(2), hands)
    others.open_hand(0)
    flooded = deal(stack, make_group(2), hands)
    flooder = flooded.person(0)["id"]
    flooded.open_hand(0)
    stale = flooded.act_button(flooded.hand_offers(0, "p.R2"), "p.R2")
    assert not flooded.press(0, "p.R1")["text"]
    flooded.players.wait_table("the flooder's move", lambda m: "P0 2" in m["text"])
    hand = flooded.players.hand(flooder)
    assert hand is not None
    since = control.calls(token=stack.token)[-1]["seq"]

    def command(_: int) -> None:
        control.send_message(flooder, flooded.group.id, "/help")

    def press(_: int) -> str:
        answer = control.press_button(
            flooder, stack.bot_id, hand["message_id"], stale.encode(), forged=True, timeout=5
        )
        return str(answer["text"] or "")

    with ThreadPoolExecutor(max_workers=100) as pool:
        commands = pool.map(command, range(100))
        presses = pool.map(press, range(100))
        # Meanwhile, in the other group: a move, answered, and shown.
        assert not others.press(0, "p.R1")["text"]
        others.players.wait_table("the other group's move", lambda m: "P0 2" in m["text"])
        list(commands)
        answers = list(presses)
    assert answers.count(SLOW_DOWN) == 1, answers
    calls = [c for c in control.calls(token=stack.token, since=since) if c.get("ok") is not None]
    in_group = [
        c for c in calls if c.get("chat_id") == flooded.group.id and c["method"] != "getChatMember"
    ]
    assert len(in_group) <= 20, [c["method"] for c in in_group]
    private = [c for c in calls if c.get("chat_id") == flooder]
    assert not [c for c in private if "not modified" in (c.get("description") or "")]


#: The Bot API calls that spend a group's slot in these tests.
WRITES = ("sendMessage", "editMessageText", "deleteMessages")


def test_a_join_right_after_the_lobbys_post_takes_the_first_free_slot(
    budget_stack: Any, make_group: Any
) -> None:
    """services/bot/README.md "Rendering", 6: a lobby's change is not held for a slot with
    one more free after it, as a lone move's table is. At 4 group writes a minute (a slot
    every 15 s, two at once after a quiet spell) the variant question and the lobby spend
    the burst; a join pressed at once is shown at the next slot, 15 s after the question
    (held, it went 20.2 s after it)."""
    stack = budget_stack
    only_bot(stack, "bot-lobby-pace", {**BUDGET, "UNO_BOT_GROUP_MESSAGES_PER_MINUTE": "4"})
    try:
        group = make_group(2)
        since = stack.control.calls(token=stack.token)[-1]["seq"]
        open_lobby(stack, group)

        def lobby_having(name: str) -> dict[str, Any] | None:
            for m in reversed(group.players.bot_messages()):
                joins = [cb for cb in callbacks(m) if cb.kind is Kind.LOBBY and cb.arg == "join"]
                if joins and name in m.get("text", ""):
                    return m
            return None

        lobby = stack.control.wait_until(lambda: lobby_having("P0"), timeout=60, what="lobby")
        join = next(cb for cb in callbacks(lobby) if cb.kind is Kind.LOBBY and cb.arg == "join")
        group.players.press(group.people[1]["id"], lobby, join)
        stack.control.wait_until(lambda: lobby_having("P1"), timeout=120, what="P1 in the lobby")
        writes = [
            c
            for c in stack.control.calls(token=stack.token, since=since)
            if c.get("chat_id") == group.id and c.get("ok") and c["method"] in WRITES
        ]
        question, joined = writes[0], writes[-1]
        assert question["method"] == "sendMessage" and "P1" in joined["params"]["text"], writes
        # the first free slot, 15 s after the question, not the held write's 20 s
        assert joined["time"] - question["time"] < 17.5, [c["time"] for c in writes]
    finally:
        only_bot(stack, "bot-budget", BUDGET)
