"""Render by version (intake.py): a replica that takes a game's render lock renders the
game's current state until no newer version has been seen; the others only record that
they saw one. Both steps are atomic, so a version seen while the lock is held is never
left unrendered.

Keys: ``bot:lock:{game}`` (the lock: its holder's token, expiring by itself); the ``seen``
(the newest version the log showed any replica) and ``shown`` (the newest a finished render
showed) fields of ``bot:game:{game}``. Taking the lock also reads the game's memory and its
last moves (moves.py), which the render needs first.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, cast

from services.bot.memory.games import GameMemory, game_memory
from services.bot.memory.moves import moves_key
from services.bot.memory.store import PREFIX, TTL_SECONDS, Store, game_key, pairs

# KEYS: the game's memory, its render lock, its last moves; ARGV: the version, the owner,
# the lock's ms, the memory's TTL. Answers -1 when a finished render showed the version
# already (nothing recorded), 0 when another render holds the game, else what the holder
# renders from: the game's memory and its last moves, read in the same call.
_SEEN_AND_LOCK = """
local shown = tonumber(redis.call('HGET', KEYS[1], 'shown') or '-1')
if shown >= tonumber(ARGV[1]) then return -1 end
local seen = tonumber(redis.call('HGET', KEYS[1], 'seen') or '-1')
if tonumber(ARGV[1]) > seen then redis.call('HSET', KEYS[1], 'seen', ARGV[1]) end
redis.call('EXPIRE', KEYS[1], ARGV[4])
if not redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then return 0 end
return {redis.call('HGETALL', KEYS[1]), redis.call('ZRANGE', KEYS[3], 0, -1)}
"""
# KEYS: the game's memory, its render lock; ARGV: the version shown, the owner, the lock's
# ms. Answers 0 (the lock kept) when a newer version was seen meanwhile, else 1.
_UNLOCK_IF_DONE = """
local shown = tonumber(redis.call('HGET', KEYS[1], 'shown') or '-1')
if tonumber(ARGV[1]) > shown then redis.call('HSET', KEYS[1], 'shown', ARGV[1]) end
local seen = tonumber(redis.call('HGET', KEYS[1], 'seen') or '-1')
if seen > tonumber(ARGV[1]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  return 0
end
if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
return 1
"""


def lock_key(game_id: str) -> str:
    return f"{PREFIX}lock:{game_id}"


class Claim(NamedTuple):
    """What trying a game's render lock gave: ``shown``, a finished render showed the
    version already; ``held``, this caller holds the lock, and renders from ``game`` and
    ``moves`` as they were when it took it."""

    shown: bool
    held: bool
    game: GameMemory | None = None
    moves: list[dict[str, Any]] = []
    #: the version of each of ``moves``
    move_versions: list[int] = []

    def moves_up_to(self, version: int) -> list[dict[str, Any]]:
        """The last moves of versions up to ``version``: what a table of that state tells."""
        return [m for v, m in zip(self.move_versions, self.moves, strict=True) if v <= version]


class RenderLock(Store):
    lock_key = staticmethod(lock_key)

    async def saw_version(self, game_id: str, version: int, owner: str, lock_ms: int) -> bool:
        """Record ``version`` as seen; True when this caller now holds the render lock."""
        return (await self.claim_render(game_id, version, owner, lock_ms)).held

    async def claim_render(self, game_id: str, version: int, owner: str, lock_ms: int) -> Claim:
        """Record ``version`` as seen and try the render lock, in one call (nothing is
        recorded for a version a finished render showed); the holder gets what it renders
        from with it: the game's memory and its last moves."""
        raw = await self.script(_SEEN_AND_LOCK)(
            keys=[game_key(game_id), lock_key(game_id), moves_key(game_id)],
            args=[version, owner, lock_ms, TTL_SECONDS],
        )
        if not isinstance(raw, list):
            return Claim(shown=int(raw) < 0, held=False)
        fields, moves = raw
        parsed = [json.loads(cast(bytes, m)) for m in moves]
        return Claim(
            shown=False,
            held=True,
            game=game_memory(game_id, pairs(fields)),
            moves=[m[2] for m in parsed],
            move_versions=[int(m[0]) for m in parsed],
        )

    async def done_rendering(self, game_id: str, version: int, owner: str, lock_ms: int) -> bool:
        """Release the lock after showing ``version``, unless a newer one was seen meanwhile
        (then False: render again, still holding it)."""
        done = await self.script(_UNLOCK_IF_DONE)(
            keys=[game_key(game_id), lock_key(game_id)], args=[version, owner, lock_ms]
        )
        return bool(done)

    async def seen_version(self, game_id: str) -> int:
        """The newest version the log showed any replica (-1: none yet)."""
        value = await self.redis.hget(game_key(game_id), "seen")
        return int(value) if value else -1

    async def shown_version(self, game_id: str) -> int:
        """The newest version a finished render showed (-1: none yet)."""
        value = await self.redis.hget(game_key(game_id), "shown")
        return int(value) if value else -1

    async def take_lock(self, game_id: str, owner: str, lock_ms: int) -> bool:
        """The render lock alone, whatever version was shown (a write of the table that no
        new version asks for: a quiet table's timer, a person closing the app)."""
        return bool(await self.redis.set(lock_key(game_id), owner, nx=True, px=lock_ms))

    async def drop_lock(self, game_id: str, owner: str) -> None:
        key = lock_key(game_id)
        if await self.redis.get(key) == owner.encode():
            await self.redis.delete(key)
