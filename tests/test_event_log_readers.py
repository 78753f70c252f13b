"""Every reader of the engine's event log, each through its own entry point, while games
with private events are played: the bot's (``LogReader``, its consumer group), the Mini
App's (``LogFollower``, a watch of the game) and the worker's (``ResultsRecorder``, whose
entries reach the records' writer). None of them is handed a private event -- a dealt
hand, drawn cards, a challenged hand -- and each private event reaches its addressee, and
them alone, from the engine: the answer to their own move, and ``GET …/events`` with their
user id (services/engine/README.md "Events": hidden events leave through the rules'
``events_for`` alone).

Real Redis, the real engine (in-process, tests/conftest.py), a real SQLite records
database for the worker's writer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.asyncio import Redis

from services.bot.logreader import LogEntry, LogReader
from services.config import Settings
from services.engine.client import EngineClient, log_keys
from services.records.database import make_engine
from services.records.migrate import upgrade
from services.webapp.log_follower import LogFollower, Watch
from services.worker import records
from services.worker.records import ResultsRecorder
from tests.helpers.engine_service import deal, humans
from tests.helpers.waiting import async_wait_for

CHAT = -100_4242
#: Seat 0 plays a wild draw four it may not (it holds no green), seat 1 challenges and is
#: shown seat 0's hand (RULES.md §2 "Challenge"), seat 2 draws.
CHALLENGED_TABLE = ["W+4 B3 R2", "B1 B2", "G1 G2"]
MOVES = [(101, "p.W+4"), (101, "c.R"), (102, "ch"), (103, "d")]


@pytest.fixture
async def async_redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


def private(events: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [e for e in events if "to" in e]


async def stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def test_no_reader_of_the_event_log_is_handed_a_private_event(
    engine: EngineClient,
    async_redis: Redis,
    redis_url: str,
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The bot: its consumer group, from now on.
    bot_got: list[LogEntry] = []

    async def deliver(entry: LogEntry) -> None:
        bot_got.append(entry)
        await bot.ack(entry)

    keys = log_keys(settings.event_shards)
    bot = LogReader(async_redis, keys, "bot-1", deliver, block_ms=100)
    await bot.ensure_group()
    bot_task = asyncio.create_task(bot.run())
    # The Mini App: its follower, from each shard's newest entry on.
    follower = LogFollower(async_redis, settings.event_shards, block_ms=100)
    follower_task = asyncio.create_task(follower.run())
    await async_wait_for(
        lambda: len(follower._positions) == len(keys), 10, "the follower to find its place"
    )
    # The worker: what the recorder hands the records' writer, entry by entry.
    worker_got: list[Mapping[str, Any]] = []

    def spied(name: str) -> Any:
        real = getattr(records, name)

        def spy(*args: Any) -> Any:
            worker_got.extend(next(a for a in args if isinstance(a, list)))
            return real(*args)

        return spy

    for name in ("is_recorded", "needs_facts", "record_write"):
        monkeypatch.setattr(records, name, spied(name))
    url = f"sqlite:///{tmp_path / 'records.db'}"
    upgrade(url)
    database = make_engine(url)

    # A game dealt through the lobby (each hand dealt in private), ended by its host.
    lobby = await engine.create_game(CHAT, 1, "Ana")
    watches: dict[str, Watch] = {lobby.game_id: follower.watch(lobby.game_id)}
    await engine.join(lobby.game_id, 2, "Bo")
    await engine.start(lobby.game_id, 1)
    dealt = await engine.events(lobby.game_id, user_id=2)
    # Bo's hand, to Bo (and, when the first card made him draw, the cards he drew: to him too)
    assert {e.event["to"] for e in dealt.events if "to" in e.event} == {1}
    ended = await engine.end(lobby.game_id, 1)
    # A game with a challenge and draws.
    game = await deal(engine, CHALLENGED_TABLE, chat_id=CHAT - 1, discard="G5", seats=humans(3))
    watches[game.game_id] = follower.watch(game.game_id)
    answers = {}
    version = game.version
    for user, code in MOVES:
        answer = await engine.act(game.game_id, user, code, version=version, action_id=code)
        answers[code], version = answer, answer.version
    # Each private event reached its addressee alone, from the engine.
    seat_of = {101: 0, 102: 1, 103: 2}
    for user, code in MOVES:
        assert {e["to"] for e in private(answers[code].events)} <= {seat_of[user]}
    shown = [e["type"] for e in private(answers["ch"].events)]
    assert "challenge_reveal" in shown and "drew_cards" in shown  # the challenger's own
    assert [e["type"] for e in private(answers["d"].events)] == ["drew_cards"]
    for user, seat in seat_of.items():
        page = await engine.events(game.game_id, user_id=user)
        assert {e.event["to"] for e in page.events if "to" in e.event} <= {seat}
    assert private([e.event for e in (await engine.events(game.game_id)).events]) == []

    # Every reader has read both games to their last write, and was handed no private event.
    last = {lobby.game_id: ended.version, game.game_id: version}
    await async_wait_for(
        lambda: {(e.game_id, e.version) for e in bot_got} >= set(last.items()),
        10,
        "the bot to read every write",
    )
    await async_wait_for(
        lambda: all(watches[g].latest == v for g, v in last.items()),
        10,
        "the Mini App's follower to read every write",
    )
    sync_redis = redis.Redis.from_url(redis_url)
    recorder = ResultsRecorder(sync_redis, database, lambda _: None, shards=settings.event_shards)
    recorder.join_group()  # from the oldest entry the log holds
    while recorder.record_once():
        pass
    sync_redis.close()
    database.dispose()
    await stop(bot_task)
    await stop(follower_task)

    bot_events = [e for entry in bot_got for e in entry.events]
    mini_app = [watches[g].take(0, v) for g, v in last.items()]
    assert None not in mini_app  # nothing dropped: the follower kept every write
    mini_app_events = [e["event"] for taken in mini_app for e in taken or []]
    seen = {"bot": bot_events, "Mini App": mini_app_events, "worker": worker_got}
    for reader, events in seen.items():
        types = {e["type"] for e in events}
        assert {"drew", "challenged", "game_ended"} <= types, reader  # it read the games
        assert private(events) == [], reader
