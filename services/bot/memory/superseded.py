"""A game's tables that a newer one superseded, kept until the group's budget lets them
be deleted (tidying.py), and the write that makes a newly posted message the game's table.

Keys: ``bot:old:{game}``, a set of message ids; writes the ``table`` and ``scrolled``
fields of ``bot:game:{game}`` (games.py) when a table is posted anew.
"""

from __future__ import annotations

from typing import Any

from services.bot.memory.store import PREFIX, TTL_SECONDS, Store, game_key


def superseded_key(game_id: str) -> str:
    return f"{PREFIX}old:{game_id}"


class SupersededTables(Store):
    superseded_key = staticmethod(superseded_key)

    async def supersede_table(self, game_id: str, message_id: int) -> None:
        """``message_id`` is no longer the game's table (a newer one is below it): kept to
        be deleted when the group's budget allows."""
        key = superseded_key(game_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.sadd(key, str(message_id))
            pipe.expire(key, TTL_SECONDS)
            await pipe.execute()

    async def table_posted(
        self, game_id: str, message_id: int, above: int | None, **fields: Any
    ) -> bool:
        """The game's table is now ``message_id`` (with ``fields`` of its memory), posted
        below ``above``, which it supersedes, in one call; whether superseded tables wait
        to be deleted."""
        old = superseded_key(game_id)
        key = game_key(game_id)
        mapping: Any = {**fields, "table": message_id, "scrolled": 0}
        async with self.redis.pipeline(transaction=True) as pipe:
            if above is not None:
                pipe.sadd(old, str(above))
                pipe.expire(old, TTL_SECONDS)
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, TTL_SECONDS)
            pipe.scard(old)
            found = await pipe.execute()
        return bool(found[-1])

    async def superseded(self, game_id: str) -> list[int]:
        """The game's earlier tables not yet deleted (at most 100: one deleteMessages)."""
        return sorted(int(m) for m in await self.redis.smembers(superseded_key(game_id)))[-100:]

    async def deleted(self, game_id: str, message_ids: list[int]) -> None:
        if message_ids:
            await self.redis.srem(superseded_key(game_id), *map(str, message_ids))
