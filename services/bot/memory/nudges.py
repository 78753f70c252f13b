"""A turn's reminder in a player's private chat, kept in the game's memory so that
whichever replica renders the game's next version removes it (README "Rendering", 7).

Keys: the ``nudge`` field of ``bot:game:{game}`` ("user:message:version").
"""

from __future__ import annotations

from typing import NamedTuple

from services.bot.memory.store import Store, game_key, text

# KEYS[1]: the game's memory; ARGV: the nudge ("user:message:version"), its version. Kept
# only while no newer version has been seen (answers -1: the caller removes it itself);
# else answers the nudge it replaced ('' when none), for the caller to remove.
_KEEP_NUDGE = """
local seen = tonumber(redis.call('HGET', KEYS[1], 'seen') or '-1')
if seen > tonumber(ARGV[2]) then return -1 end
local before = redis.call('HGET', KEYS[1], 'nudge') or ''
redis.call('HSET', KEYS[1], 'nudge', ARGV[1])
return before
"""
# KEYS[1]: the game's memory; ARGV: a version. The nudge of a decision older than it is
# taken (answered and forgotten) by one caller only; nil when there is none.
_TAKE_NUDGE = """
local nudge = redis.call('HGET', KEYS[1], 'nudge')
if not nudge then return nil end
local version = tonumber(string.match(nudge, ':(%d+)$') or '-1')
if version >= tonumber(ARGV[1]) then return nil end
redis.call('HDEL', KEYS[1], 'nudge')
return nudge
"""


class Nudge(NamedTuple):
    """A turn's reminder: whose private chat, its message, the version of the decision."""

    user_id: int
    message_id: int
    version: int

    def encode(self) -> str:
        return f"{self.user_id}:{self.message_id}:{self.version}"

    @staticmethod
    def decode(value: bytes | str | None) -> Nudge | None:
        if not value:
            return None
        user, message, version = text(value).split(":")
        return Nudge(int(user), int(message), int(version))


class TurnNudges(Store):
    async def keep_nudge(self, game_id: str, nudge: Nudge) -> Nudge | bool | None:
        """Remember the reminder just sent, the game's one: False when the game has moved
        past its decision meanwhile (the caller removes it); else the one it replaced, if
        any, for the caller to remove."""
        before = await self.script(_KEEP_NUDGE)(
            keys=[game_key(game_id)], args=[nudge.encode(), nudge.version]
        )
        if before == -1:
            return False
        return Nudge.decode(before)

    async def take_nudge(self, game_id: str, before_version: int) -> Nudge | None:
        """The game's reminder of a decision older than ``before_version``, taken to be
        removed (by one caller only, across replicas)."""
        return Nudge.decode(
            await self.script(_TAKE_NUDGE)(keys=[game_key(game_id)], args=[before_version])
        )
