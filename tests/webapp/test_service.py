"""The Mini App service over real HTTP against the real engine and the local Telegram:
who may see what (a hand only for its own seated player; spectators the table; outsiders
and forged or stale launches nothing), the stream resumed by version after a reconnect and
after a replica is killed, and a move applied once however many ways it arrives."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import redis as sync_redis

from harness.services import ENGINE_TOKEN
from services.engine.client import EngineClient
from services.language_preferences import CHOICE_KEY
from services.move_ids import action_id
from services.presentation.i18n import gettext
from tests.helpers.chat_text import plain_text
from tests.helpers.webapp import APP_NAME, Deal, start_webapp
from tests.helpers.webapp_stream import stream_ticket, table_stream


async def post_move(
    base: str, game_id: str, init_data: str, body: dict[str, Any]
) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base, timeout=20) as client:
        return await client.post(
            f"/v1/games/{game_id}/moves", json=body, headers={"Authorization": f"tma {init_data}"}
        )


async def open_stream(base: str, game_id: str, init_data: str) -> httpx.Response:
    """The page's first step to the stream: its launch traded for a ticket, or refused."""
    return await stream_ticket(base, game_id, init_data)


def test_a_player_sees_their_hand_and_a_spectator_the_table_only(deal: Deal) -> None:
    stack, gid = deal.stack, deal.game_id

    async def run() -> None:
        async with table_stream(stack.url(), gid, stack.launch("Ann", gid)) as ann:
            table = await ann.table()
            assert table["seat"] == 0 and table["view"]["hand"] == ["R5", "R6", "B9", "G1"]
            assert "p.R5" in table["view"]["legal"] and table["view"]["top"] == "R3"
        async with table_stream(stack.url(), gid, stack.launch("Sam", gid)) as sam:
            table = await sam.table()
            assert table["seat"] is None
            assert table["view"]["hand"] == [] and table["view"]["legal"] == []
            assert [s["cards"] for s in table["view"]["seats"]] == [4, 4]
        # Bob's stream (seat 1) never carries Ann's cards
        async with table_stream(stack.url(), gid, stack.launch("Bob", gid)) as bob:
            table = await bob.table()
            assert table["view"]["hand"] == ["R7", "G7", "G8", "Y2"]
            assert "R5" not in str(table["view"]["hand"])

    asyncio.run(run())


def test_forged_stale_and_foreign_launches_are_refused(deal: Deal) -> None:
    stack, gid = deal.stack, deal.game_id

    async def run() -> None:
        base = stack.url()
        cases = {
            "bad_hash": stack.signed("Ann", token="1:another-bots-token"),
            "expired": stack.signed("Ann", auth_date=time.time() - 2 * 86_400),
        }
        for code, init_data in cases.items():
            response = await open_stream(base, gid, init_data)
            assert response.status_code == 401 and code in response.json()["message"]
            moved = await post_move(base, gid, init_data, {"action": "p.R5", "version": 1})
            assert moved.status_code == 401
        # a valid launch (e.g. from the menu button) asking for a game of a chat not theirs
        outsider = await open_stream(base, gid, stack.signed("Out"))
        assert outsider.status_code == 403 and outsider.json()["error"] == "not_in_chat"
        unknown = await open_stream(base, "nosuchgame00", stack.launch("Ann", gid))
        assert unknown.status_code == 404
        # another user's id in the body is not taken: the body names no one
        body = {
            "action": "p.R5",
            "version": deal.game.version,
            "user_id": stack.people["Bob"]["id"],
        }
        assert (await post_move(base, gid, stack.launch("Ann", gid), body)).status_code == 422
        # a spectator may not move; a player may not move another's seat
        spectator = await post_move(
            base, gid, stack.launch("Sam", gid), {"action": "d", "version": deal.game.version}
        )
        assert spectator.status_code == 403 and spectator.json()["error"] == "not_seated"
        not_bobs_turn = await post_move(
            base, gid, stack.launch("Bob", gid), {"action": "p.R7", "version": deal.game.version}
        )
        assert not_bobs_turn.status_code == 422 and not_bobs_turn.json()["error"] == "illegal"
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            assert (await engine.game(gid)).version == deal.game.version  # nothing applied

    asyncio.run(run())


def test_the_same_decision_from_the_app_and_the_chat_is_applied_once(deal: Deal) -> None:
    stack, gid, version = deal.stack, deal.game_id, deal.game.version
    ann = stack.people["Ann"]["id"]

    async def run() -> None:
        init_data = stack.launch("Ann", gid)
        first = await post_move(stack.url(), gid, init_data, {"action": "p.R5", "version": version})
        assert first.status_code == 200 and first.json() == {
            "version": version + 1,
            "duplicate": False,
        }
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            # the chat's button (and the inline hand) send the bot's action id for the press
            chat = await engine.act(
                gid, ann, "p.R5", version=version, action_id=action_id(ann, version, "p.R5")
            )
            assert chat.duplicate and chat.version == version + 1
            again = await post_move(
                stack.url(), gid, init_data, {"action": "p.R5", "version": version}
            )
            assert again.status_code == 200 and again.json()["duplicate"] is True
            view = await engine.view(gid, ann)
            assert view.game.version == version + 1 and view.view is not None
            assert view.view.hand == ["R6", "B9", "G1"] and view.view.top == "R5"
        # another move at the old version is stale, not applied
        stale = await post_move(stack.url(), gid, init_data, {"action": "p.R6", "version": version})
        assert stale.status_code == 409 and stale.json()["current_version"] == version + 1

    asyncio.run(run())


