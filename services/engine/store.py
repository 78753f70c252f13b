"""Game state in Redis: one key per game, every write one atomic compare-and-set.

Keys (README.md "State in Redis" and "Timers" describe them for the other services):

``uno:game:{gid}``              ``"{version}|"`` + the record's JSON, deflated (``encode``):
                                state, seats, options, chat, the UNO window, recent action ids
``uno:eventlog:{shard}``        the event log (event_log.py): a few Redis Streams shared by
                                all games, one entry per write that published events, in
                                the game's shard: fields ``g`` (game id), ``v`` (version),
                                ``e`` (the write's events, deflated). An event's own id is
                                ``{version}-{index in e}``; ``to`` = an event's only seat
``uno:chat:{chat_id}:{topic}``  the chat's (and forum topic's) live game id
``uno:user:{user_id}:games``    set of the live games the person holds a seat in (one
                                not left): their "current games" (the Mini App's menu)
``uno:deadlines``               sorted set shared with the worker: ``{gid}|turn|{version}``,
                                ``{gid}|uno|{version}`` and ``{gid}|nudge|{version}``,
                                score = unix seconds due

Every write goes through one Lua script (``WRITE_LUA``), so the version check, the state,
the event log entry, the deadlines, the chat pointer and the players' games lists change
together or not at all. The version
sits in front of the JSON so the script compares it with ``GETRANGE`` instead of decoding
the record. Deadline scores come from the Redis server's clock (``TIME``), the clock the
worker compares them with.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import orjson
from redis.asyncio import Redis

from services.engine.game_record import GameRecord
from services.engine.record_dictionary import RECORD_DICTIONARY
from services.engine.wire.deadline_keys import CLAIMED_KEY, DEADLINES_KEY
from services.engine.wire.event_log import decode_events, encode_events, log_key, shard_of

#: Games whose last decoded record a process keeps (see ``GameStore.load``).
DECODED_CACHE_SIZE = 4096

#: [decision] Most entries of a shard that one per-game read of the event log looks
#: through, newest first. A game's entries are mixed with the other games of its shard, so
#: reading back to an old version means scanning; this bounds that scan (a few MB at
#: worst) for a game quiet for long or history the log no longer keeps. Twice the default
#: cap of a shard (``UNO_EVENT_LOG_MAXLEN``), so by default it reaches everything kept.
LOG_SCAN_LIMIT = 20_000
#: Entries asked for by the first page of such a read (a duplicate action's write is
#: usually among the newest), doubled for each further page up to ``LOG_PAGE_MAX``.
LOG_PAGE_FIRST = 64
LOG_PAGE_MAX = 2048


def game_key(game_id: str) -> str:
    return f"uno:game:{game_id}"


def chat_key(chat_id: int, topic_id: int) -> str:
    return f"uno:chat:{chat_id}:{topic_id}"


def user_games_key(user_id: int) -> str:
    return f"uno:user:{user_id}:games"


def seated_users(record: GameRecord | None) -> frozenset[int]:
    """The people a game is one of the current games of: humans holding a seat they have
    not left, while the game is live."""
    if record is None or not record.status.live:
        return frozenset()
    return frozenset(s.user_id for s in record.seats if s.user_id is not None and not s.left)


# KEYS: game, the game's event log shard, deadlines, chat, claimed deadlines, then one
#       games list per person whose list this write touches (``uno:user:{uid}:games``)
# ARGV: 1 expected version (0: the game must not exist yet), 2 new version, 3 value,
#       4 ttl, 5 game id, 6 turn delay ('' none), 7 uno delay ('' none),
#       8 version of a UNO member to drop ('' none), 9 chat op (claim|keep|release),
#       10 the shard's cap (entries), 11 the write's events, encoded ('' none),
#       12 seconds of writes the shard keeps, 13 '1': the decision owed is the one owed
#       before, so the turn deadline keeps its due time (due now if a worker has claimed
#       it already); the turn delay applies only when there was none
#       14 one character per games list (KEYS[6] on): '+' the game is one of theirs (its
#       expiry follows the game's), '-' it no longer is
#       15 seconds after which the human owing the new version's decision is reminded of it
#       ('' none); the reminder of the version replaced is dropped either way
# The shard keeps the writes of the last ARGV[12] seconds (MINID: entry ids are the
# server's milliseconds), and never more than about ARGV[10] entries (MAXLEN), whichever
# is less. Both trim by whole nodes ('~'): a node's memory is freed only once all of its
# entries are gone anyway, so the entries it still holds cost nothing and stay readable.
# The shard is shared by many games and never expires; the two bounds hold it instead.
# Returns {1, version} written, {0, current} stale, {-1, 0} no such game, {-2, gid} chat taken.
WRITE_LUA = """
local expected = tonumber(ARGV[1])
local head = redis.call('GETRANGE', KEYS[1], 0, 24)
if head == '' then
  if expected ~= 0 then return {-1, 0} end
