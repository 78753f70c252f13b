"""Telegram's flood limits: how many messages a bot may send before it gets a 429.

Telegram documents them loosely (core.telegram.org/bots/faq "My bot is hitting limits"):
no more than about one message a second in one chat, 20 messages a minute in one group, and
about 30 messages a second overall; past them it answers ``429 Too Many Requests: retry
after N``. Each limit is a token bucket (a steady rate plus a burst) keyed by the bot and the
chat, so short bursts pass as they do on Telegram and a steady stream over the rate does not.
The numbers are settings; :class:`FloodLimits` is on by default and a test may turn it off.

Edits and deletions spend the same buckets as sends (:data:`METERED_METHODS`): "the limits
for message editing are the same as for message sending ... They share the limit"
(Telegram's TDLib maintainer, tdlib/td#2592), and "You can call ``answerCallbackQuery``
without any limits, editing of the message in question is still subject to per chat limits"
(tdlib/telegram-bot-api#648). Answers to callback and inline queries spend nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

#: The Bot API methods that spend one message of the chat's bucket (and the bot's overall
#: one) per call; a call refused for another reason spends nothing.
METERED_METHODS = frozenset(
    {
        "sendMessage",
        "sendSticker",
        "sendPhoto",
        "sendAnimation",
        "sendDocument",
        "editMessageText",
        "editMessageReplyMarkup",
        "deleteMessage",
        "deleteMessages",
    }
)


@dataclass
class LimitSettings:
    """The numbers. A group bucket holds ``group_per_minute`` messages and refills over a
    minute; a private chat's holds ``private_burst`` and refills ``private_per_second``; the
    bot's overall bucket holds ``global_per_second`` and refills that many each second."""

    enabled: bool = True
    group_per_minute: float = 20.0
    private_per_second: float = 1.0
    private_burst: float = 3.0
    global_per_second: float = 30.0


@dataclass
class _Bucket:
    capacity: float
    rate: float  # tokens per second
    tokens: float
    stamp: float

    def refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait(self) -> float:
        """Seconds until one token is there (0 if one is there now)."""
        # a hair of tolerance: refills are float sums (3 s of 1/3 a second is 0.999...)
        return 0.0 if self.tokens >= 1.0 - 1e-9 else (1.0 - self.tokens) / self.rate


@dataclass
class FloodLimits:
    """Token buckets per (bot, chat) and per bot; :meth:`take` spends one message."""

    settings: LimitSettings = field(default_factory=LimitSettings)
    _buckets: dict[tuple[int, int | None], _Bucket] = field(default_factory=dict)

    def configure(self, enabled: bool, **numbers: Any) -> None:
        """Switch the limits on or off with the given numbers (Telegram's defaults for any not
        given); every bucket starts full."""
        known = {f.name for f in fields(LimitSettings)} - {"enabled"}
        unknown = set(numbers) - known
        if unknown:
            raise ValueError(f"unknown limit(s): {', '.join(sorted(unknown))}")
        for name, value in numbers.items():
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"{name} must be a positive number")
        self.settings = LimitSettings(enabled=enabled, **numbers)
        self._buckets.clear()

    def _bucket(
        self, key: tuple[int, int | None], capacity: float, rate: float, now: float
    ) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None or bucket.capacity != capacity:
            bucket = self._buckets[key] = _Bucket(capacity, rate, capacity, now)
        bucket.refill(now)
        return bucket

    def take(self, bot_id: int, chat_id: int, chat_is_private: bool, now: float) -> int:
        """Spend one message of ``bot_id`` in ``chat_id``: 0 when allowed, else the whole
        seconds to wait (``retry_after``); a refused message spends nothing."""
        s = self.settings
        if not s.enabled:
            return 0
        overall = self._bucket((bot_id, None), s.global_per_second, s.global_per_second, now)
        if chat_is_private:
            chat = self._bucket((bot_id, chat_id), s.private_burst, s.private_per_second, now)
        else:
            chat = self._bucket((bot_id, chat_id), s.group_per_minute, s.group_per_minute / 60, now)
        wait = max(overall.wait(), chat.wait())
        if wait > 0:
            return max(1, math.ceil(wait))
        overall.tokens -= 1
        chat.tokens -= 1
        return 0

    def clear(self) -> None:
        self._buckets.clear()