def test_a_reconnect_resumes_from_its_version_and_misses_nothing(deal: Deal) -> None:
    stack, gid, version = deal.stack, deal.game_id, deal.game.version

    async def run() -> None:
        sam = stack.launch("Sam", gid)
        async with table_stream(stack.url(), gid, sam) as stream:
            seen = (await stream.table())["version"]
            assert seen == version
        # while Sam is away, Ann and Bob move
        played = await post_move(
            stack.url(), gid, stack.launch("Ann", gid), {"action": "p.R5", "version": version}
        )
        bob = await post_move(
            stack.url(), gid, stack.launch("Bob", gid), {"action": "p.R7", "version": version + 1}
        )
        assert played.status_code == bob.status_code == 200
        async with table_stream(stack.url(), gid, sam, last_id=seen) as stream:
            table = await stream.table()
            plays = [e["event"]["card"] for e in table["events"] if e["event"]["type"] == "played"]
            assert plays == ["R5", "R7"] and table["version"] == version + 2
            assert all(e["version"] > seen for e in table["events"])
            assert not any("to" in e["event"] for e in table["events"])  # no private event
            # live from here: Ann's next move arrives on the open stream
            await post_move(
                stack.url(),
                gid,
                stack.launch("Ann", gid),
                {"action": "p.R6", "version": version + 2},
            )
            live = await stream.table(at_least=version + 3)
            assert [
                e["event"].get("card") for e in live["events"] if e["event"]["type"] == "played"
            ] == ["R6"]

    asyncio.run(run())


def test_a_replica_killed_costs_its_viewers_a_reconnect_not_an_update(deal: Deal) -> None:
    stack, gid, version = deal.stack, deal.game_id, deal.game.version
    if len(stack.replicas) < 2:
        stack.replicas.append(start_webapp(stack, "webapp-b"))

    async def run() -> None:
        sam = stack.launch("Sam", gid)
        async with table_stream(stack.url(1), gid, sam) as stream:
            seen = (await stream.table())["version"]
            stack.replicas[1].kill()
            try:
                while True:
                    await stream.next_event()
            except (httpx.HTTPError, EOFError):
                pass  # the replica is gone: the stream ends
        await post_move(
            stack.url(0), gid, stack.launch("Ann", gid), {"action": "p.R5", "version": version}
        )
        async with table_stream(stack.url(0), gid, sam, last_id=seen) as stream:
            table = await stream.table()
            assert table["version"] == version + 1
            assert [
                e["event"].get("card") for e in table["events"] if e["event"]["type"] == "played"
            ] == ["R5"]

    try:
        asyncio.run(run())
    finally:
        stack.replicas[1].start_again()


def test_a_flood_from_one_person_is_refused_and_others_play_on(deal: Deal) -> None:
    stack, gid, version = deal.stack, deal.game_id, deal.game.version

    async def run() -> None:
        ann = stack.launch("Ann", gid)
        async with table_stream(stack.url(), gid, stack.launch("Bob", gid)) as bob:
            assert (await bob.table())["version"] == version
            move = {"action": "p.R5", "version": version}
            answers = await asyncio.gather(
                *(post_move(stack.url(), gid, ann, move) for _ in range(20))
            )
            codes = sorted(a.status_code for a in answers)
            assert 429 in codes and codes.count(200) >= 1
            slow = next(a for a in answers if a.status_code == 429).json()
            assert slow["error"] == "slow_down" and slow["retry_after_ms"] > 0
            assert (
                sum(1 for a in answers if a.status_code == 200 and not a.json()["duplicate"]) == 1
            )
            table = await bob.table(at_least=version + 1)
            assert table["version"] == version + 1 and table["view"]["seats"][0]["cards"] == 3
            # Bob, whose own budget is whole, moves at once
            moved = await post_move(
                stack.url(),
                gid,
                stack.launch("Bob", gid),
                {"action": "p.R7", "version": version + 1},
            )
            assert moved.status_code == 200

    asyncio.run(run())


