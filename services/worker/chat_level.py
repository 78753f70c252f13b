"""Which AI level stands in for a player whose time ran out: the chat's own choice.

A chat (or forum topic) may pick the stand-in's level in /settings (the records' chat
settings, ``stand_in``); a chat that picked nothing gets the worker's
``UNO_STAND_IN_POLICY`` (``strong``). The game's chat comes from the engine
(``GET /v1/games/{id}``), the choice from the records database.

[decision] When the chat's choice cannot be read (the database or the engine does not
answer), the worker's own level decides: a timed-out player must not wait for a setting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from services.engine.client import EngineClient, EngineError
from services.records.queries import chat_settings

log = logging.getLogger(__name__)

#: The chat's stand-in level for a game (``None``: the chat chose none).
ChatLevel = Callable[[str], Awaitable[str | None]]


def chat_level_lookup(client: EngineClient, records: Engine) -> ChatLevel:
    """The lookup of a game's chat's stand-in level, through ``client`` and ``records``."""

    async def level(game_id: str) -> str | None:
        try:
            game = await client.game(game_id)
            settings = await asyncio.to_thread(chat_settings, records, game.chat_id, game.topic_id)
        except (EngineError, SQLAlchemyError, OSError) as exc:
            log.warning("the stand-in level of game %s is unknown (%r)", game_id, exc)
            return None
        return settings.stand_in

    return level
