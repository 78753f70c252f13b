"""What the bot remembers of one game: its chat, the chat's title and language, its
table's message and what it last showed, the people's messages below it, who is frozen,
and each player's app language.

Keys: ``bot:game:{game}``, a hash; this module's fields: ``chat``, ``topic``, ``title``,
``lang``, ``table``, ``tfp`` (the table's fingerprint), ``scrolled``, ``recent``,
``frozen``, ``al:{user}`` (a player's app language). It also reads, for ``GameMemory``, the
fields other families keep there: ``nudge`` (nudges.py), ``noted`` and ``tver``
(moves.py), ``wdue`` (quiet.py). Writing a game also names it in its chat's games (chats.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from services.bot.memory.chats import chat_key
from services.bot.memory.nudges import Nudge
from services.bot.memory.store import TTL_SECONDS, Store, fields_of, game_key

#: A game memory's field of a player's app language: this and their user id.
APP_LANGUAGE = "al:"


@dataclass(frozen=True, slots=True)
class GameMemory:
    """What the bot remembers of one game."""

    game_id: str
    chat_id: int
    topic_id: int
    chat_title: str
    locale: str
    table_message: int | None
    table_fingerprint: str
    scrolled: int  # people's messages posted in the chat below the table
    recent: list[str]
    frozen: dict[int, int]  # user id → seat, for the players Dumb Fu froze (RULES.md §6)
    #: the turn's reminder in a player's private chat, while it is there
    nudge: Nudge | None = None
    #: the newest version whose log entry was noted (its moves among the last moves)
    noted: int = -1
    #: the version the table last showed
    table_version: int = -1
    #: user id → the language of their Telegram app, as their inline choices told it
    app_languages: dict[int, str] = field(default_factory=dict)
    #: the table owes a write whoever has the app open (quiet.py)
    write_due: bool = False


def game_memory(game_id: str, raw: Mapping[Any, bytes | str]) -> GameMemory | None:
    """The game's memory from its hash as read (None: a game the bot does not remember)."""
    if not raw or b"chat" not in raw:
        return None
    fields = fields_of(raw)
    table = fields.get("table")
    frozen = fields.get("frozen", "")
    return GameMemory(
        game_id=game_id,
        chat_id=int(fields["chat"]),
        topic_id=int(fields.get("topic", "0")),
        chat_title=fields.get("title", ""),
        locale=fields.get("lang", "en"),
        table_message=int(table) if table else None,
        table_fingerprint=fields.get("tfp", ""),
        scrolled=int(fields.get("scrolled", "0")),
        recent=json.loads(fields.get("recent", "[]")),
        frozen={int(u): int(s) for u, _, s in (p.partition(":") for p in frozen.split(",") if p)},
        nudge=Nudge.decode(fields.get("nudge")),
        noted=int(fields.get("noted", "-1")),
        table_version=int(fields.get("tver", "-1")),
        app_languages={
            int(k.removeprefix(APP_LANGUAGE)): v
            for k, v in fields.items()
            if k.startswith(APP_LANGUAGE)
        },
        write_due=fields.get("wdue") == "1",
    )


class Games(Store):
    game_key = staticmethod(game_key)

    async def remember_game(
        self,
        game_id: str,
        chat_id: int,
        topic_id: int,
        chat_title: str,
        locale: str,
        table_message: int | None = None,
    ) -> None:
        """A game of a chat, and (for a lobby posted by /new) its table message, in one
        write: a render never finds the game without the message that is its table."""
        key = game_key(game_id)
        fields: dict[str, str | int] = {
            "chat": chat_id,
            "topic": topic_id,
            "title": chat_title[:64],
            "lang": locale,
        }
        if table_message is not None:
            fields["table"] = table_message
        mapping: Any = fields
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, TTL_SECONDS)
            pipe.hset(chat_key(chat_id), str(topic_id), game_id)
            pipe.expire(chat_key(chat_id), TTL_SECONDS)
            await pipe.execute()

    async def game(self, game_id: str) -> GameMemory | None:
        return game_memory(game_id, await self.redis.hgetall(game_key(game_id)))

    async def update_game(self, game_id: str, **fields: Any) -> None:
        key = game_key(game_id)
        mapping: Any = {k: json.dumps(v) if isinstance(v, list) else v for k, v in fields.items()}
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, TTL_SECONDS)
            await pipe.execute()

    async def count_chat_message(
        self, game_id: str, user_id: int | None = None, app_language: str = ""
    ) -> None:
        """A message posted in the group below the table, counted; for a card chosen from
        the inline hand, its player's app language kept too (what they alone read later, a
        turn's reminder, speaks it)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(game_key(game_id), "scrolled", 1)
            if user_id is not None and app_language:
                pipe.hset(game_key(game_id), f"{APP_LANGUAGE}{user_id}", app_language)
            await pipe.execute()