else
  local current = tonumber(string.match(head, '^(%d+)|'))
  if current ~= expected then return {0, current} end
end
local ttl = tonumber(ARGV[4])
local gid = ARGV[5]
local chat_op = ARGV[9]
if chat_op == 'claim' then
  local other = redis.call('GET', KEYS[4])
  if other then return {-2, other} end
  redis.call('SET', KEYS[4], gid, 'EX', ttl)
elseif chat_op == 'keep' then
  if redis.call('GET', KEYS[4]) == gid then redis.call('EXPIRE', KEYS[4], ttl) end
elseif chat_op == 'release' then
  if redis.call('GET', KEYS[4]) == gid then redis.call('DEL', KEYS[4]) end
end
local v = ARGV[2]
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
if ARGV[11] ~= '' then
  local oldest = string.format('%.0f', math.floor((t - tonumber(ARGV[12])) * 1000))
  redis.call('XADD', KEYS[2], 'MINID', '~', oldest, '*', 'g', gid, 'v', v, 'e', ARGV[11])
  if redis.call('XLEN', KEYS[2]) > tonumber(ARGV[10]) then
    redis.call('XTRIM', KEYS[2], 'MAXLEN', '~', ARGV[10])
  end
end
redis.call('SET', KEYS[1], ARGV[3], 'EX', ttl)
local lists = ARGV[14]
for i = 1, #lists do
  local list = KEYS[5 + i]
  if string.sub(lists, i, i) == '+' then
    redis.call('SADD', list, gid)
    redis.call('EXPIRE', list, ttl)
  else
    redis.call('SREM', list, gid)
  end
end
local turn_due = nil
if expected > 0 then
  local old_turn = gid .. '|turn|' .. ARGV[1]
  if ARGV[13] == '1' then
    turn_due = redis.call('ZSCORE', KEYS[3], old_turn)
    if not turn_due and redis.call('ZSCORE', KEYS[5], old_turn) then
      turn_due = string.format('%.3f', t)
    end
  end
  redis.call('ZREM', KEYS[3], old_turn)
  redis.call('ZREM', KEYS[3], gid .. '|nudge|' .. ARGV[1])
end
if ARGV[8] ~= '' then redis.call('ZREM', KEYS[3], gid .. '|uno|' .. ARGV[8]) end
if ARGV[6] ~= '' then
  if not turn_due then turn_due = string.format('%.3f', t + tonumber(ARGV[6])) end
  redis.call('ZADD', KEYS[3], turn_due, gid .. '|turn|' .. v)
end
if ARGV[7] ~= '' then
  redis.call('ZADD', KEYS[3], string.format('%.3f', t + tonumber(ARGV[7])), gid .. '|uno|' .. v)
end
if ARGV[15] ~= '' then
  redis.call('ZADD', KEYS[3], string.format('%.3f', t + tonumber(ARGV[15])), gid .. '|nudge|' .. v)
end
return {1, tonumber(v)}
"""


class ChatOp(StrEnum):
    CLAIM = "claim"  # a new game: take the chat's slot, or fail if a live game holds it
    KEEP = "keep"  # the game stays live: refresh the pointer's expiry
    RELEASE = "release"  # the game is over: free the chat for the next one


@dataclass(frozen=True, slots=True)
class Written:
    version: int


@dataclass(frozen=True, slots=True)
class Stale:
    current_version: int


@dataclass(frozen=True, slots=True)
class Missing:
    pass


@dataclass(frozen=True, slots=True)
class ChatTaken:
    game_id: str


WriteResult = Written | Stale | Missing | ChatTaken


@dataclass(frozen=True, slots=True)
class StreamEvent:
    id: str  # "{version}-{index}": the event's place among all of the game's events
    version: int
    index: int  # within its write
    event: dict[str, Any]


class CorruptRecord(RuntimeError):
    """A game key that does not hold a record this service wrote."""


def encode(record: GameRecord) -> bytes:
    """``{version}|`` then the record's JSON, deflated with a preset dictionary.

    [decision] zlib at its fastest level with ``RECORD_DICTIONARY`` (the keys and card
    codes records are made of) takes a 4-player record from about 1.15 KB to 0.45 KB (0.63
    KB without the dictionary) for some 15 µs a write; memory per live game is one of the
    service's budgets."""
    deflate = zlib.compressobj(1, zlib.DEFLATED, zlib.MAX_WBITS, 9, zlib.Z_DEFAULT_STRATEGY,
                               RECORD_DICTIONARY)  # fmt: skip
    body = deflate.compress(orjson.dumps(record.to_json())) + deflate.flush()
    return b"%d|" % record.version + body


