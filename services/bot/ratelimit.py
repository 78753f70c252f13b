"""Telegram's flood limits, kept for the bot token across every replica (PTB's
``BaseRateLimiter``, backed by Redis).

Telegram meters the token, not the process: about 30 messages a second overall, 20 a
minute in one group, about one a second in one private chat, edits included. Each limit is
a token bucket kept in Redis as a "theoretical arrival time" (GCRA): one Lua call reserves
a slot and answers how long to wait, so replicas share one budget and a burst of moves
queues instead of drawing 429s. A call takes its chat's slot first and the overall one
only once its chat's comes, so a call waiting for a busy group holds none of the token's
budget meanwhile. A group's bucket keeps Telegram's rate itself, one write every 3 s, with
a burst of two (``paced``); a private chat's is one a second; the overall one keeps the rate
itself (``per_second``). A call may be worth only so much wait (``worth``: a reply to a
person, ``replies``): past it, or when it would take a group's last free slot (the next
move's), it is not sent (``NotAfforded``) and takes nothing. Answers to callback and
inline queries are not metered and go at once; every call is counted (metrics.py). A 429
that still comes pushes the bucket back by its ``retry_after`` and the call is sent again.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter
from telegram.warnings import PTBDeprecationWarning

from services.bot.metrics import API_CALLS, RATE_WAIT, RETRY_AFTER
from services.token_bucket import TOKEN_BUCKETS

log = logging.getLogger(__name__)

PREFIX = "bot:rate:"

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
#: at once. The publisher reserves first and renders after the wait, so what changed while it
#: waited goes out in that one message instead of queueing a second.
RESERVED = "reserved"

#: ``rate_limit_args`` of a call that took its chat's slot and the token's together, the
#: chat's free at once (``go_now``), and waited for the token's: it goes at once. A table
#: write whose group has room takes both in one Redis call instead of one each.
TAKEN = "taken"

#: ``rate_limit_args`` of a call that waits for its slot however long it takes (the
#: publisher's hands and notices: a move's news is always worth showing).
WAIT = "wait"

_WORTH = "worth:"

#: What a reply to a person (a command's answer, a refreshed hand) is worth: it goes only
#: if its slot comes within this, with the chat's next slot (the next move's) still free.
REPLY_WORTH = 10.0


def worth(seconds: float) -> str:
    """``rate_limit_args`` of a call sent only if its slot comes within ``seconds`` with one
    more of its group's slots free after it; else it is not sent (NotAfforded)."""
    return f"{_WORTH}{seconds}"


def worth_of(args: str | None) -> float | None:
    """The seconds a call made with ``args`` may wait (None: however long)."""
    if args is None or not args.startswith(_WORTH):
        return None
    return float(args[len(_WORTH) :])


#: The ``rate_limit_args`` of calls made without any (a handler's ``reply_text``): the app
#: sets it to ``worth(REPLY_WORTH)`` for each update a person sent, so a reply the budget
#: cannot afford soon is dropped instead of queueing in front of the chat's moves.
replies: ContextVar[str | None] = ContextVar("replies", default=None)


class NotAfforded(Exception):
    """A call worth less than its wait for the flood budget: not sent."""


#: Methods Telegram meters: anything that puts or changes a message in a chat.
_METERED_PREFIXES = ("send", "edit", "copy", "forward", "delete", "stop")


@dataclass(frozen=True, slots=True)
class Bucket:
    """``burst`` calls at once, then one every ``interval`` seconds."""

    interval: float
    burst: int

    def args(self) -> tuple[int, int]:
        return int(self.interval * 1000), int(self.interval * 1000 * (self.burst - 1))


def paced(limit: float, window: float, burst: int = 2) -> Bucket:
    """A group's bucket: ``limit`` calls a ``window`` spread evenly (20 a minute: one every
    3 s), with ``burst`` at once after a quiet spell.

    [decision] Telegram documents a group's budget as a rate, "no more than 20 messages per
    minute to the same group" (bots FAQ), and says nothing of bursts; its refusals (and
    the local Telegram, like PTB's AIORateLimiter) meter a bucket of the rate. Holding the
    bot to "never 20 in any 60 s" instead (5 at once, then 15 a minute) ran a busy group a
    quarter slower than its budget: at a move every 2 s the table trailed by p50 3 s
    (bench/telegram_load.py --brisk). So the rate is the limit; the burst is two, which is
    what lets a table write wait for the next move instead of taking the first free slot
    (table.py, show_table): at most one call over any 60 s, once after a quiet
    minute, and never over the rate."""
    return Bucket(interval=window / limit, burst=max(1, burst))


