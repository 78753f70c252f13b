"""A quiet table's timer: while every seated human of a game follows it in the Mini App, the
group's table is written at most once an interval (intake.py), and one replica waits for
that write.

Keys: ``bot:quiet:{game}``, set for the interval by the replica that waits (``SET NX PX``);
the ``wdue`` field of ``bot:game:{game}``: a write the table owes whatever the app shows (a
round's scores or a notice were posted), cleared by the table's next write.
"""

from __future__ import annotations

from services.bot.memory.store import PREFIX, Store, game_key


def quiet_key(game_id: str) -> str:
    return f"{PREFIX}quiet:{game_id}"


class QuietTables(Store):
    quiet_key = staticmethod(quiet_key)

    async def start_quiet_timer(self, game_id: str, seconds: float) -> bool:
        """True when this caller is the one to write the game's quiet table in ``seconds``
        (no replica waits for it yet). A replica that dies meanwhile leaves the key to
        expire: the next quiet move starts the timer again."""
        ms = max(1, round(seconds * 1000))
        return bool(await self.redis.set(quiet_key(game_id), "1", nx=True, px=ms))

    async def owe_table_write(self, game_id: str) -> None:
        """The table's next render writes it, whoever has the app open."""
        await self.redis.hset(game_key(game_id), "wdue", "1")

    async def table_write_paid(self, game_id: str) -> None:
        await self.redis.hdel(game_key(game_id), "wdue")
