"""Faults and deployment shapes through the local Telegram: the bot killed and restarted
mid-game, the engine down, two replicas behind a webhook (secret checked, a duplicate
update ignored, Telegram's limits kept: no 429), a forum topic, one person in two groups."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import httpx

from harness.players import is_table
from harness.processes import REPO, free_port
from harness.services import start_bot
from tests.helpers.bot_scenes import deal


def engine_act(stack: Any, game_id: str, user_id: int, code: str) -> None:
    async def act() -> None:
        async with stack.engine_client() as engine:
            player = await engine.view(game_id, user_id)
            assert player.view is not None
            await engine.act(
                game_id, user_id, code, version=player.view.version, action_id=f"t-{code}"
            )

    asyncio.run(act())


def test_bot_killed_and_restarted_mid_game(stack: Any, make_group: Any) -> None:
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    scene.open_hand(0)
    scene.open_hand(1)
    scene.press(0, "p.R1")
    scene.players.wait_table("P0 played", lambda m: "P0 2" in m["text"])
    bot = stack.bots[0]
    bot.kill()
    # While no bot runs, P1 moves (through the engine, as another replica would).
    engine_act(stack, scene.game.game_id, scene.person(1)["id"], "d")
    bot.start_again()
    scene.players.wait_table("P1's draw shown", lambda m: "P1 4" in m["text"])
    assert not scene.press(1, "k")["text"]
    scene.hand_offers(0, "p.R2")
    assert not scene.press(0, "p.R2")["text"]
    scene.players.wait_table("P0 at one card", lambda m: "P0 1" in m["text"])
    # Nothing was shown twice: one table message, one hand message each.
    tables = [m for m in scene.players.bot_messages() if is_table(m["text"])]
    assert len(tables) == 1


def test_a_timeout_is_taken_over_by_the_stand_in(stack: Any, make_group: Any) -> None:
    """RULES.md §7: the turn time passes and the stand-in plays; the table says so."""
    scene = deal(
        stack, make_group(2), {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"}, turn_seconds=5
    )
    scene.wait_group("is out of time", timeout=40)
    scene.players.wait_table("P0 moved", lambda m: "P0 3" not in m["text"])


def test_the_table_is_posted_again_when_scrolled_away(stack: Any, make_group: Any) -> None:
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    first = scene.table()
    for n in range(15):
        stack.control.send_message(scene.person(1)["id"], scene.group.id, f"chat {n}")
    scene.open_hand(0)
    scene.press(0, "p.R1")
    table = scene.players.wait_table(
        "a new table", lambda m: m["message_id"] != first["message_id"]
    )
    assert "P0 2" in table["text"]
    # The table it replaced is deleted once the group's budget has a slot to spare.
    stack.control.wait_until(
        lambda: (
            [
                m["deleted"]
                for m in stack.control.messages(scene.group.id)
                if m["message_id"] == first["message_id"]
            ]
            == [True]
        ),
        timeout=30,
        what="the superseded table deleted",
    )


def test_engine_down_asks_to_try_again_then_moves_once(stack: Any, make_group: Any) -> None:
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    scene.open_hand(0)
    hand = scene.hand_offers(0, "p.R1")
    stack.engine.kill()
    try:
        answer = scene.players.press_hand(
            scene.person(0)["id"], hand, scene.act_button(hand, "p.R1")
        )
        assert "try again" in answer["text"]
    finally:
        stack.engine.start_again()
    answer = scene.players.press_hand(scene.person(0)["id"], hand, scene.act_button(hand, "p.R1"))
    assert not answer["text"]
    scene.players.wait_table("P0 played once", lambda m: "P0 2" in m["text"])
    assert scene.group_text().count("played 🟥 1") == 1


def test_forum_topic_game_stays_in_its_topic(stack: Any, make_group: Any) -> None:
    group = make_group(2, forum=True, title="Forum")
    control = stack.control
    topic = control.create_topic(group.id, "UNO corner")
    scene = deal(stack, group, {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"}, topic=topic)
    table = scene.players.wait_table("the table in the topic", lambda m: True, thread_id=topic)
    assert table["message_thread_id"] == topic
    scene.open_hand(0)
    scene.press(0, "p.R1")
    scene.players.wait_table("moved", lambda m: "P0 2" in m["text"], thread_id=topic)
    general = [m for m in scene.players.bot_messages() if m.get("message_thread_id") != topic]
    assert not general


def test_one_person_in_two_groups(stack: Any, make_group: Any) -> None:
    first = make_group(2, title="Office")
    second = make_group(1, title="Family")
    control, ana = stack.control, first.people[0]
    control.add_member(second.id, ana["id"])
    second.people.append(ana)
    one = deal(stack, first, {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    two = deal(stack, second, {"hands": ["G1 G2", "Y5 Y6 Y7"], "discard": "Y3", "current": 1})
    one.open_hand(0)
    two.open_hand(1)
    hands = [
        m for m in control.private_messages(ana["id"], stack.token) if m["text"].startswith("UNO")
    ]
    assert {"Office", "Family"} <= {
        w for m in hands for w in ("Office", "Family") if w in m["text"]
    }
    # Inline mode, tagged with each game, shows that game's hand.
    for scene, first_play in ((one, "p.R1"), (two, "p.Y5")):
        found = control.inline_query(ana["id"], scene.game.game_id, chat_id=scene.group.id)
        ids = [r["id"] for r in found["results"]]
        assert any(first_play in i and scene.game.game_id in i for i in ids)


def test_two_replicas_behind_a_webhook(stack: Any, make_group: Any) -> None:
    control = stack.control
    polling = stack.bots[0]
    polling.stop()
    control.set_limits(True)
    replicas = []
    try:
        port = free_port()
        hook = {
            "UNO_BOT_WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram",
            "UNO_BOT_WEBHOOK_SECRET": "s3cret-token",
        }
        limits = {  # Telegram's own numbers, kept for the token by the replicas together
            "UNO_BOT_GROUP_MESSAGES_PER_MINUTE": "20",
            "UNO_BOT_PRIVATE_MESSAGES_PER_SECOND": "1",
            "UNO_BOT_MESSAGES_PER_SECOND": "30",
        }
        for name, http_port in (("hook-a", port), ("hook-b", free_port())):
            replicas.append(
                start_bot(
                    name,
                    stack.redis_url,
                    stack.engine_url,
                    stack.bot_api_url,
                    stack.token,
                    stack.log_dir,
                    UNO_BOT_HTTP_PORT=str(http_port),
                    **hook,
                    **limits,
                )
            )
        deploy = subprocess.run(
            [sys.executable, "-m", "services.deploy.set_webhook"],
            cwd=REPO, env=replicas[0].env, capture_output=True, timeout=60,
        )  # fmt: skip
        assert deploy.returncode == 0, deploy.stderr
        since = len(control.calls(token=stack.token))
        scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
        scene.open_hand(0)
        scene.open_hand(1)
        scene.press(0, "p.R1")
        scene.press(1, "d")
        scene.press(1, "k")
        scene.press(0, "p.R2")
        scene.players.wait_table(
            "four moves", lambda m: "P0 1" in m["text"] and "P1 4" in m["text"]
        )
        calls = control.calls(token=stack.token, since=since)
        assert not [c for c in calls if c.get("error_code") == 429]
        # The secret is checked, and an update seen by one replica is dropped by the other.
        said = control.send_message(scene.person(0)["id"], scene.group.id, "what are the rules?")
        update = {
            "update_id": 987654321,
            "message": {
                "message_id": said["message_id"], "date": 1, "text": "/rules",
                "chat": {"id": scene.group.id, "type": "supergroup", "title": "Friday UNO"},
                "from": {"id": scene.person(0)["id"], "is_bot": False, "first_name": "P0"},
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
            },
        }  # fmt: skip
        urls = [f"http://127.0.0.1:{r.env['UNO_BOT_HTTP_PORT']}/telegram" for r in replicas]
        wrong = httpx.post(urls[1], json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "x"})
        assert wrong.status_code == 403
        secret = {"X-Telegram-Bot-Api-Secret-Token": "s3cret-token"}
        answers = [httpx.post(url, json=update, headers=secret).json() for url in urls]
        assert [a.get("duplicate", False) for a in answers] == [False, True]
        scene.stack.control.wait_until(
            lambda: "📖" in scene.group_text(), what="the rules answered once"
        )
        assert scene.group_text().count("📖") == 1
        for replica in replicas:
            metrics = httpx.get(f"http://127.0.0.1:{replica.env['UNO_BOT_METRICS_PORT']}/metrics")
            assert "uno_bot_api_calls_total" in metrics.text
    finally:
        for replica in replicas:
            replica.stop()
        control.set_limits(False)
        polling.start_again()
