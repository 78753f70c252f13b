"""Follows the engine's event log and wakes the connections watching a game.

Every replica reads every shard of the log itself (plain ``XREAD`` from the newest entry
on, no consumer group): each entry must reach every replica that has a viewer of its game,
unlike the bot's renders, which one replica does for all. An entry carries no view: it only
says "game G is now at version V", and each connection then asks the engine for its own
viewer's view and the events it has not seen (``table_feed``), so hidden cards pass through
one door, the engine's views. A replica that restarts reads from the log's end: its viewers
reconnect with the version they last saw and catch up from the engine, so the follower's
position needs no keeping.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any, cast

from redis.asyncio import Redis
from redis.exceptions import RedisError

from services.engine.client import log_keys

log = logging.getLogger(__name__)


class Watch:
    """One connection's interest in a game: ``changed`` is set when a newer version lands."""

    __slots__ = ("changed", "game_id")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.changed = asyncio.Event()


class LogFollower:
    def __init__(self, redis: Redis, shards: int, *, block_ms: int = 5_000) -> None:
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

    def unwatch(self, watch: Watch) -> None:
        watches = self._watches.get(watch.game_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[watch.game_id]

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
        for watch in watches or ():
            watch.changed.set()
