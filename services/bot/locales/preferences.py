"""Which language the bot speaks to whom (per person and per chat).

- **A person** (their hand, alerts, inline results, private chat): their own choice
  (``/language`` in a private chat), else the language of their Telegram app
  (``language_code``, remembered from their latest update), else the game's chat language.
- **A chat** (the table and everything posted in the group): what its admins set with
  ``/language``, else adopted from whoever created the chat's first game.

Kept in the bot's Redis without expiry (a few bytes per person or chat), except the
remembered app language, which a person's next update renews.

``note_update`` runs before every handler: it remembers the app language and loads the
person's own choice into this process (``chosen_language``), so the synchronous
``context.locale_of(user)`` honours it for the rest of the update.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from redis.asyncio import Redis

from services.bot.locales.catalog import LANGUAGES, negotiate

CHAT_KEY: Final = "bot:lang:{chat_id}"
CHOICE_KEY: Final = "bot:ulang:{user_id}"
APP_LANGUAGE_KEY: Final = "bot:uapp:{user_id}"
APP_LANGUAGE_TTL: Final = 30 * 86_400

#: People's own choices, as loaded by the latest update of each in this process.
_chosen: dict[int, str] = {}


def chosen_language(user_id: int) -> str | None:
    """The language ``user_id`` chose with /language, as of their current update."""
    return _chosen.get(user_id)


def _text(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    return text if text in LANGUAGES else None


class LanguagePreferences:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    # -- chats ------------------------------------------------------------------------------

    async def chat(self, chat_id: int) -> str | None:
        return _text(await self.redis.get(CHAT_KEY.format(chat_id=chat_id)))

    async def set_chat(self, chat_id: int, language: str) -> None:
        await self.redis.set(CHAT_KEY.format(chat_id=chat_id), _known(language))

    async def adopt_chat(self, chat_id: int, language: str) -> str:
        """The chat's language; a chat that has none takes ``language`` (its first game's
        creator's) and keeps it."""
        key = CHAT_KEY.format(chat_id=chat_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(key, _known(language), nx=True)
            pipe.get(key)
            _, stored = await pipe.execute()
        return _text(stored) or language

    # -- people -----------------------------------------------------------------------------

    async def set_choice(self, user_id: int, language: str | None) -> None:
        """Speak ``language`` to ``user_id`` from now on; None: follow their app again."""
        key = CHOICE_KEY.format(user_id=user_id)
        if language is None:
            await self.redis.delete(key)
            _chosen.pop(user_id, None)
        else:
            await self.redis.set(key, _known(language))
            _chosen[user_id] = language

    async def note_update(self, user_id: int, language_code: str | None) -> None:
        """Remember the app language of ``user_id`` and load their own choice."""
        async with self.redis.pipeline(transaction=False) as pipe:
            if language_code:
                pipe.set(
                    APP_LANGUAGE_KEY.format(user_id=user_id),
                    negotiate(language_code),
                    ex=APP_LANGUAGE_TTL,
                )
            pipe.get(CHOICE_KEY.format(user_id=user_id))
            *_, choice = await pipe.execute()
        chosen = _text(choice)
        if chosen is None:
            _chosen.pop(user_id, None)
        else:
            _chosen[user_id] = chosen

    async def person(self, user_id: int, *, fallback: str) -> str:
        """The language for what ``user_id`` alone reads; ``fallback`` (the chat's) when
        they never chose one and their app's is unknown."""
        return (await self.people([user_id], fallback=fallback))[user_id]

    async def people(self, user_ids: Sequence[int], *, fallback: str) -> dict[int, str]:
        """``person`` of each of ``user_ids``, in one read."""
        if not user_ids:
            return {}
        keys = [
            key.format(user_id=user_id)
            for user_id in user_ids
            for key in (CHOICE_KEY, APP_LANGUAGE_KEY)
        ]
        values = await self.redis.mget(keys)
        return {
            user_id: _text(values[2 * n]) or _text(values[2 * n + 1]) or fallback
            for n, user_id in enumerate(user_ids)
        }


def _known(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unsupported language {language!r}")
    return language
