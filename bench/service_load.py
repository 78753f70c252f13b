"""Load benchmark of the engine service, beside a baseline measured in the same run.

Random legal agents play 4-player Classic games through the HTTP API against a real
uvicorn server, each move as a front makes it: the owing player's view (their hand and
choices), their action, then the table (the spectator's view every front renders after a
write, which says who owes next): three requests a move. The baseline is a
bare FastAPI route doing one Redis GET and one SET of a value the size of a game record,
served by uvicorn with the same settings (one worker, uvloop, httptools, no access log).

Prints:
1. saturation: moves/s (closed loop, many games at once) against baseline requests/s, and
   requests per move;
2. latency at a realistic pace: N games each moving about once a second (open loop,
   paced, measured from the scheduled time), p50/p95/p99 per move and per action request;
3. Redis memory per live 4-player game (games part-way through, all keys included, the
   whole event log too) with this Redis's own configuration; bytes per event log entry
   with and without the event dictionary, and what the log's retention and cap make of them.

    .venv/bin/python bench/service_load.py [--redis redis://127.0.0.1:6379/14]
        [--seconds 10] [--paced-games 200] [--paced-seconds 20] [--memory-games 500]

The Redis database given is emptied (FLUSHDB) before each phase. The load generator is a
minimal keep-alive HTTP/1.1 client on asyncio, the same for both servers, so its own cost
weighs the same on both sides.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import orjson
import redis

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.percentiles import percentile  # noqa: E402
from bench.stopping import reported_stop  # noqa: E402
from harness.processes import die_with_parent, free_port, uvicorn_command  # noqa: E402
from services.config import Settings  # noqa: E402
from services.engine.wire.event_log import LOG_PREFIX, decode_events  # noqa: E402

TOKEN = "bench-token"
REQUESTS_A_MOVE = 3  # the owing player's view, their action, the table after it
RECORD_SIZE = 1200  # bytes: a 4-player game record part-way through, before compression

# -- the baseline app (imported by uvicorn as bench.service_load:baseline_app) -------------


def make_baseline_app() -> Any:
    from fastapi import FastAPI
    from fastapi.responses import Response
    from redis.asyncio import BlockingConnectionPool, Redis

    app = FastAPI()
    client = Redis(
        connection_pool=BlockingConnectionPool.from_url(
            os.environ.get("UNO_REDIS_URL", "redis://127.0.0.1:6379/14"),
            max_connections=64,
            timeout=5,
        )
    )
    value = b"x" * RECORD_SIZE

    @app.post("/baseline/{key}")
    async def baseline(key: str) -> Response:
        old = await client.get(f"bench:{key}")
        await client.set(f"bench:{key}", value, ex=86400)
        return Response(
            orjson.dumps({"key": key, "had": old is not None}), media_type="application/json"
        )

    return app


def __getattr__(name: str) -> Any:
    if name == "baseline_app":
        return make_baseline_app()
    raise AttributeError(name)


# -- servers ---------------------------------------------------------------------------------


class Server:
    def __init__(self, app: str, redis_url: str, **env: str) -> None:
        self.port = free_port()
        self.app = app
        self.redis_url = redis_url
        self.extra_env = env
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        env = {
            **os.environ,
            "UNO_REDIS_URL": self.redis_url,
            "UNO_ENGINE_TOKEN": TOKEN,
            "PYTHONPATH": str(REPO),
            **self.extra_env,
        }
        self.process = subprocess.Popen(
            uvicorn_command(
                self.app,
                self.port,
                "--workers",
                "1",
                "--loop",
                "uvloop",
                "--http",
                "httptools",
                "--no-access-log",
                # The interleaved windows leave one server's connections idle for a while.
                "--timeout-keep-alive",
                "120",
                "--log-level",
                "warning",
            ),
            cwd=REPO,
            env=env,
            preexec_fn=functools.partial(die_with_parent, os.getpid()),
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{self.app} did not start")

    def __exit__(self, *_: object) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=10)


# -- a minimal HTTP/1.1 keep-alive client -----------------------------------------------------


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        payload = orjson.dumps(body) if body is not None else b""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {TOKEN}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        self.writer.write(head.encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        data = await self.reader.readexactly(length) if length else b""
        return status, orjson.loads(data) if data else None

    def close(self) -> None:
        self.writer.close()


# -- random legal agents ----------------------------------------------------------------------


class Game:
    """One game played by random legal agents over one connection."""

    _chat = 0

    def __init__(self, conn: Connection, rng: random.Random) -> None:
        self.conn = conn
        self.rng = rng
        self.requests = 0  # move requests sent: views, actions and tables
        self.game_id = ""
        self.users: list[int] = []
        self.owing_user = 0
        self.moves = 0
        self.finished = 0

    async def new(self) -> None:
        Game._chat += 1
        chat = -(10**12) - Game._chat
        users = [Game._chat * 10 + i for i in range(1, 5)]
        _, game = await self.conn.request(
            "POST", "/v1/games", {"chat_id": chat, "user_id": users[0], "name": "P1"}
        )
        self.game_id = game["game_id"]
        for i, user in enumerate(users[1:], start=2):
            await self.conn.request(
                "POST", f"/v1/games/{self.game_id}/join", {"user_id": user, "name": f"P{i}"}
            )
        await self.conn.request("POST", f"/v1/games/{self.game_id}/start", {"user_id": users[0]})
        self.users = users
        _, table = await self.conn.request("GET", f"/v1/games/{self.game_id}/spectator")
        self.owing_user = users[table["view"]["pending"]["player"]]

    async def move(self, timings: list[float] | None = None) -> None:
        """The owing player takes a random legal action, chosen from their view; then the
        table, which says who owes the next decision (``timings``: the action's alone)."""
        user = self.owing_user
        _, mine = await self.conn.request("GET", f"/v1/games/{self.game_id}/view?user_id={user}")
        code = self.rng.choice(mine["view"]["legal"])
        started = time.perf_counter()
        status, result = await self.conn.request(
            "POST",
            f"/v1/games/{self.game_id}/actions",
            {
                "user_id": user,
                "action": code,
                "version": mine["game"]["version"],
                "action_id": f"{user}-{self.moves}",
            },
        )
        if timings is not None:
            timings.append(time.perf_counter() - started)
        if status != 200:
            raise RuntimeError(f"action {code} refused: {status} {result}")
        _, table = await self.conn.request("GET", f"/v1/games/{self.game_id}/spectator")
        self.requests += REQUESTS_A_MOVE
        self.moves += 1
        pending = table["view"]["pending"]
        if pending is None:
            self.finished += 1
            await self.new()
            return
        self.owing_user = self.users[pending["player"]]


# -- phases -----------------------------------------------------------------------------------


async def closed_loop(
    conns: list[Connection], seconds: float, step: Callable[[int], Awaitable[None]]
) -> float:
    """Each connection repeats ``step`` for ``seconds``; steps per second overall."""
    stop = time.perf_counter() + seconds
    counts = [0] * len(conns)

    async def run(i: int) -> None:
        while time.perf_counter() < stop:
            await step(i)
            counts[i] += 1

    started = time.perf_counter()
    await asyncio.gather(*(run(i) for i in range(len(conns))))
    return sum(counts) / (time.perf_counter() - started)


async def saturation(
    base_port: int, engine_port: int, workers: int, seconds: float, rounds: int
) -> tuple[list[float], list[float], float]:
    """Baseline and engine windows interleaved, so that other load on the machine weighs
    on both alike: baseline requests/s per round, the engine's moves/s per round, and its
    requests per move."""
    base_conns = [await Connection.open(base_port) for _ in range(workers)]
    conns = [await Connection.open(engine_port) for _ in range(workers)]
    games = [Game(c, random.Random(i)) for i, c in enumerate(conns)]
    for g in games:
        await g.new()

    async def base_step(i: int) -> None:
        status, _ = await base_conns[i].request("POST", f"/baseline/k{i}")
        assert status == 200

    async def engine_step(i: int) -> None:
        await games[i].move()

    await closed_loop(base_conns, 1.0, base_step)  # warm-up
    await closed_loop(conns, 1.0, engine_step)
    base_rates: list[float] = []
    rates: list[float] = []
    for _ in range(rounds):
        base_rates.append(await closed_loop(base_conns, seconds, base_step))
        rates.append(await closed_loop(conns, seconds, engine_step))
    for c in [*base_conns, *conns]:
        c.close()
    return base_rates, rates, sum(g.requests for g in games) / sum(g.moves for g in games)


async def once_a_second(
    t0: float,
    phase: float,
    seconds: float,
    step: Callable[[], Awaitable[None]],
    latency: list[float],
) -> None:
    """Run ``step`` at t0 + phase + k seconds until t0 + seconds; each latency is measured
    from the time the step was due, so a slow server cannot hide its queue."""
    k = 0
    while (due := t0 + phase + k) <= t0 + seconds:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        await step()
        latency.append(time.perf_counter() - due)
        k += 1


async def paced(port: int, n_games: int, seconds: float) -> tuple[list[float], list[float]]:
    """Open loop: each game moves once a second (random phase); latency is measured from
    the time the move was due, so a slow server cannot hide its queue."""
    conns = [await Connection.open(port) for _ in range(n_games)]
    games = [Game(conn, random.Random(1000 + i)) for i, conn in enumerate(conns)]
    for g in games:
        await g.new()
    move_latency: list[float] = []
    action_latency: list[float] = []
    t0 = time.perf_counter() + 0.5

    def step(g: Game) -> Callable[[], Awaitable[None]]:
        return lambda: g.move(action_latency)

    rng = random.Random(0)
    await asyncio.gather(
        *(once_a_second(t0, rng.random(), seconds, step(g), move_latency) for g in games)
    )
    for c in conns:
        c.close()
    return move_latency, action_latency


async def paced_baseline(port: int, n_clients: int, seconds: float) -> list[float]:
    """The baseline at the same pace and request count: a move's requests each second per
    client, back to back, latency from the due time."""
    conns = [await Connection.open(port) for _ in range(n_clients)]
    latency: list[float] = []
    t0 = time.perf_counter() + 0.5

    def step(i: int) -> Callable[[], Awaitable[None]]:
        async def requests() -> None:
            for _ in range(REQUESTS_A_MOVE):
                await conns[i].request("POST", f"/baseline/p{i}")

        return requests

    rng = random.Random(0)
    await asyncio.gather(
        *(once_a_second(t0, rng.random(), seconds, step(i), latency) for i in range(n_clients))
    )
    for c in conns:
        c.close()
    return latency


async def memory_per_game(port: int, redis_url: str, n_games: int) -> dict[str, float]:
    """Live 4-player games part-way through (10 to 60 moves each; a game lasts a few
    hundred): the memory of their records, chat pointers and deadlines, and of the whole
    event log, per live game, and Redis's own total. Every entry stays in the log here (the
    games write far fewer than its cap), so the log's share is what the games wrote."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    conns = [await Connection.open(port) for _ in range(50)]
    await conns[0].request("GET", "/v1/games/warm/view?user_id=1")  # open the pools first
    before = int(client.info("memory")["used_memory"])
    rng = random.Random(5)
    games = [Game(conns[i % len(conns)], random.Random(i)) for i in range(n_games)]
    targets = [rng.randint(10, 60) for _ in games]

    async def play(indexes: range) -> None:
        for i in indexes:
            g = games[i]
            await g.new()
            while g.moves < targets[i] and not g.finished:
                await g.move()

    await asyncio.gather(*(play(range(i, n_games, len(conns))) for i in range(len(conns))))
    after = int(client.info("memory")["used_memory"])
    live = [g for g in games if not g.finished]
    parts = {"game": 0, "eventlog": 0, "chat": 0}
    entries = 0
    for key in client.scan_iter(count=1000):
        name = key.decode()
        part = name.split(":")[1]
        if part in parts:
            parts[part] += client.memory_usage(key, samples=0) or 0
        if part == "eventlog":
            entries += client.xlen(key)
    deadlines = client.memory_usage("uno:deadlines", samples=0) or 0
    sizes = entry_sizes(client)
    # used_memory also grows with what is not the games' (client buffers, the script cache,
    # the allocator): what deleting every key of the games gives back is theirs alone.
    client.flushdb()
    freed = after - int(client.info("memory")["used_memory"])
    for c in conns:
        c.close()
    client.close()
    n = len(live)
    return {
        "games": float(n),
        "entries": float(entries),
        "record": parts["game"] / n,
        "events": parts["eventlog"] / n,
        "chat": parts["chat"] / n,
        "deadlines": deadlines / n,
        "keys total": (sum(parts.values()) + deadlines) / n,
        "used_memory delta": (after - before) / n,
        "freed": freed / n,
        **sizes,
    }


ENTRY_FORMS = ("deflated with the dictionary", "deflated without it", "plain JSON")


def entry_sizes(client: redis.Redis) -> dict[str, float]:
    """Bytes per event log entry (MEMORY USAGE of the shards / their entries) as the
    service wrote them, and for the same entries written again into scratch streams with
    their events deflated without the dictionary and as plain JSON; and the mean ``e``."""
    rows: list[tuple[bytes, dict[bytes, bytes]]] = [
        (key, fields)
        for key in sorted(client.scan_iter(match=f"{LOG_PREFIX}*"))
        # The client is made without decode_responses: ids and fields come as bytes.
        for _, fields in cast("list[tuple[bytes, dict[bytes, bytes]]]", client.xrange(key))
    ]
    out: dict[str, float] = {}
    for form in ENTRY_FORMS:
        payload = 0
        scratch: set[bytes] = set()
        pipe = client.pipeline(transaction=False)
        for key, fields in rows:
            e = fields[b"e"]
            if form != ENTRY_FORMS[0]:
                text = orjson.dumps(decode_events(e))
                deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
                e = deflate.compress(text) + deflate.flush() if form == ENTRY_FORMS[1] else text
            payload += len(e)
            scratch.add(b"bench:" + key)
            pipe.xadd(b"bench:" + key, {"g": fields[b"g"], "v": fields[b"v"], "e": e})
        pipe.execute()
        total = sum(client.memory_usage(k, samples=0) or 0 for k in scratch)
        client.delete(*scratch)
        out[f"entry {form}"] = total / len(rows)
        out[f"payload {form}"] = payload / len(rows)
    return out


def pct(values: list[float], q: float) -> float:
    """A percentile of seconds, in milliseconds."""
    return percentile(values, q) * 1000


def show_latency(label: str, values: list[float]) -> None:
    p50, p95, p99 = (pct(values, q) for q in (0.50, 0.95, 0.99))
    mean = statistics.mean(values) * 1e3
    print(f"   {label:34s} p50 {p50:6.2f}   p95 {p95:6.2f}   p99 {p99:6.2f}   mean {mean:6.2f} ms")


def show_memory(label: str, mem: dict[str, float]) -> None:
    settings = Settings()
    shards, maxlen = settings.event_shards, settings.event_log_maxlen
    print(
        f"   {label}: {mem['keys total']:.0f} B per game (record {mem['record']:.0f}, event log "
        f"{mem['events']:.0f} for its {mem['entries'] / mem['games']:.1f} writes, chat pointer "
        f"{mem['chat']:.0f}, deadlines "
        f"{mem['deadlines']:.0f}); {mem['games']:.0f} live games, {mem['entries']:.0f} log "
        f"entries, {shards} shards"
    )
    print(
        f"   Redis used_memory: grew {mem['used_memory delta']:.0f} B per game while they "
        f"played, {mem['freed']:.0f} B per game given back when their keys were deleted"
    )
    print("   bytes per event log entry (MEMORY USAGE of the log / entries; the mean `e`):")
    for form in ENTRY_FORMS:
        print(
            f"     events {form:29s} {mem[f'entry {form}']:5.1f} B   "
            f"(e: {mem[f'payload {form}']:5.1f} B)"
        )
    entry = mem[f"entry {ENTRY_FORMS[0]}"]
    seconds = settings.event_log_seconds
    print(
        f"   the log keeps the last {seconds} s of writes: a game writing every 5 s keeps "
        f"{seconds // 5} entries, {seconds // 5 * entry:.0f} B; its cap: {shards} shards x "
        f"{maxlen} entries x {entry:.0f} B = {shards * maxlen * entry / 1e6:.1f} MB at most, "
        "whatever the load"
    )


def run_saturation(base_port: int, engine_port: int, args: argparse.Namespace) -> None:
    base_rates, moves, per_move = asyncio.run(
        saturation(base_port, engine_port, args.workers, args.seconds, args.rounds)
    )
    b = statistics.median(base_rates)
    m = statistics.median(moves)
    print(
        f"\n1. saturation: closed loop, {args.workers} connections, {args.rounds} interleaved "
        f"windows of {args.seconds:.0f} s each (median)"
    )
    print(
        f"   baseline, GET+SET of {RECORD_SIZE} B:  {b:6.0f} requests/s   "
        f"(windows: {', '.join(f'{r:.0f}' for r in base_rates)})"
    )
    print(
        f"   engine, view + action + table:   {m:6.0f} moves/s      "
        f"(windows: {', '.join(f'{r:.0f}' for r in moves)}); {per_move:.2f} requests a move"
    )
    print(
        f"      engine requests/s vs baseline requests/s: {100 * m * per_move / b:.0f}%   "
        "(goal >= 50%)"
    )


def run_latency(base_port: int, engine_port: int, args: argparse.Namespace) -> None:
    move_lat, action_lat = asyncio.run(paced(engine_port, args.paced_games, args.paced_seconds))
    base_lat = asyncio.run(paced_baseline(base_port, args.paced_games, args.paced_seconds))
    print(
        f"\n2. latency: {args.paced_games} games each moving once a second, open loop, "
        f"{args.paced_seconds:.0f} s ({len(move_lat)} moves); from the due time"
    )
    show_latency("engine, per move (3 requests)", move_lat)
    show_latency("engine, action request alone", action_lat)
    show_latency(f"baseline, {REQUESTS_A_MOVE} requests at that pace", base_lat)
    print("   (goal: p99 <= 20 ms per move)")


def run_memory(args: argparse.Namespace) -> None:
    print(f"\n3. Redis memory per live 4-player game ({args.memory_games} games)")
    with Server("services.engine.app:app", args.redis) as engine:
        show_memory(
            "this Redis (its config)",
            asyncio.run(memory_per_game(engine.port, args.redis, args.memory_games)),
        )
    print("   (goal: <= 4096 B per game)")


def main() -> None:
    with reported_stop():
        measure_all()


def measure_all() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--seconds", type=float, default=5.0, help="per saturation window")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved saturation windows")
    parser.add_argument("--workers", type=int, default=32, help="concurrent connections")
    parser.add_argument("--paced-games", type=int, default=200)
    parser.add_argument("--paced-seconds", type=float, default=20.0)
    parser.add_argument("--memory-games", type=int, default=500)
    parser.add_argument(
        "--phases", default="saturation,latency,memory", help="comma-separated subset to run"
    )
    args = parser.parse_args()
    phases = set(args.phases.split(","))
    flush = redis.Redis.from_url(args.redis)
    flush.flushdb()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    print(
        "servers: uvicorn, 1 worker, uvloop, httptools, no access log, keep-alive 120 s; "
        f"Redis: {args.redis}"
    )
    if phases & {"saturation", "latency"}:
        with (
            Server("bench.service_load:baseline_app", args.redis) as base,
            Server("services.engine.app:app", args.redis) as engine,
        ):
            if "saturation" in phases:
                run_saturation(base.port, engine.port, args)
            if "latency" in phases:
                flush.flushdb()
                run_latency(base.port, engine.port, args)
    if "memory" in phases:
        run_memory(args)
    flush.flushdb()
    flush.close()


if __name__ == "__main__":
    main()
