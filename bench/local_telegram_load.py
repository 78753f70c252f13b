"""Load benchmark of the local Telegram (playground), beside a baseline measured in
the same run.

The server runs as its own process (the harness's ``start_local_telegram``, flood limits
off), as it
does under the bot's capacity run. One bot serves N groups of four users, as the UNO bot
does. A *move* is what a turn costs the local Telegram: a user presses an inline button
(control API, waits for the toast), the bot reads the callback query by long polling,
answers it and edits the game message (Bot API). The baseline is ``GET /healthz`` on the
same server with the same client and concurrency: the floor of the HTTP stack.

Prints:
1. saturation: requests/s of the baseline and of the move mix, moves/s, and the server's
   CPU per request (from /proc), each phase for ``--seconds``;
2. paced: N games each moving once every ``--interval`` seconds (the bot's capacity run),
   the server's CPU share (100% = one core, the most one process can use) and move latency.

    .venv/bin/python bench/local_telegram_load.py [--games 300] [--seconds 10]
        [--interval 2.0] [--paced-seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.percentiles import percentile  # noqa: E402
from bench.service_load import Connection  # noqa: E402
from bench.stopping import reported_stop  # noqa: E402
from harness.services import TelegramProcess, start_local_telegram  # noqa: E402
from playground.control import TelegramControl  # noqa: E402

KEYBOARD = {"inline_keyboard": [[{"text": "Play", "callback_data": "play"}]]}


class Bot:
    """The bot side: long polling, and for each press an answer and an edit, over a pool of
    keep-alive connections as a bot's HTTP client keeps one."""

    def __init__(self, pool: asyncio.Queue[Connection], poller: Connection, token: str) -> None:
        self.pool = pool
        self.poller = poller
        self.base = f"/bot{token}/"
        self.requests = 0
        self.turns: dict[int, int] = {}

    async def call(self, method: str, conn: Connection | None = None, **params: Any) -> Any:
        self.requests += 1
        borrowed = conn is None
        conn = await self.pool.get() if conn is None else conn
        try:
            _, body = await conn.request("POST", self.base + method, params)
        finally:
            if borrowed:
                self.pool.put_nowait(conn)
        if not body["ok"]:
            raise RuntimeError(f"{method}: {body['description']}")
        return body["result"]

    async def handle(self, update: dict[str, Any]) -> None:
        query = update.get("callback_query")
        if query is None:
            return
        message = query["message"]
        turn = self.turns[message["chat"]["id"]] = self.turns.get(message["chat"]["id"], 0) + 1
        await self.call("answerCallbackQuery", callback_query_id=query["id"], text="played")
        await self.call(
            "editMessageText",
            chat_id=message["chat"]["id"],
            message_id=message["message_id"],
            text=f"<b>Turn {turn}</b>: {query['from']['first_name']} played",
            parse_mode="HTML",
            reply_markup=KEYBOARD,
        )

    async def poll(self) -> None:
        offset = 0
        while True:
            updates = await self.call("getUpdates", self.poller, offset=offset, timeout=10)
            if updates:
                offset = updates[-1]["update_id"] + 1
                await asyncio.gather(*(self.handle(u) for u in updates))


class Game:
    def __init__(self, chat_id: int, players: list[int], message_id: int) -> None:
        self.chat_id = chat_id
        self.players = players
        self.message_id = message_id
        self.turn = 0


async def press(conn: Connection, game: Game) -> None:
    """The game's next player presses the button and waits for the toast."""
    player = game.players[game.turn % len(game.players)]
    game.turn += 1
    body = {
        "user_id": player,
        "chat_id": game.chat_id,
        "message_id": game.message_id,
        "callback_data": "play",
        "timeout": 30,
    }
    _, answer = await conn.request("POST", "/control/presses", body)
    if not answer["answered"]:
        raise RuntimeError("a press went unanswered")


