"""Load benchmark of the engine service, beside a baseline measured in the same run.

Random legal agents play 4-player Classic games through the HTTP API (each move: the
owing player's view, then their action), against a real uvicorn server. The baseline is a
bare FastAPI route doing one Redis GET and one SET of a value the size of a game record,
served by uvicorn with the same settings (one worker, uvloop, httptools, no access log).

Prints:
1. saturation: moves/s (closed loop, many games at once) against baseline requests/s;
2. latency at a realistic pace: N games each moving about once a second (open loop,
   paced, measured from the scheduled time), p50/p95/p99 per move and per action request;
3. Redis memory per live 4-player game (games part-way through, all keys included).

    .venv/bin/python bench/service_load.py [--redis redis://127.0.0.1:6379/14]
        [--seconds 10] [--paced-games 200] [--paced-seconds 20] [--memory-games 500]

The Redis database given is emptied (FLUSHDB) before each phase. The load generator is a
minimal keep-alive HTTP/1.1 client on asyncio, the same for both servers, so its own cost
weighs the same on both sides.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
import redis

REPO = Path(__file__).resolve().parents[1]
TOKEN = "bench-token"
RECORD_SIZE = 1200  # bytes: about a 4-player game record part-way through

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, app: str, redis_url: str) -> None:
        self.port = free_port()
        self.app = app
        self.redis_url = redis_url
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        env = {
            **os.environ,
            "UNO_REDIS_URL": self.redis_url,
            "UNO_ENGINE_TOKEN": TOKEN,
            "PYTHONPATH": str(REPO),
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                self.app,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                "1",
                "--loop",
                "uvloop",
                "--http",
                "httptools",
                "--no-access-log",
                "--log-level",
                "warning",
            ],
            cwd=REPO,
            env=env,
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
        """The owing player looks at their view and takes a random legal action."""
        user = self.owing_user
        _, mine = await self.conn.request("GET", f"/v1/games/{self.game_id}/view?user_id={user}")
        legal = mine["view"]["legal"]
        code = self.rng.choice(legal)
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
        self.moves += 1
        pending = result["view"]["pending"]
        if pending is None:
            self.finished += 1
            await self.new()
        else:
            self.owing_user = self.users[pending["player"]]


# -- phases -----------------------------------------------------------------------------------


async def closed_loop(
    port: int, workers: int, seconds: float, step: Callable[[Connection, int], Awaitable[int]]
) -> float:
    """``workers`` connections each repeating ``step`` for ``seconds``; units per second."""
    conns = [await Connection.open(port) for _ in range(workers)]
    stop = time.perf_counter() + seconds
    counts = [0] * workers

    async def run(i: int) -> None:
        while time.perf_counter() < stop:
            counts[i] += await step(conns[i], i)

    started = time.perf_counter()
    await asyncio.gather(*(run(i) for i in range(workers)))
    elapsed = time.perf_counter() - started
    for c in conns:
        c.close()
    return sum(counts) / elapsed


async def baseline_rate(port: int, workers: int, seconds: float) -> float:
    async def step(conn: Connection, i: int) -> int:
        status, _ = await conn.request("POST", f"/baseline/k{i}")
        assert status == 200
        return 1

    await closed_loop(port, workers, 1.0, step)  # warm-up
    return await closed_loop(port, workers, seconds, step)


async def engine_rate(port: int, workers: int, seconds: float) -> tuple[float, int]:
    conns = [await Connection.open(port) for _ in range(workers)]
    games = [Game(conn, random.Random(i)) for i, conn in enumerate(conns)]
    for g in games:
        await g.new()
    by_conn = {id(g.conn): g for g in games}

    async def step(conn: Connection, i: int) -> int:
        await by_conn[id(conns[i])].move()
        return 1

    async def warm(conn: Connection, i: int) -> int:
        return await step(conn, i)

    stop = time.perf_counter() + 1.0
    while time.perf_counter() < stop:
        await asyncio.gather(*(warm(c, i) for i, c in enumerate(conns)))
    counts = [0] * workers
    stop = time.perf_counter() + seconds

    async def run(i: int) -> None:
        while time.perf_counter() < stop:
            counts[i] += await step(conns[i], i)

    started = time.perf_counter()
    await asyncio.gather(*(run(i) for i in range(workers)))
    elapsed = time.perf_counter() - started
    for c in conns:
        c.close()
    return sum(counts) / elapsed, sum(g.finished for g in games)


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

    async def run(g: Game, phase: float) -> None:
        k = 0
        while True:
            due = t0 + phase + k
            if due > t0 + seconds:
                return
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            await g.move(action_latency)
            move_latency.append(time.perf_counter() - due)
            k += 1

    rng = random.Random(0)
    await asyncio.gather(*(run(g, rng.random()) for g in games))
    for c in conns:
        c.close()
    return move_latency, action_latency


async def memory_per_game(port: int, redis_url: str, n_games: int) -> dict[str, float]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    before = int(client.info("memory")["used_memory"])  # type: ignore[index]
    conns = [await Connection.open(port) for _ in range(50)]
    games: list[Game] = []
    rng = random.Random(5)
    for i in range(n_games):
        g = Game(conns[i % len(conns)], random.Random(i))
        await g.new()
        games.append(g)
    # Part-way through: 10 to 60 moves each (a game lasts a few hundred).
    targets = {id(g): rng.randint(10, 60) for g in games}

    async def play(batch: list[Game]) -> None:
        for g in batch:
            while g.moves < targets[id(g)] and not g.finished:
                await g.move()

    await asyncio.gather(*(play(games[i :: len(conns)]) for i in range(len(conns))))
    live = [g for g in games if not g.finished]
    after = int(client.info("memory")["used_memory"])  # type: ignore[index]
    sample = live[0].game_id
    usage = {
        "game key": client.memory_usage(f"uno:game:{sample}") or 0,
        "events stream": client.memory_usage(f"uno:events:{sample}") or 0,
    }
    stream_len = client.xlen(f"uno:events:{sample}")
    for c in conns:
        c.close()
    client.close()
    return {
        "per game": (after - before) / len(games),
        "games": float(len(games)),
        "sample game key": float(usage["game key"]),
        "sample stream": float(usage["events stream"]),
        "sample stream entries": float(stream_len),  # type: ignore[arg-type]
    }


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=32, help="concurrent connections")
    parser.add_argument("--paced-games", type=int, default=200)
    parser.add_argument("--paced-seconds", type=float, default=20.0)
    parser.add_argument("--memory-games", type=int, default=500)
    args = parser.parse_args()
    flush = redis.Redis.from_url(args.redis)

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print("server: uvicorn, 1 worker, uvloop, httptools, no access log")
    flush.flushdb()
    with Server("bench.service_load:baseline_app", args.redis) as base:
        base_rps = asyncio.run(baseline_rate(base.port, args.workers, args.seconds))
    flush.flushdb()
    with Server("services.engine.app:app", args.redis) as engine:
        moves, finished = asyncio.run(engine_rate(engine.port, args.workers, args.seconds))
        print(f"\n1. saturation (closed loop, {args.workers} connections, {args.seconds:.0f} s)")
        print(f"   baseline (GET+SET of {RECORD_SIZE} B): {base_rps:8.0f} requests/s")
        print(f"   engine: {moves:8.0f} moves/s ({2 * moves:.0f} requests/s: view + action)")
        print(f"   moves/s vs baseline requests/s: {100 * moves / base_rps:.0f}%  (goal >= 50%)")
        print(f"   games finished during the run: {finished}")

        flush.flushdb()
        move_lat, action_lat = asyncio.run(paced(engine.port, args.paced_games, args.paced_seconds))
        print(
            f"\n2. latency, {args.paced_games} games each moving once a second "
            f"(open loop, {args.paced_seconds:.0f} s, {len(move_lat)} moves)"
        )
        for label, values in (("per move (view+action)", move_lat), ("action request", action_lat)):
            print(
                f"   {label:24s} p50 {pct(values, 0.50):6.2f} ms   p95 {pct(values, 0.95):6.2f}"
                f" ms   p99 {pct(values, 0.99):6.2f} ms   mean {statistics.mean(values) * 1e3:6.2f} ms"
            )
        print("   (goal: p99 <= 20 ms per move)")

        mem = asyncio.run(memory_per_game(engine.port, args.redis, args.memory_games))
        print(f"\n3. Redis memory per live 4-player game ({mem['games']:.0f} games, 10-60 moves)")
        print(f"   used_memory delta / games: {mem['per game']:.0f} B  (goal <= 4096 B)")
        print(
            f"   one game: record key {mem['sample game key']:.0f} B, events stream "
            f"{mem['sample stream']:.0f} B ({mem['sample stream entries']:.0f} entries)"
        )
    flush.flushdb()
    flush.close()


if __name__ == "__main__":
    main()
