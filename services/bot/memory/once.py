"""Things said or taken once across replicas and retries: a notice, a toast, a press held
against a double tap (``first_time``), and a webhook's update (``first_update``).

Keys: ``bot:once:{what}`` (set once, expiring); ``bot:seen:{block}``, a bitmap of 2**16
update ids.
"""

from __future__ import annotations

from services.bot.memory.store import PREFIX, TTL_SECONDS, Store

#: Webhook update ids are remembered in bitmaps of 2**16 ids each (``first_update``).
UPDATE_BLOCK_BITS = 16


def once_key(what: str) -> str:
    """The key that remembers ``what`` was asked about (``first_time``)."""
    return f"{PREFIX}once:{what}"


class SaidOnce(Store):
    once_key = staticmethod(once_key)

    async def first_time(self, what: str, ttl: int = TTL_SECONDS) -> bool:
        """True the first time ``what`` is asked about (across replicas and retries)."""
        return bool(await self.redis.set(once_key(what), 1, nx=True, ex=ttl))

    async def first_update(self, update_id: int, ttl: int) -> bool:
        """True the first time a webhook delivers ``update_id`` (across replicas and
        Telegram's redeliveries), remembered until ``ttl`` seconds after the last update
        of its block.

        [decision] One bit an update: Telegram numbers a bot's updates one after another, so
        a bitmap per block of 65,536 ids holds them in 8 KB. A key per update cost some 90
        bytes for an hour: about 13 MB at 40 updates a second, which ``bench/telegram_load.py
        --updates webhook`` counted as 4.9 KB per live game at 100 games."""
        key = f"{PREFIX}seen:{update_id >> UPDATE_BLOCK_BITS}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.setbit(key, update_id & (2**UPDATE_BLOCK_BITS - 1), 1)
            pipe.expire(key, ttl)
            was, _ = await pipe.execute()
        return not was
