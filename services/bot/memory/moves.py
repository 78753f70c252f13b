"""The last moves of a game in words, in order whichever replica saw them, and which log
entries are noted (their moves added, their notices posted).

Keys: ``bot:moves:{game}``, a sorted set of the moves (score: version * 100 + the event's
place in its write; member: ``[version, place, event]``); and the ``noted`` field of
``bot:game:{game}`` (the newest version whose entry is noted whole). Reads the ``tver``
field there (the version the table last showed: moves it has not told yet are kept).
"""

from __future__ import annotations

import json
from typing import Any, cast

from services.bot.memory.games import GameMemory, game_memory
from services.bot.memory.store import PREFIX, TTL_SECONDS, Store, game_key, pairs

# Keeps the newest ``keep`` moves (versions) of a game's last moves whole (score: version *
# 100 + the event's place in its write), and besides them every move newer than ``since``
# (the version the table last showed: moves it has not told yet) up to ``most`` in all,
# whatever order replicas add them in (an entry claimed late adds its moves and they go at
# once), and sets the key's TTL.
_KEEP_MOVES = """
local function keep_moves(key, keep, ttl, since, most)
  local scored = redis.call('ZREVRANGE', key, 0, -1, 'WITHSCORES')
  local versions, last = 0, nil
  for i = 2, #scored, 2 do
    local version = math.floor(tonumber(scored[i]) / 100)
    if version ~= last then
      versions, last = versions + 1, version
      if versions > keep and (version <= since or versions > most) then
        redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. ((version + 1) * 100))
        break
      end
    end
  end
  redis.call('EXPIRE', key, ttl)
end
"""
# KEYS: the game's memory, its last moves; ARGV: the score below which moves are dropped
# (-1: none; else a new round began), the moves to keep, their TTL, the most moves kept, the
# entry's version and whether to count it noted now (1; 0: its notices are posted first),
# then (score, member) pairs. Nothing is written for a game the bot does not remember;
# answers its memory (empty then).
_NOTE_ENTRY = (
    _KEEP_MOVES
    + """
if redis.call('HEXISTS', KEYS[1], 'chat') == 0 then return {} end
if tonumber(ARGV[1]) >= 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
end
if #ARGV > 6 then
  redis.call('ZADD', KEYS[2], unpack(ARGV, 7))
  local since = tonumber(redis.call('HGET', KEYS[1], 'tver') or '-1')
  keep_moves(KEYS[2], tonumber(ARGV[2]), ARGV[3], since, tonumber(ARGV[4]))
end
if ARGV[6] == '1' then
  local noted = tonumber(redis.call('HGET', KEYS[1], 'noted') or '-1')
  if tonumber(ARGV[5]) > noted then redis.call('HSET', KEYS[1], 'noted', ARGV[5]) end
end
return redis.call('HGETALL', KEYS[1])
"""
)
# KEYS[1]: a game's memory; ARGV[1]: a version whose entry is now fully noted.
_MARK_NOTED = """
local noted = tonumber(redis.call('HGET', KEYS[1], 'noted') or '-1')
if tonumber(ARGV[1]) > noted then redis.call('HSET', KEYS[1], 'noted', ARGV[1]) end
return 1
"""
# KEYS[1]: a game's last moves; ARGV: the moves to keep, the key's TTL, then (score,
# member) pairs.
_ADD_MOVES = (
    _KEEP_MOVES
    + """
redis.call('ZADD', KEYS[1], unpack(ARGV, 3))
keep_moves(KEYS[1], tonumber(ARGV[1]), ARGV[2], 2^53, tonumber(ARGV[1]))
return 1
"""
)


def moves_key(game_id: str) -> str:
    return f"{PREFIX}moves:{game_id}"


def move_pairs(version: int, events: list[dict[str, Any]]) -> list[Any]:
    """The (score, member) pairs of the last moves' sorted set for the events of the write
    that made ``version`` (its first 99), by version and order."""
    found: list[Any] = []
    for i, e in enumerate(events[:99]):
        found += [version * 100 + i, json.dumps([version, i, e], separators=(",", ":"))]
    return found


class LastMoves(Store):
    moves_key = staticmethod(moves_key)

    async def note_entry(
        self,
        game_id: str,
        version: int,
        events: list[dict[str, Any]],
        keep: int,
        *,
        most: int | None = None,
        new_round: bool = False,
        noted: bool = True,
    ) -> GameMemory | None:
        """One entry of the event log, in one call: its moves added to the last moves (the
        newest ``keep`` moves kept whole, and those the table has not told yet up to
        ``most`` in all; ``new_round``: the moves of the versions before it dropped first),
        the entry counted as noted (``noted``; else ``mark_noted`` once its notices are
        posted), and the game's memory read; None (and nothing written) for a game the bot
        does not remember."""
        args: list[Any] = [
            version * 100 if new_round else -1,
            keep,
            TTL_SECONDS,
            keep if most is None else most,
            version,
            1 if noted else 0,
            *move_pairs(version, events),
        ]
        raw = await self.script(_NOTE_ENTRY)(
            keys=[game_key(game_id), moves_key(game_id)], args=args
        )
        return game_memory(game_id, pairs(raw))

    async def mark_noted(self, game_id: str, version: int) -> None:
        """The entry of ``version`` is noted whole: its moves, and its notices posted."""
        await self.script(_MARK_NOTED)(keys=[game_key(game_id)], args=[version])

    async def noted_version(self, game_id: str) -> int:
        """The newest version whose entry is noted whole (-1: none yet)."""
        value = await self.redis.hget(game_key(game_id), "noted")
        return int(value) if value else -1

    async def add_moves(
        self, game_id: str, version: int, events: list[dict[str, Any]], keep: int
    ) -> None:
        """Add the move events of the write that made ``version`` (fewer than 100), keeping
        those of the last ``keep`` moves (writes) whole."""
        if not events:
            return
        args: list[Any] = [keep, TTL_SECONDS, *move_pairs(version, events)]
        await self.script(_ADD_MOVES)(keys=[moves_key(game_id)], args=args)

    async def drop_moves_before(self, game_id: str, version: int) -> None:
        """Forget the moves of versions before ``version`` (a new round began with it)."""
        await self.redis.zremrangebyscore(moves_key(game_id), "-inf", f"({version * 100}")

    async def moves(self, game_id: str, up_to: int | None = None) -> list[dict[str, Any]]:
        """The last moves (``up_to``: of versions up to that one, what a table of that
        state tells)."""
        top = "+inf" if up_to is None else f"({(up_to + 1) * 100}"
        raw = await self.redis.zrangebyscore(moves_key(game_id), "-inf", top)
        return [json.loads(cast(bytes, m))[2] for m in raw]
