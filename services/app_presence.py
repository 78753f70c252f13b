"""Who has a game's Mini App open: the keys of the table streams' leases, which the Mini App
writes (services/webapp/stream_leases.py) and the bot reads (services/bot/intake.py and
nudges.py), and the notice the bot gets when a person's last stream of a game closes.

Keys: ``webapp:streams:person:{user}`` and ``webapp:streams:game:{game}``, sorted sets of
lease ids scored with the moment each lapses (ms on Redis's clock). A lease id is
``{user}:{random}``, so a game's set says who watches it, not only how many streams it has.

[decision] **A closed stream is told, a lapsed one is found.** A stream that closes drops
its lease and, when it was the person's last on that game, appends a ``app_closed`` entry
to ``NUDGES_KEY`` (the worker's stream of turns' reminders, which the bot already reads with
the event log), in the same Lua call: the bot writes the table at once, so whoever closes
the app finds the chat current within one group write. A lease that lapses (its Mini App
replica died) is told by nobody: the bot reads who is present at every render and at every
quiet table's timer, so it finds out at the next move, or at most one quiet interval later
(``UNO_BOT_QUIET_TABLE_SECONDS``). A watcher on every lease's lapse would cost a timer per
stream for a case that only a crash makes.
"""

from __future__ import annotations

import json
import secrets

from redis.asyncio import Redis

from services.engine.client import NUDGES_KEY

PREFIX = "webapp:streams:"
#: The event of a ``NUDGES_KEY`` entry that says a person closed their last stream of a game.
APP_CLOSED = "app_closed"
#: About how many entries the stream keeps, as the worker trims it (the bot reads them within
#: seconds).
NOTICES_MAXLEN = 1_000


def person_key(user_id: int) -> str:
    return f"{PREFIX}person:{user_id}"


def game_key(game_id: str) -> str:
    return f"{PREFIX}game:{game_id}"


def new_lease_id(user_id: int) -> str:
    """A lease's id: whose it is, and a random part telling their streams apart."""
    return f"{user_id}:{secrets.token_hex(8)}"


def lease_user(lease_id: str | bytes) -> int | None:
    """Whose lease ``lease_id`` is (None: not one of this module's ids)."""
    text = lease_id.decode() if isinstance(lease_id, bytes) else lease_id
    user, sep, _ = text.partition(":")
    try:
        return int(user) if sep else None
    except ValueError:
        return None


# KEYS: the game's set. The people holding a live lease in it, read without changing it.
_WATCHING = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
"""

# KEYS: the person's set, the game's, the notices' stream. ARGV: the lease's id, its person,
# the game, the stream's length kept. Drops the lease; when no live lease of that person is
# left in the game's set, appends the notice. Returns 1 when it did.
_RELEASE = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local prefix = ARGV[2] .. ':'
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. now, '+inf')) do
  if string.sub(id, 1, #prefix) == prefix then return 0 end
end
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], '*', 'g', ARGV[3], 'v', '0',
  'e', ARGV[5])
return 1
"""


async def watching(redis: Redis, game_id: str) -> set[int]:
    """The people with a live stream of ``game_id`` open now."""
    ids = await redis.eval(_WATCHING, 1, game_key(game_id))
    return {u for u in (lease_user(i) for i in ids or []) if u is not None}


async def release(redis: Redis, lease_id: str, user_id: int, game_id: str) -> bool:
    """Drop a lease; True when it was the person's last on the game, and the bot was told."""
    events = json.dumps([{"type": APP_CLOSED, "user_id": user_id}])
    told = await redis.eval(
        _RELEASE,
        3,
        person_key(user_id),
        game_key(game_id),
        NUDGES_KEY,
        lease_id,
        str(user_id),
        game_id,
        str(NOTICES_MAXLEN),
        events,
    )
    return bool(told)
