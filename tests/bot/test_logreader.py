"""The event log's consumer group: each write delivered to one replica, unacknowledged
ones claimed by another, a trimmed-away position noticed."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from services.bot.logreader import GROUP, LogReader
from services.bot.rendering import LogEntry
from services.config import Settings
from services.engine.client import EngineClient, log_keys


async def wait_for(predicate: object, what: str, timeout: float = 10) -> None:
    assert callable(predicate)
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.xfail(
    strict=False,
    reason="known race: in about one run in six, replica b has not claimed a's entries within "
    "10 s (issue #14's closing note); runs every time, fails the suite only once fixed and "
    "marked strict",
)
async def test_replicas_share_the_log_and_claim_what_a_dead_one_left(
    engine: EngineClient, redis: Redis, settings: Settings
) -> None:
    keys = log_keys(settings.event_shards)
    got: dict[str, list[LogEntry]] = {"a": [], "b": []}

    def reader(name: str, ack: bool) -> LogReader:
        async def deliver(entry: LogEntry) -> None:
            got[name].append(entry)
            if ack:
                await readers[name].ack(entry)

        return LogReader(redis, keys, name, deliver, claim_idle_ms=300, block_ms=100)

    readers: dict[str, LogReader] = {}
    readers["a"] = reader("a", ack=False)  # takes entries and never acknowledges: a crash
    await readers["a"].ensure_group()
    task_a = asyncio.create_task(readers["a"].run())
    game = await engine.create_game(-100, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    await wait_for(lambda: len(got["a"]) == 2, "replica a to take both writes")
    task_a.cancel()

    readers["b"] = reader("b", ack=True)
    task_b = asyncio.create_task(readers["b"].run())
    await engine.add_ai(game.game_id, 1)
    await wait_for(lambda: len(got["b"]) == 3, "replica b to claim a's two and read the third")
    assert sorted(e.version for e in got["b"]) == [1, 2, 3]
    assert {e.game_id for e in got["b"]} == {game.game_id}
    task_b.cancel()
    pending = [await redis.xpending(key, GROUP) for key in keys]
    assert all(p["pending"] == 0 for p in pending)


async def test_a_position_trimmed_away_is_noticed(
    engine: EngineClient, redis: Redis, settings: Settings
) -> None:
    keys = log_keys(settings.event_shards)

    async def deliver(entry: LogEntry) -> None:
        pass

    reader = LogReader(redis, keys, "a", deliver)
    assert not await reader.ensure_group()
    game = await engine.create_game(-100, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    for key in keys:  # the log's retention dropped writes this group never read
        await redis.xtrim(key, maxlen=0, approximate=False)
    assert await reader.ensure_group()
