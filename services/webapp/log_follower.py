"""Follows the engine's event log and wakes the connections watching a game.

Every replica reads every shard of the log itself (plain ``XREAD`` from the newest entry
on, no consumer group): each entry must reach every replica that has a viewer of its game,
unlike the bot's renders, which one replica does for all. An entry wakes the connections of
its game and hands them its public events; each connection then asks the engine for its
own viewer's view, so hidden cards pass through one door, the engine's views. A connection
opening, resuming, or too far behind asks the engine for the events too. A replica that
restarts reads from the log's end: its viewers reconnect with the version they last saw
and catch up from the engine, so the follower's position needs no keeping.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections import defaultdict
from typing import Any, cast

from redis.asyncio import Redis
from redis.exceptions import RedisError

from services.engine.client import log_keys, stream_entry_events

log = logging.getLogger(__name__)


#: Entries a connection may have waiting before it reads the events from the engine instead.
MAX_WAITING = 64


class Watch:
    """One connection's interest in a game: ``changed`` is set when a newer version lands,
    and ``entries`` holds each write's public events (``(version, events)``) since the
    watch began, unless more than ``MAX_WAITING`` piled up (``overflowed``)."""

    __slots__ = ("changed", "entries", "game_id", "latest", "overflowed")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.changed = asyncio.Event()
        self.entries: list[tuple[int, list[dict[str, Any]]]] = []
        self.overflowed = False
        #: the newest version the log brought since the watch began (0: none yet)
        self.latest = 0

    def take(self, since: int, upto: int) -> list[dict[str, Any]] | None:
        """The public events of versions after ``since`` up to ``upto``, those later kept
        for the next time; ``None`` when some were dropped (the engine has them all)."""
        if self.overflowed:
            self.overflowed = False
            self.entries = [e for e in self.entries if e[0] > upto]
            return None
        out = [event for v, events in self.entries if since < v <= upto for event in events]
        self.entries = [e for e in self.entries if e[0] > upto]
        return out


class LogFollower:
    #: Each XREAD blocks well inside the Redis client's read timeout (5 s by default in
    #: redis-py), so an idle log is an empty answer, not a timeout logged as a failure.
    def __init__(self, redis: Redis, shards: int, *, block_ms: int = 1_000) -> None:
        self.redis = redis
        self.keys = log_keys(shards)
        self.block_ms = block_ms
        self._watches: defaultdict[str, set[Watch]] = defaultdict(set)
        self._positions: dict[Any, Any] = {}

    @property
    def watched_games(self) -> int:
        return len(self._watches)

    def watch(self, game_id: str) -> Watch:
        watch = Watch(game_id)
        self._watches[game_id].add(watch)
        return watch

    def unwatch(self, watch: Watch) -> bool:
        """Ends the watch; True when it was the game's last one on this replica."""
        watches = self._watches.get(watch.game_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[watch.game_id]
                return True
        return False

    async def start_position(self) -> None:
        """Read from each shard's newest entry on: what came before, a viewer gets from the
        engine when it connects."""
        for key in self.keys:
            newest = cast(list[tuple[bytes, object]], await self.redis.xrevrange(key, count=1))
            self._positions[key] = newest[0][0].decode() if newest else "0-0"

    async def run(self) -> None:
        await self.start_position()
        while True:
            try:
                reply = cast(
                    list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]],
                    await self.redis.xread(dict(self._positions), block=self.block_ms, count=500),
                )
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError):
                log.exception("reading the event log failed; trying again")
                await asyncio.sleep(1)
                continue
            for stream, entries in reply or []:
                key = stream.decode()
                for entry_id, fields in entries:
                    self._positions[key] = entry_id.decode()
                    self._wake(fields)

    def _wake(self, fields: dict[bytes, bytes]) -> None:
        game_id = fields.get(b"g", b"").decode(errors="replace")
        watches = self._watches.get(game_id)
        if not watches:
            return
        try:
            _, version, events = stream_entry_events(fields)
        except (ValueError, KeyError, zlib.error):
            log.warning("unreadable event log entry of game %s", game_id)
            return
        # The log's reader hands out public events only: a player's own cards reach them in
        # their view's hand, and their private events from the engine.
        public = [{"id": f"{version}-{n}", "version": version, "event": e} for n, e in events]
        for watch in watches:
            watch.latest = max(watch.latest, version)
            if len(watch.entries) >= MAX_WAITING:
                watch.overflowed = True
            else:
                watch.entries.append((version, public))
            watch.changed.set()
