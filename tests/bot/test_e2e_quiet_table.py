"""The chat and the Mini App share the work, end to end (services/bot/README.md "A quiet
table"): while every seated human of a game has its table stream open, the app shows them
each move and the group's table is not written per move; it is written with the current
state as soon as one of them closes the app, at a game's start and at a round's end. A
Mini App replica that dies tells nobody: once its leases lapse, its people count as having
the app closed. A turn's reminder reaches a player whose app is closed, and none is sent to
one who has it open."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import redis

from harness.players import callbacks
from harness.services import WebAppProcess, start_webapp
from harness.stack import FAST_LIMITS, Stack, start_stack
from services.app_presence import game_key, lease_user
from services.presentation.callbacks import Kind
from tests.helpers.bot_scenes import DRAW_PILE, Group, Scene, deal, engine_game, open_lobby
from tests.helpers.webapp_stream import TableStream, table_stream

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
SHORT_NAME = "table"
#: The group's writes: what a table write (or its tidying) costs of the group's budget.
WRITES = {"sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessages"}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def app_stack(
    local_telegram: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Stack, WebAppProcess]]:
    """The stack with a Mini App replica and a bot told it; the quiet table's timer far
    beyond any test, so every write seen is one the moves or the app's closing made."""
    local_telegram.control.set_limits(False)
    log_dir = tmp_path_factory.mktemp("quiet-table")
    stack = start_stack(
        TEST_REDIS_URL,
        log_dir,
        telegram_url=local_telegram.url,
        bot_username="uno_quiet_table_bot",
        bot_env={**FAST_LIMITS, "UNO_BOT_QUIET_TABLE_SECONDS": "600"},
    )
    webapp = start_webapp(
        "webapp", TEST_REDIS_URL, stack.engine_url, stack.bot_api_url, stack.token, log_dir
    )
    stack.control.register_web_app(stack.token, SHORT_NAME, f"{webapp.url}/")
    stack.start_bot("bot-a", UNO_WEBAPP_PUBLIC_URL=f"{webapp.url}/")
    yield stack, webapp
    webapp.stop()
    stack.stop()
    local_telegram.control.set_limits(True)


def two_in_a_group(stack: Stack, setup: dict[str, Any], **deal_args: Any) -> Scene:
    control = stack.control
    people = [control.create_user(f"P{i}", username=None) for i in range(2)]
    chat = control.create_group("UNO night", [p["id"] for p in people], bots=[stack.token])
    for person in people:
        control.start_bot(person["id"], stack.token)
    group = Group(chat, people, stack.players(int(chat["id"])))
    return deal(stack, group, setup, **deal_args)


def launch(stack: Stack, scene: Scene, seat: int) -> str:
    """The initData of ``seat``'s person opening the app from the group's direct link."""
    return launch_in(stack, scene.person(seat)["id"], scene.group.id, scene.game.game_id)


def launch_in(stack: Stack, user_id: int, chat_id: int, game_id: str) -> str:
    """The initData of ``user_id`` opening ``game_id`` from its group's direct link."""
    link = f"https://t.me/{stack.username}/{SHORT_NAME}?startapp={game_id}"
    opened = stack.control.open_web_app(user_id, "direct_link", link=link, chat_id=chat_id)
    return str(opened["init_data"])


async def lobby_word(webapp: WebAppProcess, game_id: str, init_data: str, action: str) -> Any:
    """A lobby word (join, start ...) sent from the app, as the page sends it; the answer."""
    async with httpx.AsyncClient(base_url=webapp.url, timeout=30) as client:
        said = await client.post(
            f"/v1/games/{game_id}/lobby",
            json={"action": action},
            headers={"Authorization": f"tma {init_data}"},
        )
    assert said.status_code == 200, said.text
    return said.json()


def fix_first_round(stack: Stack, game_id: str, setup: dict[str, Any]) -> None:
    """The cards the lobby ``game_id`` deals at its start."""

    async def fix() -> None:
        async with stack.engine_client() as engine:
            await engine.fix_deal(game_id, setup)

    asyncio.run(fix())


