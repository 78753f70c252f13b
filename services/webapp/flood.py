"""A flood of moves or reconnects from one person is refused, on every replica alike.

One token bucket per person and kind, kept in Redis as a theoretical arrival time (GCRA):
one Lua call says whether this request fits, so the limit holds whichever replica a
request reaches. A refused request takes nothing from the bucket and changes nothing.
"""

from __future__ import annotations

from redis.asyncio import Redis

PREFIX = "webapp:flood:"

# KEYS[1]: the bucket; ARGV: interval ms, tolerance ms. Returns 0 (fits) or the wait in ms.
_GCRA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval, tolerance = tonumber(ARGV[1]), tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
if tat - now > tolerance then return tat - now - tolerance end
redis.call('SET', KEYS[1], tat + interval, 'PX', tolerance + interval + 1000)
return 0
"""


class FloodLimit:
    def __init__(self, redis: Redis, per_second: float, burst: int) -> None:
        self.redis = redis
        self.interval_ms = max(1, round(1000 / per_second))
        self.tolerance_ms = self.interval_ms * (burst - 1)
        self._script = redis.register_script(_GCRA)

    async def wait_ms(self, kind: str, user_id: int) -> int:
        """0 when ``user_id`` may go on now, else how many milliseconds until they may."""
        key = f"{PREFIX}{kind}:{user_id}"
        return int(await self._script(keys=[key], args=[self.interval_ms, self.tolerance_ms]))
