"""A flood of moves or reconnects from one person is refused, on every replica alike.

One token bucket per person and kind (services/token_bucket.py, the one the bot meters
Telegram's limits with): one Lua call says whether this request fits, so the limit holds
whichever replica a request reaches. A refused request takes nothing from the bucket and
changes nothing.
"""

from __future__ import annotations

from redis.asyncio import Redis

from services.token_bucket import TOKEN_BUCKETS, refused_wait_ms

PREFIX = "webapp:flood:"


class FloodLimit:
    def __init__(self, redis: Redis, per_second: float, burst: int) -> None:
        self.redis = redis
        self.interval_ms = max(1, round(1000 / per_second))
        self.tolerance_ms = self.interval_ms * (burst - 1)
        self._script = redis.register_script(TOKEN_BUCKETS)

    async def wait_ms(self, kind: str, user_id: int) -> int:
        """0 when ``user_id`` may go on now, else how many milliseconds until they may."""
        key = f"{PREFIX}{kind}:{user_id}"
        # one bucket, no spare slot, reserve only with no wait (most 0), judged
        args = [self.interval_ms, self.tolerance_ms, 0, 1, 0, 1]
        answer = int(await self._script(keys=[key], args=args))
        return refused_wait_ms(answer) if answer < 0 else 0
