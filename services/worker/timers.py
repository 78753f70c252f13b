"""Deadlines: the Redis board the engine writes and the drainer that fires them.

RULES.md §7 "Timing in a chat": every decision a player owes has a deadline, and the UNO
window (§2 "UNO") closes at its own. The engine records each one, in the same atomic step as
the state write that creates it, as a member of the sorted set ``uno:deadlines``::

    "{game_id}|turn|{version}"   score = unix seconds when the owed decision times out
    "{game_id}|uno|{version}"    score = unix seconds when the UNO window opened at
                                 ``version`` closes
    "{game_id}|nudge|{version}"  score = unix seconds when the human owing ``version``'s
                                 decision is reminded of it (the bot sends the message)

The worker never writes game state; it only moves deadline members through three places:

``uno:deadlines``          pending, written by the engine
``uno:deadlines:claimed``  claimed by a drainer; score = when the claim's lease runs out
``uno:deadlines:dead``     given up on after ``timer_max_attempts`` claims (kept for a human)

A claim moves a due member to ``claimed`` in one Lua call, so two drainers never both claim
it, and it is released (removed) only when its task has reached a definite outcome. If a
worker dies anywhere in between, the lease runs out and the next drainer pass claims the
member again: no deadline is lost. A member fired twice is harmless because the engine acts
only on the version it names and de-duplicates the action id. See README.md "Timers".

All times come from the Redis server's clock (``TIME``), so several workers on several hosts
agree on "now" and none fires a deadline early because its own clock runs fast.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import redis

from services.engine.wire.deadline_keys import (
    CLAIMED_KEY,
    CLAIMS_KEY,
    DEAD_KEY,
    DEADLINES_KEY,
    NUDGES_KEY,
    NUDGES_MAXLEN,
)
from services.engine.wire.event_log import encode_events

log = logging.getLogger(__name__)

#: One entry per finished fire (member, due, done, lateness, outcome): operations and benches.
FIRED_STREAM = "uno:timers:fired"
FIRED_STREAM_MAXLEN = 10_000


class DeadlineKind(StrEnum):
    TURN = "turn"  # a decision a player owes (RULES.md §7)
    UNO = "uno"  # the UNO-call window (RULES.md §2 "UNO")
    NUDGE = "nudge"  # a human slow to make a decision is reminded of it in private


@dataclass(frozen=True, slots=True)
class Deadline:
    """What one timer is about: a game, a kind, and the version it was set for."""

    game_id: str
    kind: DeadlineKind
    version: int

    @property
    def member(self) -> str:
        return f"{self.game_id}|{self.kind.value}|{self.version}"

    @property
    def action_id(self) -> str:
        """The same for every delivery of this timer, so the engine applies it once."""
        return f"timer:{self.game_id}:{self.kind.value}:{self.version}"

    @staticmethod
    def parse(member: str) -> Deadline:
        """Parse ``game|kind|version``; raises ``ValueError`` on anything else."""
        game_id, kind, version = member.rsplit("|", 2)
        if not game_id or not version.isdigit():
            raise ValueError(f"not a deadline member: {member!r}")
        return Deadline(game_id, DeadlineKind(kind), int(version))


@dataclass(frozen=True, slots=True)
class Claim:
    deadline: Deadline
    due: float  # when the deadline fell due (unix seconds, Redis clock)
    attempt: int  # 1 for the first claim, 2+ after a lease ran out


@dataclass(frozen=True, slots=True)
class ClaimPass:
    claims: tuple[Claim, ...]
    now: float  # the Redis clock at the claim
    next_due: float | None  # earliest pending due time or lease end, if any
    malformed: tuple[str, ...] = ()  # members that are not deadlines (set aside as dead)


# KEYS: deadlines, claimed, claims, dead.  ARGV: lease seconds, batch limit, max attempts.
# Returns {now, next_due or "", member, due, attempt, member, due, attempt, ...}.
_CLAIM_SCRIPT = """
local deadlines, claimed, claims, dead = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local lease = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local max_attempts = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local now_s = string.format('%.6f', now)
local out = {now_s, ''}
local function claim(member, due, attempt)
  if attempt > max_attempts then
    redis.call('ZREM', claimed, member)
    redis.call('HDEL', claims, member)
    redis.call('ZADD', dead, now_s, member)
    return
  end
  -- The lease doubles with each claim (up to 30 leases): a worker killed once is replaced
  -- within one lease, while an engine that stays down is asked less and less often.
  local lease_s = string.format('%.6f', now + lease * math.min(2 ^ (attempt - 1), 30))
  redis.call('ZADD', claimed, lease_s, member)
  redis.call('HSET', claims, member, attempt .. '|' .. due)
  out[#out + 1] = member
  out[#out + 1] = due
  out[#out + 1] = attempt
end
-- Leases that ran out first: their worker died, or their task is stuck.
local expired = redis.call('ZRANGEBYSCORE', claimed, '-inf', now_s, 'LIMIT', 0, limit)
for _, member in ipairs(expired) do
  local record = redis.call('HGET', claims, member)
  local attempt, due = 0, now_s
  if record then
    local sep = string.find(record, '|', 1, true)
    attempt = tonumber(string.sub(record, 1, sep - 1))
    due = string.sub(record, sep + 1)
  end
  claim(member, due, attempt + 1)
end
local room = limit - #expired
if room > 0 then
  local ready = redis.call('ZRANGEBYSCORE', deadlines, '-inf', now_s,
    'WITHSCORES', 'LIMIT', 0, room)
  for i = 1, #ready, 2 do
    redis.call('ZREM', deadlines, ready[i])
    claim(ready[i], ready[i + 1], 1)
  end
end
local next_due = nil
local a = redis.call('ZRANGE', deadlines, 0, 0, 'WITHSCORES')
if #a > 0 then next_due = tonumber(a[2]) end
local b = redis.call('ZRANGE', claimed, 0, 0, 'WITHSCORES')
if #b > 0 and (next_due == nil or tonumber(b[2]) < next_due) then next_due = tonumber(b[2]) end
if next_due ~= nil then out[2] = string.format('%.6f', next_due) end
return out
"""

# KEYS: claimed, claims, fired stream.  ARGV: member, outcome, due, stream maxlen.
# Releases a claim and records the fire; returns the lateness in seconds as a string.
_RELEASE_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
local lateness = ''
if ARGV[3] ~= '' then lateness = string.format('%.6f', now - tonumber(ARGV[3])) end
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], '*',
  'member', ARGV[1], 'outcome', ARGV[2], 'due', ARGV[3],
  'done', string.format('%.6f', now), 'lateness', lateness)
return lateness
"""


class DeadlineBoard:
    """The worker's side of ``uno:deadlines``: claim what is due, release what is done."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        lease_seconds: float,
        claim_batch: int,
        max_attempts: int,
    ) -> None:
        self._redis = client
        self._lease_seconds = lease_seconds
        self._claim_batch = claim_batch
        self._max_attempts = max_attempts
        self._claim = client.register_script(_CLAIM_SCRIPT)
        self._release = client.register_script(_RELEASE_SCRIPT)

    def claim_due(self) -> ClaimPass:
        """Claim up to one batch of due deadlines (expired leases first), atomically."""
        raw: list[Any] = self._claim(
            keys=[DEADLINES_KEY, CLAIMED_KEY, CLAIMS_KEY, DEAD_KEY],
            args=[self._lease_seconds, self._claim_batch, self._max_attempts],
        )
        now = float(_text(raw[0]))
        next_due_text = _text(raw[1])
        claims: list[Claim] = []
        malformed: list[str] = []
        for i in range(2, len(raw), 3):
            member = _text(raw[i])
            try:
                deadline = Deadline.parse(member)
            except ValueError:
                malformed.append(member)
                continue
            claims.append(Claim(deadline, float(_text(raw[i + 1])), int(raw[i + 2])))
        for member in malformed:
            self.set_aside(member)
        return ClaimPass(
            claims=tuple(claims),
            now=now,
            next_due=float(next_due_text) if next_due_text else None,
            malformed=tuple(malformed),
        )

    def release(self, deadline: Deadline, outcome: str, due: float | None) -> float | None:
        """Drop the claim of a deadline whose fire reached ``outcome``; returns its lateness."""
        lateness = self._release(
            keys=[CLAIMED_KEY, CLAIMS_KEY, FIRED_STREAM],
            args=[deadline.member, outcome, "" if due is None else repr(due), FIRED_STREAM_MAXLEN],
        )
        text = _text(lateness)
        return float(text) if text else None

    def nudge_due(self, deadline: Deadline) -> None:
        """Record that the human owing ``deadline``'s decision is to be reminded of it: an
        entry of the stream the bot reads with the event log. A second copy (a fire
        delivered twice) is harmless: the bot sends one reminder a decision."""
        fields: Any = {
            "g": deadline.game_id,
            "v": deadline.version,
            "e": encode_events([{"type": "turn_nudge_due"}]),
        }
        self._redis.xadd(NUDGES_KEY, fields, maxlen=NUDGES_MAXLEN, approximate=True)

    def set_aside(self, member: str) -> None:
        """Move a member nobody can fire to the dead set, where a human can look at it."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.zrem(CLAIMED_KEY, member)
        pipe.hdel(CLAIMS_KEY, member)
        pipe.zadd(DEAD_KEY, {member: 0})
        pipe.execute()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class DeadlineDrainer:
    """A loop (one thread in the worker's main process) that claims due deadlines and hands
    each to ``dispatch`` (which sends the Celery task). It sleeps until the next deadline,
    never longer than ``poll_interval``: the engine adds deadlines without waking it."""

    def __init__(
        self,
        board: DeadlineBoard,
        dispatch: Callable[[Claim], None],
        *,
        poll_interval: float,
    ) -> None:
        self._board = board
        self._dispatch = dispatch
        self._poll_interval = poll_interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="uno-deadline-drainer", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def run(self) -> None:
        log.info("deadline drainer started (poll %.3fs)", self._poll_interval)
        while not self._stop.is_set():
            try:
                wait = self.drain_once()
            except redis.RedisError as exc:
                # Redis is away: nothing is lost (the deadlines live there); try again soon.
                log.warning("deadline drainer cannot reach Redis: %s", exc)
                wait = min(2.0, self._poll_interval * 10)
            if wait > 0:
                self._stop.wait(wait)
        log.info("deadline drainer stopped")

    def drain_once(self) -> float:
        """One claim pass; returns how long to sleep before the next."""
        claim_pass = self._board.claim_due()
        for member in claim_pass.malformed:
            log.error("set aside a malformed deadline member %r", member)
        for claim in claim_pass.claims:
            try:
                self._dispatch(claim)
            except Exception:
                # The claim stays; when its lease runs out the member is claimed again.
                log.exception("could not dispatch %s", claim.deadline.member)
        if len(claim_pass.claims) + len(claim_pass.malformed) > 0:
            return 0.0  # there may be more due right now
        if claim_pass.next_due is None:
            return self._poll_interval
        return max(0.0, min(self._poll_interval, claim_pass.next_due - claim_pass.now))
