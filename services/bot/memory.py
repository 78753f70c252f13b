"""The bot's own memory, in Redis under ``bot:``: which message is a game's table and
whose hand, what was last shown there, the recent moves in words, the chat's language, a
turn's reminder in a player's private chat.

Replicas share it and restarts lose nothing. It never holds game state: the engine does.
Every key of a game expires a day after its last write (``TTL_SECONDS``), as the engine's
own records do.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from redis.asyncio import Redis
from redis.exceptions import LockError

PREFIX = "bot:"
#: A game memory's field of a player's app language: this and their user id.
APP_LANGUAGE = "al:"
TTL_SECONDS = 86_400
#: Webhook update ids are remembered in bitmaps of 2**16 ids each (``first_update``).
UPDATE_BLOCK_BITS = 16
# How long one hand edit may hold its lock: longer than the private chat's budget makes an
# edit wait (services/bot/outbox.py), short enough that a crashed holder is soon forgotten.
HAND_EDIT_SECONDS = 10

# Render by version (publisher.py): a replica that takes a game's render lock renders the
# game's current state until no newer version has been seen; the others only record that
# they saw one. Both steps are atomic, so a version seen while the lock is held is never
# left unrendered.
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
# KEYS[1]: a chat's games; ARGV: topic, game id. The topic's game is forgotten only if it is
# still this one (a newer game of the topic stays).
_FORGET = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
"""

# A turn's reminder in a player's private chat, kept in the game's memory so that whichever
# replica renders the game's next version removes it (README "Rendering", 7).
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
        user, message, version = _text(value).split(":")
        return Nudge(int(user), int(message), int(version))


class HandMessage(NamedTuple):
    """A player's hand in their private chat: its message, what it last showed (a
    fingerprint), and the language of the player's Telegram app when they opened it (kept
    with the hand, the one place it is needed, rather than per person: see
    locales/preferences.py)."""

    message_id: int
    fingerprint: str
    language: str


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _hand(value: bytes | str) -> HandMessage:
    parts = _text(value).split(":", 2)
    if len(parts) == 2:  # written before hands kept their app's language
        parts = [parts[0], "", parts[1]]
    message, language, fingerprint = parts
    return HandMessage(int(message), fingerprint, language)


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


def _pairs(raw: list[Any]) -> dict[bytes, bytes]:
    """A Lua script's HGETALL (a flat list) as redis-py's own HGETALL answer."""
    return dict(zip(raw[::2], raw[1::2], strict=True))


def _game_memory(game_id: str, raw: Mapping[Any, bytes | str]) -> GameMemory | None:
    if not raw or b"chat" not in raw:
        return None
    fields = {_text(k): _text(v) for k, v in raw.items()}
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
    )


def _move_pairs(version: int, events: list[dict[str, Any]]) -> list[Any]:
    """The (score, member) pairs of the last moves' sorted set for the events of the write
    that made ``version`` (its first 99), by version and order."""
    pairs: list[Any] = []
    for i, e in enumerate(events[:99]):
        pairs += [version * 100 + i, json.dumps([version, i, e], separators=(",", ":"))]
    return pairs


