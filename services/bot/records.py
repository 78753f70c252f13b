"""The bot's door to the SQL records (services/records/queries.py): chat settings for /new,
and the statistics, boards and forgetting behind /stats, /top and /forgetme.

[decision] The queries are synchronous (services/records/README.md "The bot's API"); each
call here runs one in a thread, so a handler never blocks the bot's event loop.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from sqlalchemy import Engine

from services.records import queries
from services.records.prepare import prepare_database
from services.records.queries import (
    ArchivedGame,
    BoardEntry,
    BoardOrder,
    ChatSettings,
    Forgotten,
    UserStats,
)


class Records:
    """One process's records."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def from_url(cls, url: str) -> Records:
        """The records at ``url``; a SQLite file without tables yet is migrated first, as the
        worker does, so the default ``sqlite:///./uno.db`` works out of the box."""
        return cls(prepare_database(url))

    async def user_stats(self, user_id: int, chat_id: int | None) -> UserStats | None:
        return await asyncio.to_thread(queries.user_stats, self.engine, user_id, chat_id=chat_id)

    async def leaderboard(
        self, variant: str, by: BoardOrder, chat_id: int | None, limit: int = 10
    ) -> list[BoardEntry]:
        return await asyncio.to_thread(
            queries.leaderboard, self.engine, variant, by=by, chat_id=chat_id, limit=limit
        )

    async def last_variant(self, chat_id: int) -> str | None:
        return await asyncio.to_thread(queries.last_variant, self.engine, chat_id)

    async def last_finished_game(self, chat_id: int, topic_id: int) -> str | None:
        return await asyncio.to_thread(queries.last_finished_game, self.engine, chat_id, topic_id)

    async def archived_game(self, game_id: str) -> ArchivedGame | None:
        return await asyncio.to_thread(queries.archived_game, self.engine, game_id)

    async def forget_user(self, user_id: int) -> Forgotten:
        return await asyncio.to_thread(queries.forget_user, self.engine, user_id)

    async def chat_settings(self, chat_id: int, topic_id: int) -> ChatSettings:
        return await asyncio.to_thread(queries.chat_settings, self.engine, chat_id, topic_id)

    async def save_language(self, chat_id: int, topic_id: int, language: str) -> None:
        """The chat's (``topic_id`` 0) or a forum topic's own language for its games."""
        current = await self.chat_settings(chat_id, topic_id)
        await self.save_chat_settings(chat_id, topic_id, replace(current, language=language))

    async def save_chat_settings(
        self, chat_id: int, topic_id: int, settings: ChatSettings
    ) -> ChatSettings:
        return await asyncio.to_thread(
            queries.save_chat_settings, self.engine, chat_id, settings, topic_id
        )
