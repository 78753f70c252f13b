"""Reads the engine's event log with a Redis consumer group shared by every bot replica.

Each entry (one write of one game) goes to one replica, which puts it on PTB's update
queue as a ``LogEntry``; the handler renders it and acknowledges it. An entry a replica
took and never acknowledged (it died mid-render, or the engine could not be reached) is
claimed by a replica after ``claim_idle_ms`` and rendered again: rendering shows the
game's current state, so rendering twice shows nothing twice. A reader away for longer
than the log keeps (``UNO_EVENT_LOG_SECONDS``) finds the group's position trimmed away and
re-renders every game it knows from the spectator view (``on_gap``).
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from services.engine.client import stream_entry_events

log = logging.getLogger(__name__)

GROUP = "bot"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One write of one game, read from the event log (PTB's update queue carries it):
    its public events (a private one never reaches the bot: ``stream_entry_events``)."""

    stream: str
    entry_id: str
    game_id: str
    version: int
    events: list[dict[str, Any]]


def _entry(stream: str, entry_id: bytes, fields: dict[bytes, bytes]) -> LogEntry | None:
    try:
        game_id, version, public = stream_entry_events(fields)
    except (ValueError, KeyError, zlib.error):
        log.warning("unreadable event log entry %s %s", stream, entry_id)
        return None
    return LogEntry(stream, entry_id.decode(), game_id, version, [e for _, e in public])


class LogReader:
    def __init__(
        self,
        redis: Redis,
        keys: list[str],
        consumer: str,
        deliver: Callable[[LogEntry], Awaitable[None]],
        *,
        on_gap: Callable[[], Awaitable[None]] | None = None,
        claim_idle_ms: int = 10_000,
        block_ms: int = 1_000,
        batch: int = 200,
    ) -> None:
        self.redis = redis
        self.keys = keys
        self.consumer = consumer
        self.deliver = deliver
        self.on_gap = on_gap
        self.claim_idle_ms = claim_idle_ms
        self.block_ms = block_ms
        self.batch = batch
        self._stopping = asyncio.Event()

    async def ensure_group(self) -> bool:
        """Create the group where missing (reading from now on); True when the group's
        position lies before what a stream still holds (entries were missed)."""
        gap = False
        for key in self.keys:
            try:
                await self.redis.xgroup_create(key, GROUP, id="$", mkstream=True)
                continue
            except ResponseError as e:
                if "BUSYGROUP" not in str(e):
                    raise
            info = await self.redis.xinfo_stream(key)
            for group in await self.redis.xinfo_groups(key):
                if _text(group["name"]) == GROUP and _missed(info, group):
                    gap = True
        return gap

    async def ack(self, entry: LogEntry) -> None:
        await self.redis.xack(entry.stream, GROUP, entry.entry_id)

    async def claim_stale(self) -> int:
        """Take over entries other replicas took and never acknowledged."""
        claimed = 0
        for key in self.keys:
            start = "0-0"
            while True:
                reply = await self.redis.xautoclaim(
                    key, GROUP, self.consumer, self.claim_idle_ms, start_id=start, count=self.batch
                )
                start, entries = reply[0], reply[1]
                for entry_id, fields in entries:
                    if fields is None:
                        continue
                    entry = _entry(key, entry_id, fields)
                    if entry is None:
                        await self.redis.xack(key, GROUP, entry_id)
                        continue
                    claimed += 1
                    await self.deliver(entry)
                if start in (b"0-0", "0-0"):
                    break
        return claimed

    async def run(self) -> None:
        if await self.ensure_group() and self.on_gap is not None:
            log.warning("the event log moved past this bot's position; re-rendering its games")
            await self.on_gap()
        last_claim = 0.0
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        while not self._stopping.is_set():
            # Python 3.11's asyncio.wait_for (inside redis-py's send) swallows a cancel that
            # lands as the send completes; the request stays counted, so honour it here, or a
            # cancelled reader would go on taking (and re-claiming) entries.
            if task is not None and task.cancelling():
                raise asyncio.CancelledError
            try:
                if loop.time() - last_claim > self.claim_idle_ms / 2000:
                    last_claim = loop.time()
                    await self.claim_stale()
                reply = cast(
                    list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]],
                    await self.redis.xreadgroup(
                        GROUP,
                        self.consumer,
                        {key: ">" for key in self.keys},
                        count=self.batch,
                        block=self.block_ms,
                    ),
                )
                for stream, entries in reply or []:
                    key = _text(stream)
                    for entry_id, fields in entries:
                        entry = _entry(key, entry_id, fields)
                        if entry is None:
                            await self.redis.xack(key, GROUP, entry_id)
                            continue
                        await self.deliver(entry)
            except asyncio.CancelledError:
                raise
            except ResponseError as e:
                if "NOGROUP" not in str(e):
                    raise
                log.warning("the event log's consumer group is gone; creating it again")
                await self.ensure_group()
            except (RedisError, OSError):
                log.exception("reading the event log failed; trying again")
                await asyncio.sleep(1)

    def stop(self) -> None:
        self._stopping.set()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _missed(stream: dict[str, Any], group: dict[str, Any]) -> bool:
    """Whether entries the group never read were trimmed from the stream: more unread
    entries were added than the stream holds, or (when Redis cannot count) the group's
    position lies before everything the stream still has."""
    added, read, length = stream.get("entries-added"), group.get("entries-read"), stream["length"]
    if added is not None and read is not None:
        return int(added) - int(read) > int(length)
    last = _text(group["last-delivered-id"])
    first = stream.get("first-entry")
    if first is not None:
        return _older(last, _text(first[0])) and last != "0-0"
    return _older(last, _text(stream["last-generated-id"]))


def _older(a: str, b: str) -> bool:
    """Whether stream id ``a`` comes before ``b``: entries after ``a`` were trimmed unread."""
    ams, _, aseq = a.partition("-")
    bms, _, bseq = b.partition("-")
    return (int(ams), int(aseq or 0)) < (int(bms), int(bseq or 0))