async def app_move(
    webapp: WebAppProcess, game_id: str, init_data: str, action: str, version: int
) -> None:
    """A move sent from the app on the table of ``version``, as the page sends it."""
    async with httpx.AsyncClient(base_url=webapp.url, timeout=30) as client:
        moved = await client.post(
            f"/v1/games/{game_id}/moves",
            json={"action": action, "version": version},
            headers={"Authorization": f"tma {init_data}"},
        )
    assert moved.status_code == 200, moved.text


@asynccontextmanager
async def streams(
    webapp: WebAppProcess, game_id: str, *init_data: str
) -> AsyncIterator[list[TableStream]]:
    """One open table stream per initData, each past its first table (its lease taken)."""
    async with AsyncExitStack() as stack:
        opened = [
            await stack.enter_async_context(table_stream(webapp.url, game_id, i)) for i in init_data
        ]
        for stream in opened:
            await stream.table()
        yield opened


def group_writes(stack: Stack, group: Group, since: int) -> list[str]:
    return [
        c["method"]
        for c in stack.control.calls(token=stack.token, since=since)
        if c.get("chat_id") == group.id and c["method"] in WRITES and c.get("ok")
    ]


def last_call(stack: Stack) -> int:
    calls = stack.control.calls(token=stack.token)
    return int(calls[-1]["seq"]) if calls else 0


def shown_version(game_id: str) -> int:
    """The newest version the bot's renders have taken in (written or left quiet)."""
    value = redis.Redis.from_url(TEST_REDIS_URL).hget(f"bot:game:{game_id}", "shown")
    return int(value) if value else -1


def wait_shown(stack: Stack, game_id: str, version: int) -> None:
    stack.control.wait_until(
        lambda: shown_version(game_id) >= version, timeout=30, what=f"the bot past v{version}"
    )


def wait_table_saying(scene: Scene, words: str) -> dict[str, Any]:
    return scene.players.wait_table(
        f"the table saying {words!r}",
        lambda m: (
            words in m.get("text", "")
            and any(cb.game_id == scene.game.game_id for cb in callbacks(m))
        ),
    )


#: Four moves each way without a card left to call UNO on: P0 R1, P1 R4, P0 R2, P1 R6.
LONG_HANDS = {"hands": ["R1 R2 R5 G5 G6", "R4 R6 R7 B2 B3"], "discard": "R3"}
MOVES = [(0, "p.R1"), (1, "p.R4"), (0, "p.R2"), (1, "p.R6")]