def per_second(limit: float) -> Bucket:
    """The overall bucket: ``limit`` a second, a third of a second's worth at once.

    [decision] Telegram states the overall limit as a rate ("about 30 messages a second",
    bots FAQ), unlike a group's 20 a minute. Held to "never 30 in any second" (7 at once,
    then 23 a second), a bot at two thirds of the rate already queues its moves: at 20
    calls a second, one call in ten waited over 100 ms (bench/telegram_load.py, 100 games).
    So the rate is the limit, and the burst is a third of what PTB's own AIORateLimiter
    lets through at once (a second's worth); a 429 that still comes holds the bucket."""
    return Bucket(interval=1 / limit, burst=max(1, int(limit // 3)))


#: 10 + 30/s overall; 2 + 20/min (one every 3 s) in a group; 1 a second in a private chat.
OVERALL = per_second(30)
GROUP = paced(20, 60.0)
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
        self._buckets = redis.register_script(TOKEN_BUCKETS)
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

    def split(
        self, buckets: list[tuple[str, Bucket]]
    ) -> tuple[list[tuple[str, Bucket]], list[tuple[str, Bucket]]]:
        """``buckets`` as (the chat's, the overall one)."""
        overall = f"{PREFIX}{self.tag}"
        return [b for b in buckets if b[0] != overall], [b for b in buckets if b[0] == overall]

    async def _ask(
        self,
        buckets: list[tuple[str, Bucket]],
        spare: int,
        *,
        take: bool,
        most: float = -1,
        judged: int | None = None,
    ) -> float:
        """TOKEN_BUCKETS over ``buckets``; its answer in seconds (0 when nothing is metered, -1
        when a reservation would wait over ``most`` seconds and took nothing). ``spare`` and
        ``most`` are for the first ``judged`` buckets (None: all)."""
        if not buckets:
            return 0.0
        most_ms = int(most * 1000) if most >= 0 else -1
        judged = len(buckets) if judged is None else judged
        args = [n for _, bucket in buckets for n in bucket.args()]
        args += [spare, int(take), most_ms, judged]
        wait = int(await self._buckets(keys=[k for k, _ in buckets], args=args))
        return -1.0 if wait < 0 else wait / 1000

    async def _take(
        self, buckets: list[tuple[str, Bucket]], *, spare: int = 0, most: float = -1
    ) -> float:
        wait = await self._ask(buckets, spare, take=True, most=most)
        if buckets and wait >= 0:
            RATE_WAIT.observe(wait)
        return wait

    async def reserve(
        self, endpoint: str, data: dict[str, Any], *, most: float = -1, spare: int = 0
    ) -> float:
        """Reserve the chat's next slot for a call sent with ``RESERVED``; the seconds until
        it may go, or -1 (nothing reserved) when that would be over ``most`` seconds
        (``spare``: with that many more slots free after it). (Its slot of the overall
        budget is taken when it is sent.)"""
        chat, overall = self.split(self.buckets(endpoint, data))
        return await self._take(chat or overall, spare=max(spare, 0), most=most)

    async def go_now(self, endpoint: str, data: dict[str, Any], *, spare: int = 0) -> float:
        """Take the chat's slot, if one is free now with ``spare`` more after it, and the
        token's with it, in one call, for a call sent with ``TAKEN``; the seconds until the
        token's slot comes, or -1 (nothing taken) when the chat's is not free now."""
        chat, overall = self.split(self.buckets(endpoint, data))
        wait = await self._ask(chat + overall, max(spare, 0), take=True, most=0, judged=len(chat))
        if chat and wait >= 0:
            RATE_WAIT.observe(wait)
        return wait

    async def room(self, endpoint: str, data: dict[str, Any], *, spare: int = 0) -> float:
        """The seconds until a call could go with ``spare`` more slots still free after it,
        reserving nothing (0: now)."""
        return await self._ask(self.buckets(endpoint, data), max(spare, 0), take=False)

    async def admit(self, key: str, bucket: Bucket) -> bool:
        """Take a slot of ``bucket`` (kept at ``key`` under this token's prefix) if one is
        free now; whether one was."""
        return await self._ask([(f"{PREFIX}{self.tag}:{key}", bucket)], 0, take=True, most=0) >= 0

    async def _wait_for_chat(
        self, chat: list[tuple[str, Bucket]], endpoint: str, args: str | None
    ) -> None:
        """Take the chat's slot and wait for it; a call worth less than its wait
        (``worth``) takes nothing and raises NotAfforded."""
        most = worth_of(args)
        if most is None:
            wait = await self._take(chat)
        else:
            spare = 1 if any(bucket is self.group for _, bucket in chat) else 0
            wait = await self._take(chat, spare=spare, most=most)
            if wait < 0:
                API_CALLS.labels(endpoint, "not_afforded").inc()
                raise NotAfforded(endpoint)
        if wait > 0:
            await asyncio.sleep(wait)

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
        chat, overall = self.split(buckets)
        how = rate_limit_args if rate_limit_args is not None else replies.get()
        for attempt in range(self.max_retries + 1):
            # The chat's slot first, then the overall one once it comes: a call waiting
            # for its chat holds no slot of the token's budget meanwhile.
            if attempt > 0 or how not in (RESERVED, TAKEN):
                await self._wait_for_chat(chat, endpoint, how)
            if attempt > 0 or how != TAKEN:
                wait = await self._take(overall)
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