def decode(raw: bytes) -> GameRecord:
    head, sep, body = raw.partition(b"|")
    if not sep or not head.isdigit():
        raise CorruptRecord("no version prefix")
    try:
        # Plain JSON starts with "{"; a zlib stream never does.
        # The dictionary is used only by a stream whose header asks for it (FDICT), so
        # records deflated without one still read back.
        text = body if body[:1] == b"{" else _inflate(body)
    except zlib.error as e:
        raise CorruptRecord(f"undecodable record: {e}") from None
    record = GameRecord.from_json(orjson.loads(text))
    if record.version != int(head):
        raise CorruptRecord("version prefix disagrees with the record")
    return record


def _inflate(body: bytes) -> bytes:
    inflate = zlib.decompressobj(zlib.MAX_WBITS, RECORD_DICTIONARY)
    text = inflate.decompress(body)
    if not inflate.eof:
        raise zlib.error("truncated record")
    return text


class GameStore:
    """Reads and compare-and-set writes of games; knows nothing of HTTP or of the rules."""

    def __init__(
        self,
        redis: Redis,
        *,
        ttl_seconds: int,
        event_shards: int,
        event_log_maxlen: int,
        event_log_seconds: int,
    ) -> None:
        self.redis = redis
        self.ttl_seconds = ttl_seconds
        self.event_shards = event_shards
        self.event_log_maxlen = event_log_maxlen
        self.event_log_seconds = event_log_seconds
        self._write = redis.register_script(WRITE_LUA)
        # Decoded records by game, kept beside the exact bytes they came from. Redis stays
        # the only truth: a record is reused only when Redis returns those very bytes (the
        # record is immutable), which skips most decoding when the same process serves a
        # game's consecutive requests.
        self._decoded: OrderedDict[str, tuple[bytes, GameRecord]] = OrderedDict()

    async def load(self, game_id: str) -> GameRecord | None:
        raw = await self.redis.get(game_key(game_id))
        if raw is None:
            return None
        data = _bytes(raw)
        hit = self._decoded.get(game_id)
        if hit is not None and hit[0] == data:
            self._decoded.move_to_end(game_id)
            return hit[1]
        record = decode(data)
        self._remember(game_id, data, record)
        return record

    def last_seen(self, game_id: str) -> GameRecord | None:
        """The record this process last read or wrote for the game, without asking Redis:
        possibly out of date. Each version is written exactly once (compare-and-set), so a
        record seen at version V is exactly what Redis holds while it is still at V."""
        hit = self._decoded.get(game_id)
        return hit[1] if hit is not None else None

    def _remember(self, game_id: str, data: bytes, record: GameRecord) -> None:
        self._decoded[game_id] = (data, record)
        self._decoded.move_to_end(game_id)
        if len(self._decoded) > DECODED_CACHE_SIZE:
            self._decoded.popitem(last=False)

    async def write(
        self,
        record: GameRecord,
        *,
        expected_version: int,
        events: Sequence[dict[str, Any]] = (),
        turn_delay: float | None = None,
        uno_delay: float | None = None,
        drop_uno_version: int | None = None,
        nudge_delay: float | None = None,
        keep_turn_due: bool = False,
        chat: ChatOp = ChatOp.KEEP,
        seated_before: frozenset[int] = frozenset(),
    ) -> WriteResult:
        """Write ``record`` iff the stored version is ``expected_version`` (0: create).

        ``seated_before``: ``seated_users`` of the record this write replaces; the game
        joins the games list of each person seated now (refreshing its expiry with the
        game's) and leaves those of the people seated before and no more.

        ``keep_turn_due``: the decision owed is still the one owed before (a UNO call, a
        catch, the window's close came between), so its deadline moves to the new version
        with the due time it had; the turn delay only stands in when there was none.

        ``nudge_delay``: the human who owes the new version's decision is reminded of it in
        private after this long (README.md "Timers"), unless the game moves on first."""
        gid = record.id
        seated = seated_users(record)
        gone = sorted(seated_before - seated)
        keys = [
            game_key(gid),
            log_key(shard_of(gid, self.event_shards)),
            DEADLINES_KEY,
            chat_key(record.chat_id, record.topic_id),
            CLAIMED_KEY,
            *(user_games_key(u) for u in sorted(seated)),
            *(user_games_key(u) for u in gone),
        ]
        value = encode(record)
        args: list[Any] = [
            expected_version,
            record.version,
            value,
            self.ttl_seconds,
            gid,
            "" if turn_delay is None else repr(float(turn_delay)),
            "" if uno_delay is None else repr(float(uno_delay)),
            "" if drop_uno_version is None else drop_uno_version,
            chat.value,
            self.event_log_maxlen,
            encode_events(events) if events else "",
            self.event_log_seconds,
            "1" if keep_turn_due else "",
            "+" * len(seated) + "-" * len(gone),
            "" if nudge_delay is None else repr(float(nudge_delay)),
        ]
        code, reply = await self._write(keys=keys, args=args)
        if code == 1:
            self._remember(gid, value, record)
            return Written(int(reply))
        if code == 0:
            return Stale(int(reply))
        if code == -1:
            return Missing()
        return ChatTaken(reply.decode() if isinstance(reply, bytes) else str(reply))

    async def live_game_id(self, chat_id: int, topic_id: int) -> str | None:
        raw = await self.redis.get(chat_key(chat_id, topic_id))
        return None if raw is None else _bytes(raw).decode()

    async def user_games(self, user_id: int) -> list[GameRecord]:
        """The live games the person holds a seat in. A game that expired unended (nobody
        wrote it for the TTL) is still listed in the set until the set's own expiry, which
        is never before the game's: such ids find no record and are passed over."""
        ids = sorted(_bytes(m).decode() for m in await self.redis.smembers(user_games_key(user_id)))
        if not ids:
            return []
        raws = await self.redis.mget([game_key(g) for g in ids])
        records = [decode(_bytes(raw)) for raw in raws if raw is not None]
        return [r for r in records if user_id in seated_users(r)]

    async def events(
        self, game_id: str, after: str = "0-0", count: int = 1000
    ) -> list[StreamEvent]:
        """At most ``count`` events after the event id ``after`` (exclusive), oldest first,
        of those the event log still holds (README.md "Events": a reader further behind
        re-renders from the spectator view).

        An event's id is ``{version}-{index}``: its write's version, then its place in it."""
        version, _, index = after.partition("-")
        last = (int(version), int(index or 0))
        out: list[StreamEvent] = []
        # The write holding ``after`` may have events past it: it is read too.
        for v, payload in await self._game_entries(game_id, last[0]):
            for i, event in enumerate(decode_events(payload)):
                if (v, i) > last:
                    out.append(StreamEvent(f"{v}-{i}", v, i, event))
                    if len(out) == count:
                        return out
        return out

    async def events_of_version(self, game_id: str, version: int) -> list[StreamEvent]:
        """The events of the write that produced ``version``; none once the log has
        trimmed it (or when that write published none)."""
        for v, payload in await self._game_entries(game_id, version):
            if v == version:
                return [
                    StreamEvent(f"{v}-{i}", v, i, e) for i, e in enumerate(decode_events(payload))
                ]
        return []

    async def _game_entries(self, game_id: str, down_to: int) -> list[tuple[int, bytes]]:
        """``(version, payload)`` of the game's entries at versions ``>= down_to`` that the
        log holds, oldest first. Its shard is read newest first, in pages, down to the
        game's first entry at or below ``down_to`` (a game's versions only grow along its
        shard), the shard's oldest entry, or ``LOG_SCAN_LIMIT`` entries."""
        key = log_key(shard_of(game_id, self.event_shards))
        gid = game_id.encode()
        # Versions start at 1: once its first write is seen, nothing older of the game exists.
        floor = max(down_to, 1)
        found: list[tuple[int, bytes]] = []
        top, page, scanned = "+", LOG_PAGE_FIRST, 0
        while scanned < LOG_SCAN_LIMIT:
            want = min(page, LOG_SCAN_LIMIT - scanned)
            # The client is made without decode_responses: ids and fields come as bytes.
            rows = cast(
                "list[tuple[bytes, dict[bytes, bytes]]]",
                await self.redis.xrevrange(key, max=top, min="-", count=want),
            )
            for _, fields in rows:
                if fields[b"g"] != gid:
                    continue
                v = int(fields[b"v"])
                if v >= down_to:
                    found.append((v, fields[b"e"]))
                if v <= floor:
                    found.reverse()
                    return found
            if len(rows) < want:
                break  # past the shard's oldest entry
            scanned += len(rows)
            top = "(" + rows[-1][0].decode()  # exclusive: on below the last one read
            page = min(2 * page, LOG_PAGE_MAX)
        found.reverse()
        return found

    async def turn_left(self, game_id: str, version: int) -> float | None:
        """Seconds until the decision owed at ``version`` times out, by the Redis server's
        clock (the one the deadline was set and is fired by): 0 once a worker has claimed
        it, ``None`` when that version owes no timed decision (over, ended, in the lobby, or
        moved on since)."""
        member = f"{game_id}|turn|{version}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zscore(DEADLINES_KEY, member)
            pipe.zscore(CLAIMED_KEY, member)
            pipe.time()
            due, claimed, (seconds, micros) = await pipe.execute()
        if due is None:
            return 0.0 if claimed is not None else None
        return max(0.0, float(due) - (int(seconds) + int(micros) / 1_000_000))

    async def ping(self) -> bool:
        return bool(await self.redis.ping())


def _bytes(value: object) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    raise CorruptRecord(f"unexpected reply from Redis: {value!r}")
