"""What every family of the bot's Redis keys shares: the prefix, the lifetime, the client
and its registered Lua scripts.

Every key of a game expires a day after its last write (``TTL_SECONDS``), as the engine's
own records do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from redis.asyncio import Redis
from redis.commands.core import AsyncScript

PREFIX = "bot:"
TTL_SECONDS = 86_400


def game_key(game_id: str) -> str:
    """A game's memory: one hash, in which each family keeps its own fields (each module's
    docstring names them), so that one read gives a render all it needs."""
    return f"{PREFIX}game:{game_id}"


class Store:
    """A Redis client, and the Lua scripts registered with it, once each."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._scripts: dict[str, AsyncScript] = {}

    def script(self, source: str) -> AsyncScript:
        found = self._scripts.get(source)
        if found is None:
            found = self._scripts[source] = self.redis.register_script(source)
        return found


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def pairs(raw: list[Any]) -> dict[bytes, bytes]:
    """A Lua script's HGETALL (a flat list) as redis-py's own HGETALL answer."""
    return dict(zip(raw[::2], raw[1::2], strict=True))


def fields_of(raw: Mapping[Any, bytes | str]) -> dict[str, str]:
    return {text(k): text(v) for k, v in raw.items()}
