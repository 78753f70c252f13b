"""The bot's own memory, in Redis under ``bot:``: which message is a game's table and
whose hand, what was last shown there, the recent moves in words, a game's render lock, a
turn's reminder in a player's private chat, what was said once.

Replicas share it and restarts lose nothing. It never holds game state: the engine does.
Each family of keys is a module of its own, which names its keys and says what they hold:

| module | keys |
|---|---|
| ``games.py`` | ``bot:game:{game}`` (its chat, title, language, table, …) |
| ``chats.py`` | ``bot:chat:{chat}`` (the chat's games in play, by topic) |
| ``render_lock.py`` | ``bot:lock:{game}``, and the ``seen``/``shown`` versions |
| ``moves.py`` | ``bot:moves:{game}`` (the last moves), and the ``noted`` version |
| ``superseded.py`` | ``bot:old:{game}`` (tables waiting to be deleted) |
| ``hands.py`` | ``bot:hands:{game}``, ``bot:handedit:{game}:{user}`` |
| ``nudges.py`` | the ``nudge`` field of ``bot:game:{game}`` |
| ``once.py`` | ``bot:once:{what}``, ``bot:seen:{block}`` |
| ``quiet.py`` | ``bot:quiet:{game}``, and the ``wdue`` field of ``bot:game:{game}`` |

``Memory`` is all of them on one client, the one object handlers and the redraw path hold.
"""

from __future__ import annotations

from redis.asyncio import Redis

from services.bot.memory.chats import ChatGames
from services.bot.memory.games import APP_LANGUAGE, GameMemory, Games
from services.bot.memory.hands import HAND_EDIT_SECONDS, HandMessage, HandMessages
from services.bot.memory.moves import LastMoves
from services.bot.memory.nudges import Nudge, TurnNudges
from services.bot.memory.once import UPDATE_BLOCK_BITS, SaidOnce
from services.bot.memory.quiet import QuietTables
from services.bot.memory.render_lock import Claim, RenderLock
from services.bot.memory.store import PREFIX, TTL_SECONDS
from services.bot.memory.superseded import SupersededTables

__all__ = [
    "APP_LANGUAGE",
    "HAND_EDIT_SECONDS",
    "PREFIX",
    "TTL_SECONDS",
    "UPDATE_BLOCK_BITS",
    "Claim",
    "GameMemory",
    "HandMessage",
    "Memory",
    "Nudge",
]


class Memory(
    Games,
    ChatGames,
    RenderLock,
    LastMoves,
    SupersededTables,
    HandMessages,
    TurnNudges,
    SaidOnce,
    QuietTables,
):
    def __init__(self, redis: Redis) -> None:
        super().__init__(redis)
