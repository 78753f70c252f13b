"""Timer lateness and memory of the worker's deadline board (services/worker/README "Timers").

Runs the real thing: Redis, the engine service (one uvicorn process) and one Celery worker
process (``celery -A services.worker.app worker``, 16 threads). It prints:

1. **Lateness** (the Redis clock: when the engine had applied the stand-in's move, minus the
   deadline) of turn timers, read from the worker's fire log ``uno:timers:fired``:
   - baseline: one game at a time (nothing else pending);
   - N games (default 500) with their deadlines pending together, falling due spread over
     a few seconds, then all inside half a second (a burst).
   The N games are dealt by the engine's lobby first; the bench then moves their pending
   deadlines (``ZADD XX``) to the moment it wants, so every game has a deadline pending at
   the same time whatever the dealing took.
2. **Memory**: the worker's resident memory with no deadline pending, with N games' pending
   and with 10,000 more pending (far in the future), per 1,000 pending deadlines; the bytes
   Redis spends per 1,000 members of ``uno:deadlines``; and, as the baseline, what the
   worker holds for 1,000 Celery countdown (ETA) tasks, the design the board replaces.

Usage: .venv/bin/python bench/timer_lateness.py [--games 500] [--redis URL]
The Redis database (default redis://127.0.0.1:6379/14) is FLUSHED. Nothing here asserts on
time; the figures are for reading.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import httpx
import redis

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.percentiles import percentile  # noqa: E402
from bench.stopping import reported_stop  # noqa: E402
from harness.processes import (  # noqa: E402
    answers_ok,
    free_port,
    kill,
    service_env,
    spawn,
    stop,
    uvicorn_command,
    worker_command,
)
from harness.services import records_url  # noqa: E402
from services.engine.wire.deadline_keys import DEADLINES_KEY  # noqa: E402
from services.worker.timers import FIRED_STREAM  # noqa: E402

TOKEN = "bench-token"


def wait_for(check: Any, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


# -- the table -------------------------------------------------------------------------------


class Bench:
    def __init__(self, redis_url: str, engine_url: str) -> None:
        self.r = redis.Redis.from_url(redis_url, decode_responses=True)
        self.http = httpx.Client(
            base_url=engine_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30
        )
        self.chat = -1

    def now(self) -> float:
        seconds, micros = self.r.time()
        return seconds + micros / 1e6

    def deal(self, turn_seconds: int = 600) -> str:
        self.chat -= 1
        body = {"chat_id": self.chat, "user_id": 1, "name": "A", "turn_seconds": turn_seconds}
        gid = str(self.http.post("/v1/games", json=body).json()["game_id"])
        self.http.post(f"/v1/games/{gid}/join", json={"user_id": 2, "name": "B"})
        started = self.http.post(f"/v1/games/{gid}/start", json={"user_id": 1})
        assert started.status_code == 200, started.text
        return gid

    def pending_turns(self, games: set[str]) -> dict[str, float]:
        out = {}
        # The client decodes responses: members and fields come as str.
        pending = cast(
            "list[tuple[str, float]]", self.r.zrange(DEADLINES_KEY, 0, -1, withscores=True)
        )
        for member, score in pending:
            if member.split("|", 1)[0] in games and "|turn|" in member:
                out[member] = score
        return out

    def reschedule(self, members: list[str], start: float, spread: float) -> dict[str, float]:
        """Move pending deadlines to fall due in [start, start + spread) (``XX``: only those
        still pending)."""
        due = {m: start + random.random() * spread for m in members}
        self.r.zadd(DEADLINES_KEY, due, xx=True)
        return due

    def lateness(self, members: set[str], timeout: float) -> list[float]:
        """Wait for every member's fire record; return the applied ones' lateness."""
        found: dict[str, float] = {}
        end = time.monotonic() + timeout
        last = "-"
        while len(found) < len(members) and time.monotonic() < end:
            rows = cast(
                "list[tuple[str, dict[str, str]]]",
                self.r.xrange(FIRED_STREAM, min=f"({last}" if last != "-" else "-"),
            )
            for entry_id, fields in rows:
                last = entry_id
                if fields["member"] in members and fields["outcome"] == "applied":
                    found[fields["member"]] = float(fields["lateness"])
            time.sleep(0.1)
        if len(found) < len(members):
            print(f"  !! {len(members) - len(found)} timers did not fire within {timeout}s")
        return list(found.values())


def show(label: str, values: list[float]) -> None:
    ms = [v * 1000 for v in values]
    print(
        f"  {label:<44} n={len(ms):4d}  p50 {percentile(ms, 0.5):7.1f} ms  "
        f"p99 {percentile(ms, 0.99):7.1f} ms  max {max(ms):7.1f} ms"
    )


# -- main ------------------------------------------------------------------------------------


def main() -> None:
    with reported_stop():
        measure()


def measure() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games with a deadline pending")
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/14", help="Redis database to use (flushed)"
    )
    args = parser.parse_args()
    n = args.games
    r = redis.Redis.from_url(args.redis)
    r.flushdb()
    logs = Path(tempfile.mkdtemp(prefix="timer-bench-"))
    port = free_port()
    engine_url = f"http://127.0.0.1:{port}"
    env = service_env(
        args.redis,
        engine_url,
        TOKEN,
        UNO_AWAY_PAUSE_SECONDS="0.5",
        UNO_WORKER_POLL_INTERVAL="0.1",  # the default
        UNO_DATABASE_URL=records_url(logs),  # the recorder's, beside the logs
    )
    engine = spawn(
        uvicorn_command("services.engine.app:app", port, "--log-level", "warning"),
        env,
        logs / "engine.log",
    )
    worker: subprocess.Popen[bytes] | None = None
    bench = Bench(args.redis, engine_url)

    def start_worker() -> subprocess.Popen[bytes]:
        proc = spawn(worker_command(loglevel="WARNING"), env, logs / "worker.log")
        # Ready once the drainer has claimed a probe deadline (the worker logs little here).
        probe = f"probe{time.time_ns()}|turn|1"
        bench.r.zadd(DEADLINES_KEY, {probe: bench.now()})
        wait_for(lambda: bench.r.zscore(DEADLINES_KEY, probe) is None, 60, "the worker")
        return proc

    try:
        wait_for(answers_ok(f"{engine_url}/healthz"), 30, "the engine")
        worker = start_worker()
        time.sleep(1.0)
        rss_idle = rss_kib(worker.pid)
        print(f"worker: 1 process, 16 threads; engine: 1 uvicorn process; {os.cpu_count()} CPUs")

        print("\nTimer lateness (applied minus due, Redis clock):")
        # Baseline: one game, one timer at a time.
        base: list[float] = []
        for _ in range(15):
            gid = bench.deal()
            (member,) = bench.pending_turns({gid})
            bench.reschedule([member], bench.now() + 0.3, 0.0)
            base += bench.lateness({member}, 20)
        show("baseline: 1 game, nothing else pending", base)

        # N games dealt; their deadlines all pending together.
        t0 = time.monotonic()
        games = {bench.deal() for _ in range(n)}
        dealt_in = time.monotonic() - t0
        pending = bench.pending_turns(games)
        assert len(pending) == n, len(pending)
        rss_games = rss_kib(worker.pid)
        print(f"  ({n} games dealt in {dealt_in:.1f} s; {len(pending)} deadlines pending)")

        members = list(pending)
        half = len(members) // 2
        spread_members, burst_members = members[:half], members[half:]
        bench.reschedule(spread_members, bench.now() + 2.0, 5.0)
        show(
            f"{n} games pending, {len(spread_members)} due over 5 s",
            bench.lateness(set(spread_members), 60),
        )
        cpu_before = cpu_seconds(worker.pid), cpu_seconds(engine.pid)
        bench.reschedule(burst_members, bench.now() + 2.0, 0.5)
        show(
            f"{n} games pending, {len(burst_members)} due within 0.5 s",
            bench.lateness(set(burst_members), 60),
        )
        cpu_worker = (cpu_seconds(worker.pid) - cpu_before[0]) / len(burst_members) * 1000
        cpu_engine = (cpu_seconds(engine.pid) - cpu_before[1]) / len(burst_members) * 1000
        print(
            f"  CPU per fire in the burst: worker {cpu_worker:.1f} ms, engine {cpu_engine:.1f} ms"
            " (two engine calls: the stand-in's view, then its move)"
        )

        print("\nMemory:")
        time.sleep(2.0)
        rss_before = rss_kib(worker.pid)
        far = bench.now() + 86_400
        bench.r.zadd(DEADLINES_KEY, {f"idle{i}|turn|{i}": far + i for i in range(10_000)})
        time.sleep(2.0)
        rss_10k = rss_kib(worker.pid)
        zset_bytes = int(bench.r.memory_usage(DEADLINES_KEY) or 0)
        zset_members = int(bench.r.zcard(DEADLINES_KEY))
        print(f"  worker RSS at start, nothing pending:         {rss_idle / 1024:7.1f} MiB")
        print(f"  worker RSS, {n} games' deadlines pending:     {rss_games / 1024:7.1f} MiB")
        print(f"  worker RSS after the fires, settled:          {rss_before / 1024:7.1f} MiB")
        print(f"  worker RSS, then 10,000 more deadlines pending: {rss_10k / 1024:7.1f} MiB")
        print(
            f"  => worker memory per 1,000 pending deadlines: "
            f"{(rss_10k - rss_before) / 10:.1f} KiB (the board lives in Redis)"
        )
        print(
            f"  Redis: uno:deadlines {zset_members} members, {zset_bytes / 1024:.0f} KiB "
            f"=> {zset_bytes / zset_members * 1000 / 1024:.1f} KiB per 1,000 deadlines"
        )
        bench.r.delete(DEADLINES_KEY)

        # Baseline design: Celery countdown (ETA) tasks, held in the worker until due.
        from celery import Celery

        client = Celery(broker=args.redis)
        before = rss_kib(worker.pid)
        for i in range(1000):
            client.send_task("uno.fire_deadline", args=(f"eta{i}", "turn", 1), countdown=3600)
        wait_for(lambda: bench.r.llen("celery") == 0, 60, "the worker to reserve the ETA tasks")
        time.sleep(2.0)
        after = rss_kib(worker.pid)
        client.close()
        print(
            f"  baseline, Celery countdown tasks: worker RSS +{(after - before):.0f} KiB "
            f"per 1,000 pending (held in worker memory, unacknowledged)"
        )
    finally:
        if worker is not None:
            kill(worker)  # the ETA tasks must not be requeued
        stop(engine, grace=20)
        r.flushdb()
    print(f"\nlogs: {logs}")


if __name__ == "__main__":
    main()