def test_each_viewer_reads_the_table_in_the_language_the_bot_speaks_to_them(deal: Deal) -> None:
    """The table's words are the chat's own (the hand's labels, the event lines), in each
    viewer's language: their Telegram app's (Bob's Persian), or the one they chose with
    /language (Sam's Gujarati), kept where the bot keeps it."""
    stack, gid = deal.stack, deal.game_id
    choice = CHOICE_KEY.format(user_id=stack.people["Sam"]["id"])
    client = sync_redis.Redis.from_url(stack.redis_url)
    client.set(choice, "gu")

    async def run() -> None:
        moved = await post_move(
            stack.url(),
            gid,
            stack.launch("Ann", gid),
            {"action": "d", "version": deal.game.version},
        )
        assert moved.status_code == 200, moved.text
        async with table_stream(stack.url(), gid, stack.launch("Ann", gid)) as ann:
            words = (await ann.table())["words"]
            assert words["lang"] == "en" and words["dir"] == "ltr"
            assert plain_text(words["lines"][-1]) == "Ann drew 1"
            # the yellow 1 drawn does not go on the red 3: Bob's turn, nothing Ann owes
            assert words["actions"] == {} and words["why"] == ""
            assert words["cards"]["R3"] == {"name": "Red 3", "label": "🟥 3"}
            assert words["cards"]["Y1"]["label"] == "🟨 1"
        async with table_stream(stack.url(), gid, stack.launch("Bob", gid)) as bob:
            words = (await bob.table())["words"]
            assert words["lang"] == "fa" and words["dir"] == "rtl"
            line = plain_text(words["lines"][-1])
            assert line != "Ann drew 1" and "Ann" in line
            assert plain_text(words["actions"]["d"]) == "📥 " + gettext("fa", "Draw")
            assert plain_text(words["why"]) == gettext("fa", "your turn")
        async with table_stream(stack.url(), gid, stack.launch("Sam", gid)) as sam:
            table = await sam.table()
            assert table["seat"] is None and table["words"]["lang"] == "gu"
            assert table["words"]["cards"]["R3"]["name"] != "Red 3"

    try:
        asyncio.run(run())
    finally:
        client.delete(choice)
        client.close()


def test_a_spectator_who_leaves_the_group_stops_seeing_the_table(deal: Deal) -> None:
    """Whether a spectator may watch is Telegram's to say: asked again once the replica's
    answer is older than ``UNO_WEBAPP_MEMBER_CACHE_SECONDS`` (none, on this replica), at the
    next table; gone from the group, Sam's stream ends with why."""
    stack, gid, version = deal.stack, deal.game_id, deal.game.version
    control, group, sam_id = stack.telegram.control, stack.group, stack.people["Sam"]["id"]
    uncached = start_webapp(stack, "webapp-uncached", UNO_WEBAPP_MEMBER_CACHE_SECONDS="0")

    async def run() -> None:
        sam = stack.launch("Sam", gid)
        async with table_stream(uncached.url, gid, sam) as stream:
            assert (await stream.table())["seat"] is None
            await asyncio.to_thread(control.remove_member, group["id"], sam_id)
            moved = await post_move(
                uncached.url, gid, stack.launch("Ann", gid), {"action": "p.R5", "version": version}
            )
            assert moved.status_code == 200
            kind, data = await stream.next_event()
            assert kind == "removed", (kind, data)
            assert data == {
                "reason": "not_in_chat",
                "words": gettext("en", "You left this game's group"),
            }

    try:
        asyncio.run(run())
    finally:
        control.add_member(group["id"], sam_id)
        uncached.stop()
        # the app's registered address back to the first replica, which the others open
        control.register_web_app(stack.token, APP_NAME, f"{stack.url(0)}/")


def test_each_table_carries_the_turns_deadline_and_the_servers_time(deal: Deal) -> None:
    """RULES.md §7 "Timing in a chat": the page counts to the engine's deadline, so each
    table says when it is (by the server's clock, with that clock's time as the table
    left); an ended game owes nothing and has none."""
    stack, gid = deal.stack, deal.game_id

    async def run() -> None:
        async with table_stream(stack.url(), gid, stack.launch("Ann", gid)) as ann:
            table = await ann.table()
            assert 0 < table["deadline"] - table["now"] <= deal.game.turn_seconds * 1000
            async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
                await engine.end(gid, stack.people["Ann"]["id"])
            ended = await ann.table(at_least=table["version"] + 1)
            assert ended["deadline"] is None and isinstance(ended["now"], int)
            assert ended["words"]["game_over"].startswith(gettext("en", "The game was ended."))

    asyncio.run(run())


def test_each_table_carries_the_fingerprint_of_the_rounds_commitment(deal: Deal) -> None:
    """RULES.md §2 "Checking a deal": the page is given what the chat's table shows of the
    round's commitment (``commitment_fingerprint``, and its words), never the seed."""
    stack, gid = deal.stack, deal.game_id

    async def run() -> None:
        async with table_stream(stack.url(), gid, stack.launch("Ann", gid)) as ann:
            table = await ann.table()
        commitment = table["view"]["deal_commitment"]
        assert len(commitment) == 64
        assert table["commitment_fingerprint"] == commitment[:8]
        assert commitment[:8] in table["words"]["fingerprint"]

    asyncio.run(run())
