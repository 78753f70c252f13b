"""Telegram's flood limits, kept for the bot token across every replica (PTB's
``BaseRateLimiter``, backed by Redis).

Telegram meters the token, not the process: about 30 messages a second overall, 20 a
minute in one group, about one a second in one private chat, edits included. Each limit is
a token bucket kept in Redis as a "theoretical arrival time" (GCRA): one Lua call reserves
a slot in the overall bucket and the chat's and answers how long to wait, so replicas
share one budget and a burst of moves queues instead of drawing 429s. A chat's buckets are
sized so that no window of the limit's length ever holds more than the limit (burst +
rate × window ≤ limit); the overall one keeps the rate itself (``per_second``). Answers
to callback and inline queries are not metered and go at once; every call is counted
(metrics.py). A 429 that still comes pushes the bucket back by its ``retry_after`` and the
call is sent again.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter
from telegram.warnings import PTBDeprecationWarning

from services.bot.metrics import API_CALLS, RATE_WAIT, RETRY_AFTER

log = logging.getLogger(__name__)

PREFIX = "bot:rate:"

# KEYS: buckets; ARGV: pairs of (interval ms, tolerance ms) per key, then ``spare``. With
# ``spare`` < 0 it reserves one slot in every bucket and answers the wait for it; else it
# reserves nothing and answers the wait until a slot is free with ``spare`` more after it.
# Waits in ms, the longest of the buckets'.
_BUCKETS = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local spare = tonumber(ARGV[#ARGV])
local reserve = spare < 0
if reserve then spare = 0 end
local wait = 0
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local tolerance = tonumber(ARGV[2 * i])
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  local allow_at = tat + spare * interval - tolerance
  if allow_at - now > wait then wait = allow_at - now end
  if reserve then
    redis.call('SET', key, tat + interval, 'PX', tat + interval - now + tolerance + 1000)
  end
end
return wait
"""

#: ``spare`` for _BUCKETS: take the slot.
_TAKE = -1