def test_the_table_rests_while_everyone_follows_in_the_app_and_is_written_when_one_leaves(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    stack, webapp = app_stack
    scene = two_in_a_group(stack, LONG_HANDS, turn_seconds=300)
    game_id = scene.game.game_id
    scene.table()
    init = [launch(stack, scene, 0), launch(stack, scene, 1)]

    async def run() -> None:
        async with streams(webapp, game_id, init[0]) as (mine,):
            async with streams(webapp, game_id, init[1]):
                since = last_call(stack)
                version = scene.game.version
                for seat, code in MOVES:
                    await app_move(webapp, game_id, init[seat], code, version)
                    # The app shows each move at once.
                    version = (await mine.table(at_least=version + 1))["version"]
                await asyncio.to_thread(wait_shown, stack, game_id, version)
                assert group_writes(stack, scene.group, since) == []
                closing = last_call(stack)
            # P1 closed the app: the chat's table shows the game as it is, in one write.
            await asyncio.to_thread(wait_table_saying, scene, "P0 3 · P1 3")
            assert group_writes(stack, scene.group, closing) == ["editMessageText"]

    asyncio.run(run())
    assert engine_game(stack, game_id).version == shown_version(game_id)


def test_a_rounds_end_is_written_while_everyone_follows_in_the_app(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    """P0's last card ends the round with both apps open: the scores are posted and the
    next round's table below them, as without the app (the timer is far off: only the
    round's end and start write)."""
    stack, webapp = app_stack
    scene = two_in_a_group(stack, {"hands": ["R1", "B2 B3 G7"], "discard": "R3"}, turn_seconds=300)
    game_id = scene.game.game_id
    scene.table()
    init = [launch(stack, scene, 0), launch(stack, scene, 1)]

    async def run() -> None:
        async with streams(webapp, game_id, *init) as (mine, _):
            since = last_call(stack)
            await app_move(webapp, game_id, init[0], "p.R1", scene.game.version)
            version = (await mine.table(at_least=scene.game.version + 1))["version"]
            await asyncio.to_thread(wait_shown, stack, game_id, version)
            await asyncio.to_thread(scene.wait_group, "P0")
            writes = group_writes(stack, scene.group, since)
            assert "sendMessage" in writes, writes  # the scores, and the new round's table
            now = await asyncio.to_thread(engine_game, stack, game_id)
            assert now.status == "playing"  # 12 points: the game goes on
            await asyncio.to_thread(wait_table_saying, scene, "round 2")

    asyncio.run(run())


def reminders(stack: Stack, user: int) -> list[dict[str, Any]]:
    return [
        m
        for m in stack.control.private_messages(user, stack.token)
        if "Your turn in" in (m.get("text") or "")
    ]


def test_a_turns_reminder_reaches_the_player_whose_app_is_closed_only(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    """P1 follows in the app, P0 does not: P0 is reminded of their turn; P1, whose turn
    then runs out with the app open, is not (the stand-in plays it)."""
    stack, webapp = app_stack
    scene = two_in_a_group(stack, LONG_HANDS, turn_seconds=16)
    game_id = scene.game.game_id
    first, second = scene.person(0)["id"], scene.person(1)["id"]
    scene.table()
    init = launch(stack, scene, 1)

    async def run() -> None:
        async with streams(webapp, game_id, init) as (p1,):
            await asyncio.to_thread(
                stack.control.wait_until,
                lambda: reminders(stack, first),
                timeout=30,
                what="P0 told it is their turn",
            )
            init_p0 = await asyncio.to_thread(launch, stack, scene, 0)
            await app_move(webapp, game_id, init_p0, "p.R1", scene.game.version)
            # P1's turn runs out: the stand-in plays for them, with no reminder sent.
            seen = await p1.table(at_least=scene.game.version + 1)
            while seen["view"]["current"] != 0:
                seen = await p1.table(at_least=seen["version"] + 1)
            await asyncio.to_thread(wait_shown, stack, game_id, seen["version"])

    asyncio.run(run())
    assert len(reminders(stack, first)) == 1
    assert reminders(stack, second) == []


def watching_now(game_id: str) -> set[int]:
    """Who holds a live lease of ``game_id``'s table streams now, on Redis's clock (the one
    leases lapse by): the people the bot counts as having the app open."""
    client = redis.Redis.from_url(TEST_REDIS_URL)
    try:
        seconds, micros = client.time()
        now = int(seconds) * 1000 + int(micros) // 1000
        ids = cast("list[bytes]", client.zrangebyscore(game_key(game_id), f"({now}", "+inf"))
    finally:
        client.close()
    return {user for user in map(lease_user, ids) if user is not None}


def test_a_dead_replicas_lease_lapses_and_the_table_and_reminders_come_back(
    app_stack: tuple[Stack, WebAppProcess], tmp_path: Path
) -> None:
    """P1 follows the game on a Mini App replica that dies (SIGKILL: it neither drops P1's
    lease nor tells the bot that P1's app is closed). Once the lease lapses, P1 counts as
    having the app closed: P0's next move in the app is written to the group's table at
    once, and P1, whose turn it then is, is reminded of it in private (P0, whose app stays
    open, is not)."""
    stack, webapp = app_stack
    lapsing = start_webapp(
        "webapp-lapsing",
        TEST_REDIS_URL,
        stack.engine_url,
        stack.bot_api_url,
        stack.token,
        tmp_path,
        UNO_WEBAPP_STREAM_LEASE_SECONDS="3",
    )
    scene = two_in_a_group(stack, LONG_HANDS, turn_seconds=24)
    game_id = scene.game.game_id
    first, second = scene.person(0)["id"], scene.person(1)["id"]
    wait_table_saying(scene, "P0 5 · P1 5")
    init = [launch(stack, scene, 0), launch(stack, scene, 1)]

    async def run() -> None:
        async with streams(webapp, game_id, init[0]) as (mine,):
            on_lapsing = AsyncExitStack()
            await on_lapsing.enter_async_context(streams(lapsing, game_id, init[1]))
            try:
                # Both follow in the app: the first two moves leave the group's table be.
                since = last_call(stack)
                version = scene.game.version
                for seat, code in MOVES[:2]:
                    await app_move(webapp, game_id, init[seat], code, version)
                    version = (await mine.table(at_least=version + 1))["version"]
                await asyncio.to_thread(wait_shown, stack, game_id, version)
                assert group_writes(stack, scene.group, since) == []
                lapsing.kill()
                await asyncio.to_thread(
                    stack.control.wait_until,
                    lambda: second not in watching_now(game_id),
                    timeout=30,
                    what="the dead replica's lease of P1 to lapse",
                )
            finally:
                with contextlib.suppress(httpx.HTTPError):
                    await on_lapsing.aclose()  # its server is gone: nobody is told
            assert first in watching_now(game_id)  # P0's replica lives and renews theirs
            lapsed = last_call(stack)
            await app_move(webapp, game_id, init[0], MOVES[2][1], version)
            await mine.table(at_least=version + 1)
            # P1 counts as away: the move is on the group's table (an edit of it) ...
            await asyncio.to_thread(wait_table_saying, scene, "P0 3 · P1 4")
            assert "editMessageText" in group_writes(stack, scene.group, lapsed)
            # ... and P1, whose turn it is, is reminded of it.
            await asyncio.to_thread(
                stack.control.wait_until,
                lambda: reminders(stack, second),
                timeout=30,
                what="P1 told it is their turn",
            )
            assert reminders(stack, first) == []

    try:
        asyncio.run(run())
    finally:
        lapsing.stop()


def test_a_games_start_is_written_while_everyone_waits_in_the_apps_lobby(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    """P0 and P1 wait in the game's lobby in the app (a live stream each) when P0 starts it:
    the group's lobby message becomes the game's table although every seated human has the
    app open (a game's start writes the table whoever follows in the app), and the game is
    quiet from its first move on. The first round is fixed with its first card turned up
    already, so the start's write comes of ``game_started`` alone (a random deal brings a
    ``round_started`` with it)."""
    stack, webapp = app_stack
    control = stack.control
    people = [control.create_user(f"P{i}", username=None) for i in range(2)]
    chat = control.create_group("UNO night", [p["id"] for p in people], bots=[stack.token])
    for person in people:
        control.start_bot(person["id"], stack.token)
    group = Group(chat, people, stack.players(int(chat["id"])))
    open_lobby(stack, group)
    lobby = group.players.wait_table(
        "the lobby", lambda m: any(cb.kind is Kind.LOBBY for cb in callbacks(m))
    )
    game_id = callbacks(lobby)[0].game_id
    fix_first_round(stack, game_id, {**LONG_HANDS, "draw_pile": DRAW_PILE, "current": 0})
    init = [launch_in(stack, p["id"], group.id, game_id) for p in people]

    async def run() -> None:
        assert (await lobby_word(webapp, game_id, init[1], "join"))["status"] == "lobby"
        async with streams(webapp, game_id, *init) as (mine, _):
            assert {p["id"] for p in people} <= watching_now(game_id)
            started = await lobby_word(webapp, game_id, init[0], "start")
            assert started["status"] == "playing"
            version = (await mine.table(at_least=started["version"]))["version"]
            table = await asyncio.to_thread(
                group.players.wait_table,
                "the game's table",
                lambda m: (
                    "P0 5 · P1 5" in m.get("text", "")
                    and any(cb.kind is Kind.HAND for cb in callbacks(m))
                ),
            )
            assert table["message_id"] == lobby["message_id"]  # the lobby became the table
            await asyncio.to_thread(wait_shown, stack, game_id, version)
            # Still in the app: the first move leaves the group's table be.
            since = last_call(stack)
            await app_move(webapp, game_id, init[0], MOVES[0][1], version)
            version = (await mine.table(at_least=version + 1))["version"]
            await asyncio.to_thread(wait_shown, stack, game_id, version)
            assert group_writes(stack, group, since) == []

    asyncio.run(run())
