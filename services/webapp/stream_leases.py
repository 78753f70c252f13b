"""How many table streams one person and one game hold open, counted on every replica alike.

An open stream holds a lease: its id (whose it is, and a random part) in two sorted sets
in Redis, the person's and the game's (the keys and ids are services/app_presence.py's,
which the bot reads to know who has the app open), scored with the moment it lapses (on
Redis's clock, the one every replica shares). Each replica renews the leases of its open
streams together, every third of ``seconds``, and a stream drops its lease the moment it
closes (telling the bot when it was the person's last stream of that game); a replica that
dies drops nothing, and its leases lapse within ``seconds``, so a crash holds its viewers'
places that long at most. Taking a lease clears the lapsed ones and counts the rest against
both caps in one Lua call: two replicas opening at the same instant cannot both take the
last place.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

from services import app_presence
from services.app_presence import game_key, person_key

log = logging.getLogger(__name__)

# KEYS: the person's set, the game's. ARGV: the lease's id ('' counts without taking), its
# life in ms, the person's cap, the game's. Returns 0 (taken, or there is room), 1 (the
# person holds their cap), 2 (the game holds its cap).
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[2 + i]) then return i end
end
if ARGV[1] ~= '' then
  for i = 1, 2 do
    redis.call('ZADD', KEYS[i], now + tonumber(ARGV[2]), ARGV[1])
    redis.call('PEXPIREAT', KEYS[i], redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')[2])
  end
end
return 0
"""

# KEYS: each lease's person's set and game's set, in pairs; ARGV: the leases' life in ms,
# then each lease's id. Each lasts its life again from now; one already gone (its stream
# closed while the renewal was on its way, or it lapsed and was cleared) is not put back.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = now + tonumber(ARGV[1])
for i = 1, #KEYS do
  if redis.call('ZADD', KEYS[i], 'XX', 'CH', until_ms, ARGV[1 + math.ceil(i / 2)]) == 1 then
    redis.call('PEXPIREAT', KEYS[i], redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')[2])
  end
end
return 0
"""
#: Leases renewed by one Lua call: a replica's thousand streams are a few short calls.
RENEW_BATCH = 250


class TooManyStreams(Exception):
    """No place left: ``limit`` is whose cap is full (``person`` or ``game``), ``most`` it."""

    def __init__(self, limit: str, most: int) -> None:
        super().__init__(f"{limit} holds {most} streams")
        self.limit = limit
        self.most = most


@dataclass(frozen=True, slots=True)
class Lease:
    id: str
    keys: tuple[str, str]
    user_id: int
    game_id: str


class StreamLeases:
    def __init__(self, redis: Redis, *, per_person: int, per_game: int, seconds: float) -> None:
        self.redis = redis
        self.per_person = per_person
        self.per_game = per_game
        self.life_ms = max(1, round(seconds * 1000))
        #: how often this replica renews its leases: three chances before one lapses
        self.renew_seconds = seconds / 3
        self._take = redis.register_script(_TAKE)
        self._renew = redis.register_script(_RENEW)
        self._live: set[Lease] = set()

    async def _try(self, lease_id: str, keys: tuple[str, str]) -> None:
        full = int(
            await self._take(
                keys=list(keys), args=[lease_id, self.life_ms, self.per_person, self.per_game]
            )
        )
        if full == 1:
            raise TooManyStreams("person", self.per_person)
        if full == 2:
            raise TooManyStreams("game", self.per_game)

    async def check(self, user_id: int, game_id: str) -> None:
        """``TooManyStreams`` when ``user_id`` could not open ``game_id``'s stream now;
        nothing is taken."""
        await self._try("", (person_key(user_id), game_key(game_id)))

    async def take(self, user_id: int, game_id: str) -> Lease:
        """A place for one more stream of ``user_id`` on ``game_id``, or ``TooManyStreams``;
        renewed by ``keep_renewed`` until ``release``."""
        lease = Lease(
            app_presence.new_lease_id(user_id),
            (person_key(user_id), game_key(game_id)),
            user_id,
            game_id,
        )
        await self._try(lease.id, lease.keys)
        self._live.add(lease)
        return lease

    async def release(self, lease: Lease) -> None:
        """The place back at once, and the bot told when it was the person's last stream of
        the game; left to lapse when Redis cannot be told now."""
        self._live.discard(lease)
        try:
            await app_presence.release(self.redis, lease.id, lease.user_id, lease.game_id)
        except (RedisError, OSError):
            log.warning("could not give a table stream's place back; it lapses with its lease")

    async def renew(self) -> None:
        """Every open stream's lease, lasting its life again from now."""
        leases = list(self._live)
        for start in range(0, len(leases), RENEW_BATCH):
            batch = [lease for lease in leases[start : start + RENEW_BATCH] if lease in self._live]
            if batch:
                await self._renew(
                    keys=[key for lease in batch for key in lease.keys],
                    args=[self.life_ms, *(lease.id for lease in batch)],
                )

    async def keep_renewed(self) -> None:
        """Renew this replica's leases for as long as it runs; a failed round is retried at
        the next (two may fail before a lease lapses)."""
        while True:
            await asyncio.sleep(self.renew_seconds)
            try:
                await self.renew()
            except (RedisError, OSError):
                log.warning("could not renew the table streams' leases; trying again")
