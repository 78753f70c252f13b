"""The Mini App under load: N games of four players, each player's page a live table
stream (server-sent events), one move per game every ``--interval`` seconds.

Real processes: the engine and the Mini App service (``python -m services.webapp``) on the
given Redis, and the local Telegram (in this process) answering the service's
getChatMember. Viewers are headless clients reading the stream over plain sockets; each
game's player to act presses the first of their legal moves (play, colour, take, keep,
draw) through ``POST …/moves``. Prints, over the measured window:

- press → every viewer's table updated: from the press being sent to each of the game's
  four streams delivering that version (p50/p99; goal at 250 games × 4 viewers, one move
  per 10 s a game: p50 ≤ 20 ms, p99 ≤ 100 ms);
- beside it, the baseline of the same run: press → the move's answer (the engine applied
  it, through the Mini App);
- the Mini App's resident memory per open connection (its RSS with every stream open,
  minus before any, over the count; goal ≤ 50 KB).

    .venv/bin/python bench/mini_app.py [--games 50] [--interval 10] [--seconds 60]
        [--redis redis://127.0.0.1:6379/12]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402
import redis  # noqa: E402

from bench.percentiles import percentile  # noqa: E402
from harness.services import ENGINE_TOKEN, WebAppProcess, start_engine, start_webapp  # noqa: E402
from playground.server import start_in_thread  # noqa: E402
from playground.web_apps import sign  # noqa: E402
from services.engine.client import EngineClient  # noqa: E402

PLAYERS = 4
#: The order a player picks among their legal moves (catching and UNO calls left out).
PREFERENCE = ("p.", "c.", "a", "k", "d")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def choice(legal: list[str]) -> str | None:
    for head in PREFERENCE:
        for code in legal:
            if code.startswith(head):
                return code
    return None


@dataclass
class Game:
    game_id: str
    players: list[int]
    init_data: dict[int, str]
    #: the latest table each player's stream delivered
    tables: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: version -> when the press that made it was sent
    pressed: dict[int, float] = field(default_factory=dict)
    #: version -> how many streams have shown it
    shown: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))


@dataclass
class Figures:
    updated: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)
    refused: int = 0
    measuring: bool = False


async def viewer(
    host: str, port: int, game: Game, user: int, figures: Figures, opened: asyncio.Event
) -> None:
    """One page's stream over a plain socket, read as the browser's EventSource reads it."""
    path = f"/v1/games/{game.game_id}/stream?init_data={quote(game.init_data[user])}"
    reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream refused: {status!r}")
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    opened.set()
    event, data = b"", b""
    while True:
        line = await reader.readline()
        if not line:
            return
        line = line.rstrip(b"\r\n")
        # chunked transfer: size lines are hex digits only; SSE lines never are
        if line and all(c in b"0123456789abcdefABCDEF" for c in line):
            continue
        if line.startswith(b"event: "):
            event = line[7:]
        elif line.startswith(b"data: "):
            data = line[6:]
        elif not line and data:
            if event == b"table":
                table = json.loads(data)
                game.tables[user] = table
                version = table["version"]
                sent = game.pressed.get(version)
                game.shown[version] += 1
                if sent is not None and figures.measuring and game.shown[version] == PLAYERS:
                    figures.updated.append(time.perf_counter() - sent)
            event, data = b"", b""


async def mover(
    client: httpx.AsyncClient,
    game: Game,
    interval: float,
    offset: float,
    figures: Figures,
    stop: float,
) -> None:
    await asyncio.sleep(offset)
    while time.monotonic() < stop:
        started = time.monotonic()
        for user, table in list(game.tables.items()):
            view = table.get("view") or {}
            code = (
                choice(view.get("legal") or [])
                if table.get("seat") == view.get("current")
                else None
            )
            if code is None:
                continue
            version = table["version"]
            sent = time.perf_counter()
            game.pressed[version + 1] = sent
            try:
                response = await client.post(
                    f"/v1/games/{game.game_id}/moves",
                    json={"action": code, "version": version},
                    headers={"Authorization": f"tma {game.init_data[user]}"},
                )
            except httpx.HTTPError:
                figures.refused += 1
                break
            if response.status_code == 200:
                if figures.measuring:
                    figures.answered.append(time.perf_counter() - sent)
            else:
                figures.refused += 1
            break
        await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))


async def set_up(
    args: argparse.Namespace, engine_url: str, control: Any, token: str, bot: dict[str, Any]
) -> list[Game]:
    games: list[Game] = []
    async with EngineClient(engine_url, ENGINE_TOKEN) as engine:
        for g in range(args.games):
            people = [control.create_user(f"P{g}-{i}") for i in range(PLAYERS)]
            ids = [p["id"] for p in people]
            group = control.create_group(f"bench {g}", ids, bots=[token])
            info = await engine.create_game(group["id"], ids[0], "P0", turn_seconds=3600)
            for i, uid in enumerate(ids[1:], 1):
                await engine.join(info.game_id, uid, f"P{i}")
            await engine.start(info.game_id, ids[0])
            now = str(int(time.time()))
            init = {
                p["id"]: sign(
                    token,
                    {
                        "user": json.dumps({"id": p["id"], "first_name": p["first_name"]}),
                        "auth_date": now,
                    },
                )
                for p in people
            }
            games.append(Game(info.game_id, ids, init))
    return games


async def run(
    args: argparse.Namespace, webapp: WebAppProcess, url: str, games: list[Game]
) -> Figures:
    figures = Figures()
    host, port = "127.0.0.1", int(url.rsplit(":", 1)[1])
    pid = webapp.process.pid if webapp.process else 0
    before = rss_kb(pid)
    tasks = []
    opened = []
    for game in games:
        for user in game.players:
            event = asyncio.Event()
            opened.append(event)
            tasks.append(asyncio.create_task(viewer(host, port, game, user, figures, event)))
            await asyncio.sleep(0.002)  # a crowd arriving, not one instant
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not all(
        e.is_set() or t.done() for e, t in zip(opened, tasks, strict=True)
    ):
        await asyncio.sleep(0.2)
    failed = [t for t in tasks if t.done()]
    for task in failed[:3]:
        print(f"a viewer failed: {task.exception()!r}")
    while time.monotonic() < deadline and sum(len(g.tables) for g in games) < len(tasks) - len(
        failed
    ):
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)
    connections = sum(1 for e in opened if e.is_set()) - len(failed)
    per_connection = (rss_kb(pid) - before) / connections
    print(
        f"connections: {connections}; Mini App RSS {before} KB before, "
        f"{per_connection:.1f} KB per open connection (goal <= 50 KB)"
    )
    stop = time.monotonic() + args.warmup + args.seconds
    async with httpx.AsyncClient(
        base_url=url, timeout=30, limits=httpx.Limits(max_connections=200)
    ) as client:
        movers = [
            asyncio.create_task(
                mover(client, g, args.interval, i * args.interval / len(games), figures, stop)
            )
            for i, g in enumerate(games)
        ]
        await asyncio.sleep(args.warmup)
        figures.measuring = True
        await asyncio.gather(*movers)
    for task in tasks:
        task.cancel()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument(
        "--interval", type=float, default=10.0, help="seconds between a game's moves"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    args = parser.parse_args()
    redis.Redis.from_url(args.redis).flushdb()
    log_dir = Path(tempfile.mkdtemp(prefix="mini-app-bench-"))
    telegram = start_in_thread()
    control = telegram.control
    control.set_limits(False)
    made = control.create_bot("uno_bench_app_bot", "UNO")
    engine = start_engine(args.redis, log_dir)
    webapp = start_webapp(
        "webapp",
        args.redis,
        engine.url,
        telegram.bot_api_url,
        made["token"],
        log_dir,
        UNO_WEBAPP_MEMBER_CACHE_SECONDS="600",
    )
    url = webapp.url
    try:
        games = asyncio.run(set_up(args, engine.url, control, made["token"], made["user"]))
        figures = asyncio.run(run(args, webapp, url, games))
    finally:
        webapp.stop()
        engine.stop()
        telegram.stop()
    moves = len(figures.answered)
    print(
        f"{args.games} games x {PLAYERS} viewers, one move per {args.interval:g} s a game, "
        f"{args.seconds:g} s measured: {moves} moves applied, {figures.refused} refused or failed"
    )
    for name, values in (
        ("press -> every viewer updated", figures.updated),
        ("baseline: press -> move answered", figures.answered),
    ):
        if values:
            p50, p99 = percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000
            print(f"{name:34} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   (n={len(values)})")
    print("goal (250 games x 4 viewers, 1 move / 10 s a game): p50 <= 20 ms, p99 <= 100 ms")


if __name__ == "__main__":
    main()
