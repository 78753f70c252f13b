"""Which language the bot speaks to whom (per person and per chat).

- **A person** (their hand, alerts, inline results, private chat): their own choice
  (``/language`` in a private chat), else the language of their Telegram app
  (``language_code`` of the update at hand; a private hand keeps the one it was opened
  with, services/bot/memory/hands.py ``HandMessage``), else the game's chat language.
- **A chat** (the table and everything posted in the group): what its admins set with
  ``/language``, else adopted from whoever created the chat's first game.

Choices are kept in the bot's Redis without expiry (a few bytes per person or chat who
chose). [decision] The app language is not remembered per person: it is needed only for a
private hand rendered from the event log, with no update at hand, so it is kept with that
hand. A key per person who ever played cost more of the bot's Redis than a whole game's
memory, and a write on every update.

``note_update`` runs before every handler: it loads the person's own choice into this
process (``chosen_language``), so the synchronous ``context.locale_of(user)`` honours it
for the rest of the update.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from redis.asyncio import Redis

from services.presentation.locales.catalog import LANGUAGES

CHAT_KEY: Final = "bot:lang:{chat_id}"
CHOICE_KEY: Final = "bot:ulang:{user_id}"

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

    async def note_update(self, user_id: int) -> None:
        """Load the own choice of ``user_id`` into this process."""
        chosen = _text(await self.redis.get(CHOICE_KEY.format(user_id=user_id)))
        if chosen is None:
            _chosen.pop(user_id, None)
        else:
            _chosen[user_id] = chosen

    async def person(self, user_id: int, *, fallback: str) -> str:
        """The language for what ``user_id`` alone reads: their choice, else ``fallback``
        (their app's where known, else the chat's)."""
        return (await self.choices([user_id]))[user_id] or fallback

    async def choices(self, user_ids: Sequence[int]) -> dict[int, str | None]:
        """What each of ``user_ids`` chose with /language (None: nothing), in one read."""
        if not user_ids:
            return {}
        values = await self.redis.mget([CHOICE_KEY.format(user_id=u) for u in user_ids])
        return {user_id: _text(value) for user_id, value in zip(user_ids, values, strict=True)}


def _known(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unsupported language {language!r}")
    return language