# KEYS: buckets; ARGV[1]: ms during which nothing may be sent (Telegram's retry_after).
_HOLD = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = now + tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < until_ms then redis.call('SET', key, until_ms, 'PX', tonumber(ARGV[1]) + 60000) end
end
return 1
"""

#: ``rate_limit_args`` of a call whose slot was reserved beforehand (``reserve``): it goes
#: at once. A renderer reserves first and renders after the wait, so what changed while it
#: waited goes out in that one message instead of queueing a second.
RESERVED = "reserved"

#: Methods Telegram meters: anything that puts or changes a message in a chat.
_METERED_PREFIXES = ("send", "edit", "copy", "forward", "delete", "stop")


@dataclass(frozen=True, slots=True)
class Bucket:
    """``burst`` calls at once, then one every ``interval`` seconds."""

    interval: float
    burst: int

    def args(self) -> tuple[int, int]:
        return int(self.interval * 1000), int(self.interval * 1000 * (self.burst - 1))


def within(limit: float, window: float) -> Bucket:
    """A bucket that never lets more than ``limit`` calls into any ``window`` seconds: a
    quarter of the limit as a burst, the rest spread over the window (burst + rate × window
    = limit). Below two there is no such bucket: one call, then the rate itself (Telegram's
    "about one a second" in a private chat is that soft)."""
    burst = max(1, int(limit // 4))
    rate = (limit - burst) / window if limit > burst else limit / window
    return Bucket(interval=1 / rate, burst=burst)


def per_second(limit: float) -> Bucket:
    """The overall bucket: ``limit`` a second, a third of a second's worth at once.

    [decision] Telegram states the overall limit as a rate ("about 30 messages a second",
    bots FAQ), unlike a group's 20 a minute. Held to "never 30 in any second" (7 at once,
    then 23 a second), a bot at two thirds of the rate already queues its moves: at 20
    calls a second, one call in ten waited over 100 ms (bench/telegram_load.py, 100 games).
    So the rate is the limit, and the burst is a third of what PTB's own AIORateLimiter
    lets through at once (a second's worth); a 429 that still comes holds the bucket."""
    return Bucket(interval=1 / limit, burst=max(1, int(limit // 3)))


#: 10 + 30/s overall; 5 + 15/min in a group; 1 a second in a private chat.
OVERALL = per_second(30)
GROUP = within(20, 60.0)
PRIVATE = Bucket(interval=1.0, burst=1)


def retry_after_seconds(error: RetryAfter) -> float:
    """The wait Telegram asked for, in seconds (PTB 22 gives an int or a timedelta, and
    warns that the int is going away)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    return float(value) if isinstance(value, int | float) else value.total_seconds()


class RedisRateLimiter(BaseRateLimiter[str]):
    def __init__(
        self,
        redis: Redis,
        token_tag: str,
        *,
        overall: Bucket = OVERALL,
        group: Bucket = GROUP,
        private: Bucket = PRIVATE,
        max_retries: int = 3,
    ) -> None:
        self.redis = redis
        self.tag = token_tag
        self.overall, self.group, self.private = overall, group, private
        self.max_retries = max_retries
        self._buckets = redis.register_script(_BUCKETS)
        self._hold = redis.register_script(_HOLD)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    def buckets(self, endpoint: str, data: dict[str, Any]) -> list[tuple[str, Bucket]]:
        if not endpoint.startswith(_METERED_PREFIXES):
            return []
        out = [(f"{PREFIX}{self.tag}", self.overall)]
        chat = data.get("chat_id")
        if isinstance(chat, int):
            bucket = self.private if chat > 0 else self.group
            out.append((f"{PREFIX}{self.tag}:{chat}", bucket))
        elif isinstance(chat, str):  # a channel's @username
            out.append((f"{PREFIX}{self.tag}:{chat}", self.group))
        return out

    async def _ask(self, buckets: list[tuple[str, Bucket]], spare: int) -> float:
        """_BUCKETS over ``buckets``; its answer in seconds (0 when nothing is metered)."""
        if not buckets:
            return 0.0
        args = [n for _, bucket in buckets for n in bucket.args()] + [spare]
        return int(await self._buckets(keys=[k for k, _ in buckets], args=args)) / 1000

    async def _take(self, buckets: list[tuple[str, Bucket]]) -> float:
        wait = await self._ask(buckets, _TAKE)
        if buckets:
            RATE_WAIT.observe(wait)
        return wait

    async def reserve(self, endpoint: str, data: dict[str, Any]) -> float:
        """Reserve the next slot for a call; the seconds until it may go."""
        return await self._take(self.buckets(endpoint, data))

    async def room(self, endpoint: str, data: dict[str, Any], *, spare: int = 0) -> float:
        """The seconds until a call could go with ``spare`` more slots still free after it,
        reserving nothing (0: now)."""
        return await self._ask(self.buckets(endpoint, data), max(spare, 0))

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: str | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        buckets = self.buckets(endpoint, data)
        for attempt in range(self.max_retries + 1):
            if attempt > 0 or rate_limit_args != RESERVED:
                wait = await self._take(buckets)
                if wait > 0:
                    await asyncio.sleep(wait)
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as e:
                RETRY_AFTER.labels(endpoint).inc()
                API_CALLS.labels(endpoint, "retry_after").inc()
                delay = retry_after_seconds(e)
                log.warning("429 on %s: holding for %.1fs", endpoint, delay)
                if buckets:
                    await self._hold(keys=[k for k, _ in buckets], args=[int(delay * 1000)])
                if attempt == self.max_retries:
                    raise
                if not buckets:
                    await asyncio.sleep(delay)
                continue
            except TelegramError as e:
                API_CALLS.labels(endpoint, type(e).__name__).inc()
                raise
            API_CALLS.labels(endpoint, "ok").inc()
            return result
        raise AssertionError("unreachable")
