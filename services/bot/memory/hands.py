"""Which message in each player's private chat is their hand, what it last showed, and
the one right to edit it.

Keys: ``bot:hands:{game}``, a hash of user id → ``message:language:fingerprint``;
``bot:handedit:{game}:{user}``, the lock one edit of that hand holds.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import NamedTuple

from redis.exceptions import LockError

from services.bot.memory.store import PREFIX, TTL_SECONDS, Store, text

# How long one hand edit may hold its lock: longer than the private chat's budget makes an
# edit wait (services/bot/outbox.py), short enough that a crashed holder is soon forgotten.
HAND_EDIT_SECONDS = 10


class HandMessage(NamedTuple):
    """A player's hand in their private chat: its message, what it last showed (a
    fingerprint), and the language of the player's Telegram app when they opened it (kept
    with the hand, the one place it is needed, rather than per person: see
    services/language_preferences.py)."""

    message_id: int
    fingerprint: str
    language: str


def _hand(value: bytes | str) -> HandMessage:
    parts = text(value).split(":", 2)
    if len(parts) == 2:  # written before hands kept their app's language
        parts = [parts[0], "", parts[1]]
    message, language, fingerprint = parts
    return HandMessage(int(message), fingerprint, language)


def hands_key(game_id: str) -> str:
    return f"{PREFIX}hands:{game_id}"


class HandMessages(Store):
    hands_key = staticmethod(hands_key)

    async def hand_messages(self, game_id: str) -> dict[int, HandMessage]:
        """user id → their hand's message in their private chat."""
        raw = await self.redis.hgetall(hands_key(game_id))
        return {int(k): _hand(v) for k, v in raw.items()}

    async def hand_message(self, game_id: str, user_id: int) -> HandMessage | None:
        """``user_id``'s hand message in their private chat, if they have one."""
        raw = await self.redis.hget(hands_key(game_id), str(user_id))
        return None if raw is None else _hand(raw)

    async def set_hand_message(
        self, game_id: str, user_id: int, message_id: int, fingerprint: str, language: str = ""
    ) -> None:
        key = hands_key(game_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, str(user_id), f"{message_id}:{language}:{fingerprint}")
            pipe.expire(key, TTL_SECONDS)
            await pipe.execute()

    async def drop_hand_message(self, game_id: str, user_id: int) -> None:
        await self.redis.hdel(hands_key(game_id), str(user_id))

    @contextlib.asynccontextmanager
    async def editing_hand(self, game_id: str, user_id: int, *, wait: bool) -> AsyncIterator[bool]:
        """Hold the one right to edit ``user_id``'s hand message, across replicas: the event
        log's refresh and a stale press's refresh would otherwise both compare against the
        same stored fingerprint and both send the same edit. Yields False when ``wait`` is
        off and another edit holds it. The lock expires by itself, so a replica killed
        mid-edit blocks nobody for long; a waiter that outwaits it goes on unlocked rather
        than lose the change."""
        lock = self.redis.lock(
            f"{PREFIX}handedit:{game_id}:{user_id}",
            timeout=HAND_EDIT_SECONDS,
            blocking=wait,
            blocking_timeout=HAND_EDIT_SECONDS,
        )
        held = await lock.acquire()
        try:
            yield held or wait
        finally:
            if held:
                with contextlib.suppress(LockError):
                    await lock.release()