class Memory:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._seen_and_lock = redis.register_script(_SEEN_AND_LOCK)
        self._note_entry = redis.register_script(_NOTE_ENTRY)
        self._unlock_if_done = redis.register_script(_UNLOCK_IF_DONE)
        self._forget = redis.register_script(_FORGET)
        self._add_moves = redis.register_script(_ADD_MOVES)
        self._keep_nudge = redis.register_script(_KEEP_NUDGE)
        self._mark_noted = redis.register_script(_MARK_NOTED)
        self._take_nudge = redis.register_script(_TAKE_NUDGE)

    # -- keys ---------------------------------------------------------------------------------

    @staticmethod
    def game_key(game_id: str) -> str:
        return f"{PREFIX}game:{game_id}"

    @staticmethod
    def hands_key(game_id: str) -> str:
        return f"{PREFIX}hands:{game_id}"

    @staticmethod
    def lock_key(game_id: str) -> str:
        return f"{PREFIX}lock:{game_id}"

    @staticmethod
    def chat_key(chat_id: int) -> str:
        """A chat's games in play: a hash of forum topic (0 outside forums) → game id. One
        key per chat, not per topic, so that a member leaving finds every game of theirs in
        one read."""
        return f"{PREFIX}chat:{chat_id}"

    # -- a game -------------------------------------------------------------------------------

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
        key = self.game_key(game_id)
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
            pipe.hset(self.chat_key(chat_id), str(topic_id), game_id)
            pipe.expire(self.chat_key(chat_id), TTL_SECONDS)
            await pipe.execute()

    async def game(self, game_id: str) -> GameMemory | None:
        return _game_memory(game_id, await self.redis.hgetall(self.game_key(game_id)))

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
            *_move_pairs(version, events),
        ]
        raw = await self._note_entry(
            keys=[self.game_key(game_id), self.moves_key(game_id)], args=args
        )
        return _game_memory(game_id, _pairs(raw))

    async def mark_noted(self, game_id: str, version: int) -> None:
        """The entry of ``version`` is noted whole: its moves, and its notices posted."""
        await self._mark_noted(keys=[self.game_key(game_id)], args=[version])

    async def noted_version(self, game_id: str) -> int:
        """The newest version whose entry is noted whole (-1: none yet)."""
        value = await self.redis.hget(self.game_key(game_id), "noted")
        return int(value) if value else -1

    async def update_game(self, game_id: str, **fields: Any) -> None:
        key = self.game_key(game_id)
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
            pipe.hincrby(self.game_key(game_id), "scrolled", 1)
            if user_id is not None and app_language:
                pipe.hset(self.game_key(game_id), f"{APP_LANGUAGE}{user_id}", app_language)
            await pipe.execute()

    @staticmethod
    def superseded_key(game_id: str) -> str:
        return f"{PREFIX}old:{game_id}"

    async def supersede_table(self, game_id: str, message_id: int) -> None:
        """``message_id`` is no longer the game's table (a newer one is below it): kept to
        be deleted when the group's budget allows."""
        key = self.superseded_key(game_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.sadd(key, str(message_id))
            pipe.expire(key, TTL_SECONDS)
            await pipe.execute()

    async def table_posted(
        self, game_id: str, message_id: int, above: int | None, **fields: Any
    ) -> bool:
        """The game's table is now ``message_id`` (with ``fields`` of its memory), posted
        below ``above``, which it supersedes, in one call; whether superseded tables wait
        to be deleted."""
        old = self.superseded_key(game_id)
        key = self.game_key(game_id)
        mapping: Any = {**fields, "table": message_id, "scrolled": 0}
        async with self.redis.pipeline(transaction=True) as pipe:
            if above is not None:
                pipe.sadd(old, str(above))
                pipe.expire(old, TTL_SECONDS)
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, TTL_SECONDS)
            pipe.scard(old)
            found = await pipe.execute()
        return bool(found[-1])

    async def superseded(self, game_id: str) -> list[int]:
        """The game's earlier tables not yet deleted (at most 100: one deleteMessages)."""
        return sorted(int(m) for m in await self.redis.smembers(self.superseded_key(game_id)))[
            -100:
        ]

    async def deleted(self, game_id: str, message_ids: list[int]) -> None:
        if message_ids:
            await self.redis.srem(self.superseded_key(game_id), *map(str, message_ids))

    async def forget_game(self, game_id: str, chat_id: int, topic_id: int) -> None:
        await self._forget(keys=[self.chat_key(chat_id)], args=[str(topic_id), game_id])

    async def chat_game(self, chat_id: int, topic_id: int = 0) -> str | None:
        value = await self.redis.hget(self.chat_key(chat_id), str(topic_id))
        if value is None:
            # A game begun before chats kept one hash had a key per topic; it lapses with
            # TTL_SECONDS, and this read with it.
            value = await self.redis.get(f"{self.chat_key(chat_id)}:{topic_id}")
        return _text(value) if value else None

    # -- render by version --------------------------------------------------------------------

    async def saw_version(self, game_id: str, version: int, owner: str, lock_ms: int) -> bool:
        """Record ``version`` as seen; True when this caller now holds the render lock."""
        return (await self.claim_render(game_id, version, owner, lock_ms)).held

    async def claim_render(self, game_id: str, version: int, owner: str, lock_ms: int) -> Claim:
        """Record ``version`` as seen and try the render lock, in one call (nothing is
        recorded for a version a finished render showed); the holder gets what it renders
        from with it: the game's memory and its last moves."""
        raw = await self._seen_and_lock(
            keys=[self.game_key(game_id), self.lock_key(game_id), self.moves_key(game_id)],
            args=[version, owner, lock_ms, TTL_SECONDS],
        )
        if not isinstance(raw, list):
            return Claim(shown=int(raw) < 0, held=False)
        fields, moves = raw
        parsed = [json.loads(cast(bytes, m)) for m in moves]
        return Claim(
            shown=False,
            held=True,
            game=_game_memory(game_id, _pairs(fields)),
            moves=[m[2] for m in parsed],
            move_versions=[int(m[0]) for m in parsed],
        )

    async def done_rendering(self, game_id: str, version: int, owner: str, lock_ms: int) -> bool:
        """Release the lock after showing ``version``, unless a newer one was seen meanwhile
        (then False: render again, still holding it)."""
        done = await self._unlock_if_done(
            keys=[self.game_key(game_id), self.lock_key(game_id)], args=[version, owner, lock_ms]
        )
        return bool(done)

    async def seen_version(self, game_id: str) -> int:
        """The newest version the log showed any replica (-1: none yet)."""
        value = await self.redis.hget(self.game_key(game_id), "seen")
        return int(value) if value else -1

    async def shown_version(self, game_id: str) -> int:
        """The newest version a finished render showed (-1: none yet)."""
        value = await self.redis.hget(self.game_key(game_id), "shown")
        return int(value) if value else -1

    async def drop_lock(self, game_id: str, owner: str) -> None:
        key = self.lock_key(game_id)
        if await self.redis.get(key) == owner.encode():
            await self.redis.delete(key)

    # -- private hands ------------------------------------------------------------------------

    async def hand_messages(self, game_id: str) -> dict[int, HandMessage]:
        """user id → their hand's message in their private chat."""
        raw = await self.redis.hgetall(self.hands_key(game_id))
        return {int(k): _hand(v) for k, v in raw.items()}

    async def hand_message(self, game_id: str, user_id: int) -> HandMessage | None:
        """``user_id``'s hand message in their private chat, if they have one."""
        raw = await self.redis.hget(self.hands_key(game_id), str(user_id))
        return None if raw is None else _hand(raw)

    async def set_hand_message(
        self, game_id: str, user_id: int, message_id: int, fingerprint: str, language: str = ""
    ) -> None:
        key = self.hands_key(game_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, str(user_id), f"{message_id}:{language}:{fingerprint}")
            pipe.expire(key, TTL_SECONDS)
            await pipe.execute()

    async def drop_hand_message(self, game_id: str, user_id: int) -> None:
        await self.redis.hdel(self.hands_key(game_id), str(user_id))

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

    # -- a turn's reminder ---------------------------------------------------------------------

    async def keep_nudge(self, game_id: str, nudge: Nudge) -> Nudge | bool | None:
        """Remember the reminder just sent, the game's one: False when the game has moved
        past its decision meanwhile (the caller removes it); else the one it replaced, if
        any, for the caller to remove."""
        before = await self._keep_nudge(
            keys=[self.game_key(game_id)], args=[nudge.encode(), nudge.version]
        )
        if before == -1:
            return False
        return Nudge.decode(before)

    async def take_nudge(self, game_id: str, before_version: int) -> Nudge | None:
        """The game's reminder of a decision older than ``before_version``, taken to be
        removed (by one caller only, across replicas)."""
        return Nudge.decode(
            await self._take_nudge(keys=[self.game_key(game_id)], args=[before_version])
        )

    # -- said once ----------------------------------------------------------------------------

    @staticmethod
    def once_key(what: str) -> str:
        """The key that remembers ``what`` was asked about (``first_time``)."""
        return f"{PREFIX}once:{what}"

    async def first_time(self, what: str, ttl: int = TTL_SECONDS) -> bool:
        """True the first time ``what`` is asked about (across replicas and retries)."""
        return bool(await self.redis.set(self.once_key(what), 1, nx=True, ex=ttl))

    async def first_update(self, update_id: int, ttl: int) -> bool:
        """True the first time a webhook delivers ``update_id`` (across replicas and
        Telegram's redeliveries), remembered until ``ttl`` seconds after the last update
        of its block.

        [decision] One bit an update: Telegram numbers a bot's updates one after another, so
        a bitmap per block of 65,536 ids holds them in 8 KB. A key per update cost some 90
        bytes for an hour: about 13 MB at 40 updates a second, which ``bench/telegram_load.py
        --updates webhook`` counted as 4.9 KB per live game at 100 games."""
        key = f"{PREFIX}seen:{update_id >> UPDATE_BLOCK_BITS}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.setbit(key, update_id & (2**UPDATE_BLOCK_BITS - 1), 1)
            pipe.expire(key, ttl)
            was, _ = await pipe.execute()
        return not was

    # -- the last moves, in order whichever replica saw them ---------------------------------

    @staticmethod
    def moves_key(game_id: str) -> str:
        return f"{PREFIX}moves:{game_id}"

    async def add_moves(
        self, game_id: str, version: int, events: list[dict[str, Any]], keep: int
    ) -> None:
        """Add the move events of the write that made ``version`` (fewer than 100), keeping
        those of the last ``keep`` moves (writes) whole."""
        if not events:
            return
        args: list[Any] = [keep, TTL_SECONDS, *_move_pairs(version, events)]
        await self._add_moves(keys=[self.moves_key(game_id)], args=args)

    async def drop_moves_before(self, game_id: str, version: int) -> None:
        """Forget the moves of versions before ``version`` (a new round began with it)."""
        await self.redis.zremrangebyscore(self.moves_key(game_id), "-inf", f"({version * 100}")

    async def moves(self, game_id: str, up_to: int | None = None) -> list[dict[str, Any]]:
        """The last moves (``up_to``: of versions up to that one, what a table of that
        state tells)."""
        top = "+inf" if up_to is None else f"({(up_to + 1) * 100}"
        raw = await self.redis.zrangebyscore(self.moves_key(game_id), "-inf", top)
        return [json.loads(cast(bytes, m))[2] for m in raw]

    # -- players who left the group (lobby.py "A member leaves the group") -------------------

    async def chat_games(self, chat_id: int) -> list[str]:
        """The games this bot remembered in the chat, in every forum topic (some may be over
        or forgotten: the engine says which are still on)."""
        raw = await self.redis.hvals(self.chat_key(chat_id))
        return sorted({_text(m) for m in raw})
