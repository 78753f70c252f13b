"""The deadline board and drainer against a real Redis (services/worker/timers.py).

RULES.md §7 "Timing in a chat" and §2 "UNO": every deadline the engine records in
``uno:deadlines`` is claimed once when due, claimed again only when its claim's lease ran out
(the worker died), and given up on (set aside, never silently dropped) after too many tries.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
import redis

from services.engine.wire.deadline_keys import CLAIMED_KEY, DEAD_KEY, DEADLINES_KEY
from services.worker.timers import (
    FIRED_STREAM,
    Claim,
    ClaimPass,
    Deadline,
    DeadlineBoard,
    DeadlineDrainer,
    DeadlineKind,
)
from tests.helpers.waiting import wait_for


@pytest.fixture
def r(redis_url: str) -> redis.Redis:
    return redis.Redis.from_url(redis_url, decode_responses=True)


def board(
    client: redis.Redis, *, lease: float = 10.0, batch: int = 100, attempts: int = 5
) -> DeadlineBoard:
    return DeadlineBoard(client, lease_seconds=lease, claim_batch=batch, max_attempts=attempts)


def redis_now(client: redis.Redis) -> float:
    seconds, micros = client.time()
    return seconds + micros / 1_000_000


def test_member_round_trip_and_action_id() -> None:
    deadline = Deadline("g-1", DeadlineKind.UNO, 42)
    assert deadline.member == "g-1|uno|42"
    assert Deadline.parse("g-1|uno|42") == deadline
    assert deadline.action_id == "timer:g-1:uno:42"
    for bad in ("g|turn|x", "|turn|3", "g|later|3", "g|turn"):
        with pytest.raises(ValueError):
            Deadline.parse(bad)


def test_s7_only_due_deadlines_are_claimed(r: redis.Redis) -> None:
    """RULES.md §7: a deadline fires when it has passed, not before."""
    now = redis_now(r)
    r.zadd(DEADLINES_KEY, {"a|turn|1": now - 1, "b|uno|4": now - 0.5, "c|turn|9": now + 60})
    claim_pass = board(r).claim_due()
    assert {c.deadline.member for c in claim_pass.claims} == {"a|turn|1", "b|uno|4"}
    assert all(c.attempt == 1 for c in claim_pass.claims)
    assert [c.deadline.member for c in claim_pass.claims] == ["a|turn|1", "b|uno|4"]  # oldest first
    assert r.zrange(DEADLINES_KEY, 0, -1) == ["c|turn|9"]
    assert set(r.zrange(CLAIMED_KEY, 0, -1)) == {"a|turn|1", "b|uno|4"}
    assert claim_pass.next_due is not None and claim_pass.next_due <= now + 60
    # Nothing more is due: a second pass claims nothing (a claim is not handed out twice).
    assert board(r).claim_due().claims == ()


def test_claim_keeps_the_due_time(r: redis.Redis) -> None:
    now = redis_now(r)
    r.zadd(DEADLINES_KEY, {"a|turn|1": now - 2.5})
    (claim,) = board(r).claim_due().claims
    assert claim.due == pytest.approx(now - 2.5, abs=1e-5)


def test_concurrent_drainers_claim_each_deadline_once(r: redis.Redis, redis_url: str) -> None:
    """Several workers drain the same board: every due deadline goes to exactly one."""
    now = redis_now(r)
    members = {f"g{i}|turn|{i}": now - 1 for i in range(2000)}
    r.zadd(DEADLINES_KEY, members)
    claimed: Counter[str] = Counter()
    lock = threading.Lock()

    def drain() -> None:
        mine = board(redis.Redis.from_url(redis_url), batch=37)
        while True:
            claims = mine.claim_due().claims
            if not claims:
                return
            with lock:
                claimed.update(c.deadline.member for c in claims)

    threads = [threading.Thread(target=drain) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(claimed) == set(members)
    assert max(claimed.values()) == 1


def test_an_expired_lease_is_claimed_again_with_the_first_due_time(r: redis.Redis) -> None:
    """A worker killed after claiming loses nothing: the lease runs out, the deadline returns."""
    now = redis_now(r)
    r.zadd(DEADLINES_KEY, {"a|turn|1": now - 1})
    short = board(r, lease=0.3)
    (first,) = short.claim_due().claims
    assert short.claim_due().claims == ()  # still leased
    time.sleep(0.4)
    (again,) = short.claim_due().claims
    assert again.deadline == first.deadline
    assert again.attempt == 2
    assert again.due == pytest.approx(first.due, abs=1e-5)


def test_release_ends_the_claim_and_records_the_fire(r: redis.Redis) -> None:
    now = redis_now(r)
    r.zadd(DEADLINES_KEY, {"a|turn|1": now - 1})
    short = board(r, lease=0.2)
    (claim,) = short.claim_due().claims
    lateness = short.release(claim.deadline, "applied", claim.due)
    assert lateness is not None and lateness >= 1.0
    assert r.zcard(CLAIMED_KEY) == 0
    time.sleep(0.3)
    assert short.claim_due().claims == ()  # released: the lease running out brings nothing back
    ((_, fields),) = r.xrange(FIRED_STREAM)
    assert fields["member"] == "a|turn|1"
    assert fields["outcome"] == "applied"
    assert float(fields["lateness"]) == pytest.approx(lateness, abs=1e-5)


def test_a_deadline_that_never_succeeds_is_set_aside(r: redis.Redis) -> None:
    now = redis_now(r)
    r.zadd(DEADLINES_KEY, {"a|turn|1": now - 1})
    flaky = board(r, lease=0.05, attempts=3)
    attempts = []
    for _ in range(10):
        attempts += [c.attempt for c in flaky.claim_due().claims]
        time.sleep(0.08)
    assert attempts == [1, 2, 3]
    assert r.zrange(DEAD_KEY, 0, -1) == ["a|turn|1"]
    assert r.zcard(CLAIMED_KEY) == 0


def test_a_malformed_member_is_set_aside_not_fired(r: redis.Redis) -> None:
    now = redis_now(r)
    r.zadd(DEADLINES_KEY, {"nonsense": now - 1, "a|turn|1": now - 1})
    claim_pass = board(r).claim_due()
    assert [c.deadline.member for c in claim_pass.claims] == ["a|turn|1"]
    assert claim_pass.malformed == ("nonsense",)
    assert r.zrange(DEAD_KEY, 0, -1) == ["nonsense"]
    assert r.zrange(CLAIMED_KEY, 0, -1) == ["a|turn|1"]


def test_drainer_dispatches_each_due_deadline_once_and_never_early(r: redis.Redis) -> None:
    """The drainer thread hands every due deadline to dispatch once, and only once due."""
    dispatched: list[tuple[Claim, float]] = []
    drainer = DeadlineDrainer(
        board(r), lambda claim: dispatched.append((claim, redis_now(r))), poll_interval=0.02
    )
    now = redis_now(r)
    r.zadd(DEADLINES_KEY, {f"g{i}|turn|1": now + 0.3 + i * 0.01 for i in range(20)})
    drainer.start()
    try:
        wait_for(lambda: len(dispatched) >= 20, 10, "every deadline dispatched", poll=0.02)
        time.sleep(0.2)  # room for a wrong second dispatch to show up
    finally:
        drainer.stop()
    members = [claim.deadline.member for claim, _ in dispatched]
    assert sorted(members) == sorted(f"g{i}|turn|1" for i in range(20))
    assert all(at >= claim.due for claim, at in dispatched)


def test_drainer_failing_dispatch_leaves_the_claim_for_later(r: redis.Redis) -> None:
    """A broker that refuses the task loses nothing: the claim stays and comes back."""
    attempts: list[int] = []

    def refuse(claim: Claim) -> None:
        attempts.append(claim.attempt)
        raise ConnectionError("broker down")

    drainer = DeadlineDrainer(board(r, lease=0.1), refuse, poll_interval=0.02)
    r.zadd(DEADLINES_KEY, {"a|turn|1": redis_now(r) - 1})
    drainer.start()
    try:
        wait_for(lambda: len(attempts) >= 3, 10, "three dispatch attempts", poll=0.02)
    finally:
        drainer.stop()
    assert attempts[:3] == [1, 2, 3]


def test_the_lease_doubles_with_each_claim(r: redis.Redis) -> None:
    """A worker that died is replaced within one lease; a deadline that keeps failing (the
    engine is down) is retried less and less often, up to 30 leases apart."""
    r.zadd(DEADLINES_KEY, {"a|turn|1": redis_now(r) - 1})
    short = board(r, lease=0.1, attempts=10)
    leases = []
    for _ in range(3):
        claim_pass = wait_claim(short)
        leases.append(float(r.zscore(CLAIMED_KEY, "a|turn|1") or 0) - claim_pass.now)
    assert leases == [
        pytest.approx(0.1, abs=1e-3),
        pytest.approx(0.2, abs=1e-3),
        pytest.approx(0.4, abs=1e-3),
    ]


def wait_claim(b: DeadlineBoard) -> ClaimPass:
    """The next claim pass that claims anything."""

    def claimed() -> ClaimPass | None:
        claim_pass = b.claim_due()
        return claim_pass if claim_pass.claims else None

    return wait_for(claimed, 5, "a claim", poll=0.01)
