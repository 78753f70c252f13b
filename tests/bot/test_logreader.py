"""The event log's consumer group: each write delivered to one replica, unacknowledged
ones claimed by another, a trimmed-away position noticed."""

from __future__ import annotations

import asyncio
import contextlib

from redis.asyncio import Redis

from services.bot.logreader import GROUP, LogEntry, LogReader
from services.config import Settings
from services.engine.client import EngineClient, log_keys
from tests.helpers.waiting import async_wait_for


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
    await async_wait_for(lambda: len(got["a"]) == 2, 10, "replica a to take both writes", poll=0.02)
    task_a.cancel()  # a crash: a never acknowledges what it took
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task_a, 5)

    readers["b"] = reader("b", ack=True)
    task_b = asyncio.create_task(readers["b"].run())
    await engine.add_ai(game.game_id, 1)
    await async_wait_for(
        lambda: len(got["b"]) == 3, 10, "replica b to claim a's two and read the third", poll=0.02
    )
    assert sorted(e.version for e in got["b"]) == [1, 2, 3]
    assert {e.game_id for e in got["b"]} == {game.game_id}
    task_b.cancel()
    pending = [await redis.xpending(key, GROUP) for key in keys]
    assert all(p["pending"] == 0 for p in pending)


async def test_a_cancel_swallowed_inside_redis_still_stops_the_reader(
    redis: Redis, settings: Settings
) -> None:
    """Python 3.11's ``asyncio.wait_for`` (used by redis-py to send) drops a cancel that lands
    as the send completes; the reader must still stop, or a "dead" replica keeps claiming."""
    keys = log_keys(settings.event_shards)

    class SwallowingRedis(Redis):
        async def xreadgroup(self, *args: object, **kwargs: object) -> list[object]:  # type: ignore[override]
            # What wait_for does when its inner future is already done: drop the cancel.
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(0.05)
            return []

    async def deliver(entry: LogEntry) -> None:
        pass

    swallowing = SwallowingRedis(connection_pool=redis.connection_pool)
    reader = LogReader(swallowing, keys, "a", deliver, block_ms=50)
    task = asyncio.create_task(reader.run())
    await asyncio.sleep(0.2)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=5)
    reader.stop()  # ends a reader that ignored the cancel, so the test fails rather than hangs
    await task if not done else None
    assert task in done and task.cancelled()


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