def set_up(control: TelegramControl, n_games: int) -> tuple[str, list[Game]]:
    made = control.create_bot("bench_bot")
    token = made["token"]
    games = []
    with httpx.Client() as http:
        for n in range(n_games):
            players = [control.create_user(f"P{n}.{k}")["id"] for k in range(4)]
            chat = control.create_group(f"table {n}", players, bots=[token])
            sent = http.post(
                f"{control.base_url}/bot{token}/sendMessage",
                json={"chat_id": chat["id"], "text": "Lobby", "reply_markup": KEYBOARD},
            ).json()["result"]
            games.append(Game(chat["id"], players, sent["message_id"]))
    return token, games


async def closed_loop(
    server: TelegramProcess,
    workers: int,
    seconds: float,
    step: Callable[[int], Awaitable[int]],
) -> tuple[int, float, float]:
    """Runs ``step(worker)`` back to back in every worker; (requests, seconds, server CPU)."""
    count = 0
    stop = time.monotonic() + seconds

    async def run(worker: int) -> None:
        nonlocal count
        while time.monotonic() < stop:
            done = await step(worker)  # not `count += await ...`: that reads count too early
            count += done

    cpu = server.cpu_seconds()
    start = time.monotonic()
    await asyncio.gather(*(run(w) for w in range(workers)))
    return count, time.monotonic() - start, server.cpu_seconds() - cpu


async def main_async(args: argparse.Namespace) -> None:
    log_dir = Path(tempfile.mkdtemp(prefix="local-telegram-load-"))
    server = start_local_telegram(log_dir, "--no-limits")
    try:
        control = server.control
        token, games = set_up(control, args.games)
        print(f"local telegram at {server.url}: {args.games} groups of 4 with one bot")
        port = int(server.url.rsplit(":", 1)[1])
        users = [await Connection.open(port) for _ in games]
        pool: asyncio.Queue[Connection] = asyncio.Queue()
        for _ in range(64):
            pool.put_nowait(await Connection.open(port))
        bot = Bot(pool, await Connection.open(port), token)

        async def healthz(worker: int) -> int:
            await users[worker].request("GET", "/healthz")
            return 1

        n, elapsed, cpu = await closed_loop(server, args.games, args.seconds, healthz)
        print(
            f"baseline GET /healthz:         {n / elapsed:6.0f} requests/s, "
            f"server CPU {cpu / n * 1000:.3f} ms/request ({cpu / elapsed:.0%} of a core)"
        )

        poller = asyncio.create_task(bot.poll())

        async def move(worker: int) -> int:
            await press(users[worker], games[worker])
            return 1

        bot_requests = bot.requests
        moves, elapsed, cpu = await closed_loop(server, args.games, args.seconds, move)
        n = moves + bot.requests - bot_requests  # each press, and the bot's calls
        print(
            f"moves (press + answer + edit): {n / elapsed:6.0f} requests/s, "
            f"{moves / elapsed:.0f} moves/s, "
            f"server CPU {cpu / n * 1000:.3f} ms/request ({cpu / elapsed:.0%} of a core)"
        )

        latencies: list[float] = []
        stop = time.monotonic() + args.paced_seconds

        async def paced(i: int, delay: float) -> None:
            await asyncio.sleep(delay)
            next_at = time.monotonic()
            while next_at < stop:
                started = time.monotonic()
                await press(users[i], games[i])
                latencies.append(time.monotonic() - started)
                next_at += args.interval
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))

        cpu = server.cpu_seconds()
        start = time.monotonic()
        spread = args.interval / len(games)
        await asyncio.gather(*(paced(i, i * spread) for i in range(len(games))))
        elapsed = time.monotonic() - start
        cpu = server.cpu_seconds() - cpu
        p50 = percentile(latencies, 0.5) * 1000
        p95 = percentile(latencies, 0.95) * 1000
        print(
            f"paced: {args.games} games, a move every {args.interval:g} s each "
            f"({len(latencies) / elapsed:.0f} moves/s): server CPU {cpu / elapsed:.0%} of a "
            f"core; move latency p50 {p50:.1f} ms, p95 {p95:.1f} ms"
        )
        poller.cancel()
        for conn in users:
            conn.close()
    finally:
        server.stop()
        shutil.rmtree(log_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--paced-seconds", type=float, default=20.0)
    args = parser.parse_args()
    with reported_stop():
        asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
