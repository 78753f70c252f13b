"""What one bot token carries: Bot API calls per turn, 429s, press-to-table latency, CPU
and the bot's Redis per game, with N concurrent 4-player games at a steady pace.

Everything real but Telegram: the engine (uvicorn), a bot process (``python -m
services.bot``, polling, Telegram's limits kept by its shared rate limiter) and the local
Telegram (``python -m services.playground``, its flood limits on), each its own process;
Redis database ``--redis`` (emptied first). Four simulated people per game, in a thread
pool: every ``--pace`` seconds the one who owes a decision (asked of the engine, which the
count leaves out) makes it through Telegram — by pressing its button in their private hand
(``--hands private``) or by choosing it from the inline-mode hand (``--hands inline``).

Figures, over the steady window after set-up:
- Bot API calls per turn: in groups / in private chats / all (answers to callback and
  inline queries included, getUpdates not); a turn is one write to a game (its version).
- 429s received.
- press to table: from a press (or inline choice) to the first edit of that group's table
  after it, p50 / p99, on the local Telegram's clock (the bench reads its call log; both
  run on this machine's clock).
- CPU per turn of the bot and the engine processes (/proc), the bot's own Redis bytes per
  live game (MEMORY USAGE of its ``bot:`` keys) and its RSS growth per 1,000 games.

    .venv/bin/python bench/telegram_load.py --games 100 --seconds 60 --hands inline
    .venv/bin/python bench/telegram_load.py --games 100 --seconds 60 --hands private
    .venv/bin/python bench/telegram_load.py --capacity   # raise games until 429 or p99 > 100 ms
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.bot.callbacks import Callback, Kind
from services.engine import local_server
from services.engine.client import EngineClient
from services.playground.control import ControlError, TelegramControl

TOKEN = "bench-engine-token"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def wait_http(url: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


@dataclass
class Services:
    telegram_url: str
    engine_url: str
    procs: list[Any] = field(default_factory=list)
    bot: Any = None
    engine: Any = None

    def stop(self) -> None:
        for proc in self.procs:
            local_server.stop(proc)


def start_services(redis_url: str, log_dir: Path) -> Services:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    telegram = local_server.spawn(
        [sys.executable, "-m", "services.playground", "--host", "127.0.0.1", "--port", "0"],
        env,
        log_dir / "telegram.log",
    )
    end = time.monotonic() + 60
    url = None
    while url is None and time.monotonic() < end:
        found = re.search(r"listening on (http://\S+)", (log_dir / "telegram.log").read_text())
        url = found.group(1) if found else None
        time.sleep(0.1)
    if url is None:
        raise RuntimeError("the local Telegram did not start")
    port = local_server.free_port()
    engine_url = f"http://127.0.0.1:{port}"
    engine = local_server.spawn(
        local_server.uvicorn_command(
            "services.engine.app:app", port, "--log-level", "warning", "--no-access-log"
        ),
        local_server.service_env(redis_url, engine_url, TOKEN),
        log_dir / "engine.log",
    )
    wait_http(f"{engine_url}/readyz")
    return Services(url, engine_url, [telegram, engine], engine=engine)


def start_bot(services: Services, redis_url: str, token: str, log_dir: Path) -> None:
    port = local_server.free_port()
    env = local_server.service_env(
        redis_url,
        services.engine_url,
        TOKEN,
        UNO_TELEGRAM_TOKEN=token,
        UNO_BOT_API_URL=f"{services.telegram_url}/bot",
        UNO_BOT_HTTP_HOST="127.0.0.1",
        UNO_BOT_HTTP_PORT=str(port),
        UNO_LOG_LEVEL="WARNING",
    )
    services.bot = local_server.spawn(
        [sys.executable, "-m", "services.bot"], env, log_dir / "bot.log"
    )
    services.procs.insert(0, services.bot)
    wait_http(f"http://127.0.0.1:{port}/readyz")


@dataclass
class Game:
    chat_id: int
    users: list[int]
    game_id: str = ""
    presses: list[float] = field(default_factory=list)
    refused: int = 0


def make_games(control: TelegramControl, engine_url: str, token: str, n: int) -> list[Game]:
    games = []
    for g in range(n):
        users = [control.create_user(f"G{g}P{i}")["id"] for i in range(4)]
        chat = control.create_group(f"Game {g}", users, bots=[token])
        for user in users:
            control.start_bot(user, token)
        games.append(Game(int(chat["id"]), users))

    async def create() -> None:
        async with EngineClient(engine_url, TOKEN) as engine:
            for game in games:
                info = await engine.create_game(game.chat_id, game.users[0], "P0")
                for i, user in enumerate(game.users[1:], 1):
                    await engine.join(info.game_id, user, f"P{i}")
                await engine.start(info.game_id, game.users[0])
                game.game_id = info.game_id

    asyncio.run(create())
    return games


def owing(engine: httpx.Client, game: Game) -> tuple[int, int, list[str]] | None:
    """(the user owing a decision, the version, their legal codes), asked of the engine."""
    spectator = engine.get(f"/v1/games/{game.game_id}/spectator").json()
    view = spectator.get("view")
    if not view or view.get("pending") is None:
        return None
    seat = view["pending"]["player"]
    user = game.users[seat]
    mine = engine.get(f"/v1/games/{game.game_id}/view", params={"user_id": user}).json()["view"]
    return user, mine["version"], mine["legal"]


def pick(legal: list[str], rng: random.Random) -> str | None:
    """A random play or decision; draw (or keep) when there is none."""
    plays = [c for c in legal if c.startswith(("p.", "c.", "s.", "a"))]
    if plays:
        return rng.choice(plays)
    return next((c for c in legal if c in ("d", "k")), legal[0] if legal else None)


def wait_for_tables(control: TelegramControl, games: list[Game]) -> None:
    """Until every game's table is posted (the bot takes each game up when it starts)."""
    end = time.monotonic() + 120
    for game in games:
        while time.monotonic() < end:
            msgs = control.messages(game.chat_id)
            if any(m.get("text", "").startswith("🎴 UNO") for m in msgs):
                break
            time.sleep(0.05)


def open_private_hands(control: TelegramControl, games: list[Game], bot_username: str) -> None:
    for game in games:
        table = None
        end = time.monotonic() + 60
        while table is None and time.monotonic() < end:
            msgs = control.messages(game.chat_id)
            table = next((m for m in msgs if m.get("text", "").startswith("🎴 UNO")), None)
            time.sleep(0.05)
        assert table is not None, "no table posted"
        data = Callback(Kind.HAND, game.game_id, 0).encode()
        for user in game.users:
            control.press_button(user, game.chat_id, table["message_id"], data, timeout=30)


def play_one(
    control: TelegramControl, engine: httpx.Client, game: Game, mode: str, bot: dict[str, Any],
    rng: random.Random,
) -> None:  # fmt: skip
    found = owing(engine, game)
    if found is None:
        return
    user, version, legal = found
    code = pick(legal, rng)
    if code is None:
        return
    if mode == "inline":
        answer = control.inline_query(user, game.game_id, chat_id=game.chat_id, timeout=30)
        ids = [r["id"] for r in answer["results"] if r["id"].startswith("a|")]
        wanted = Callback(Kind.ACT, game.game_id, version, code).encode()
        chosen = wanted if wanted in ids else next(iter(ids), None)
        if chosen is None:
            return
        game.presses.append(time.time())
        control.choose_inline_result(user, answer["query_id"], chosen, chat_id=game.chat_id)
        return
    data = Callback(Kind.ACT, game.game_id, version, code).encode()
    end = time.monotonic() + 10
    while time.monotonic() < end:  # the person acts once their hand shows the decision
        hands = control.private_messages(user, bot["token"])
        hand = next((m for m in reversed(hands) if data in str(m.get("reply_markup"))), None)
        if hand is not None:
            game.presses.append(time.time())
            try:
                result = control.press_button(user, bot["id"], hand["message_id"], data, timeout=30)
            except ControlError:
                continue  # edited away meanwhile
            if result.get("text"):
                game.refused += 1
            return
        time.sleep(0.05)


def run(args: argparse.Namespace, n_games: int) -> dict[str, Any]:
    r = redis.Redis.from_url(args.redis)
    r.flushdb()
    log_dir = Path(tempfile.mkdtemp(prefix="telegram-load-"))
    services = start_services(args.redis, log_dir)
    try:
        control = TelegramControl(services.telegram_url, timeout=60)
        control.set_limits(True)
        bot = control.create_bot(username="uno_load_bot", privacy_mode=True)
        bot_info = {"token": bot["token"], "id": bot["user"]["id"]}
        start_bot(services, args.redis, bot["token"], log_dir)
        games = make_games(control, services.engine_url, bot["token"], n_games)
        wait_for_tables(control, games)
        if args.hands == "private":
            open_private_hands(control, games, bot["user"]["username"])
        time.sleep(2)  # the set-up's last calls land before the window opens
        engine = httpx.Client(
            base_url=services.engine_url, headers={"Authorization": f"Bearer {TOKEN}"}
        )
        versions_before = {
            g.game_id: engine.get(f"/v1/games/{g.game_id}").json()["version"] for g in games
        }
        calls_before = len(control.calls(token=bot["token"]))
        rss_before = rss_bytes(services.bot.pid)
        cpu_bot, cpu_engine = cpu_seconds(services.bot.pid), cpu_seconds(services.engine.pid)
        stop = time.monotonic() + args.seconds
        rng = random.Random(7)

        errors: list[str] = []

        def player(game: Game, offset: float) -> None:
            next_move = time.monotonic() + offset
            own_control = TelegramControl(services.telegram_url, timeout=60)
            own_engine = httpx.Client(
                base_url=services.engine_url, headers={"Authorization": f"Bearer {TOKEN}"}
            )
            while True:
                time.sleep(max(0.0, next_move - time.monotonic()))
                if time.monotonic() > stop:
                    return
                try:
                    play_one(own_control, own_engine, game, args.hands, bot_info, rng)
                except Exception as e:  # a bench player carries on
                    errors.append(str(e))
                next_move += args.pace

        with ThreadPoolExecutor(max_workers=len(games)) as pool:
            for i, game in enumerate(games):
                pool.submit(player, game, args.pace * i / len(games))
        cpu_bot = cpu_seconds(services.bot.pid) - cpu_bot
        cpu_engine = cpu_seconds(services.engine.pid) - cpu_engine
        time.sleep(2)  # let the last renders land
        calls = control.calls(token=bot["token"])[calls_before:]
        versions_after = {
            g.game_id: engine.get(f"/v1/games/{g.game_id}").json()["version"] for g in games
        }
        turns = sum(versions_after[k] - versions_before[k] for k in versions_before)
        counted = [c for c in calls if c["method"] != "getUpdates"]
        group = [c for c in counted if isinstance(c.get("chat_id"), int) and c["chat_id"] < 0]
        private = [c for c in counted if isinstance(c.get("chat_id"), int) and c["chat_id"] > 0]
        too_many = [c for c in calls if c.get("error_code") == 429]
        latencies = []
        edits: dict[int, list[float]] = {}
        for c in group:
            if c["method"] in ("editMessageText", "sendMessage"):
                edits.setdefault(c["chat_id"], []).append(c["time"])
        for game in games:
            times = sorted(edits.get(game.chat_id, []))
            for pressed in game.presses:
                after = next((t for t in times if t >= pressed), None)
                if after is not None:
                    latencies.append(after - pressed)
        bot_keys = list(r.scan_iter(match="bot:*", count=1000))
        bot_bytes = sum(r.memory_usage(k) or 0 for k in bot_keys if not k.startswith(b"bot:rate:"))
        rss_growth = rss_bytes(services.bot.pid) - rss_before
        if errors:
            print(f"{len(errors)} player errors, e.g. {errors[0]}", file=sys.stderr)
        qs = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [0.0] * 99
        return {
            "games": n_games,
            "turns": turns,
            "group": len(group) / max(turns, 1),
            "private": len(private) / max(turns, 1),
            "all": len(counted) / max(turns, 1),
            "429": len(too_many),
            "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
            "p99": qs[98] * 1000,
            "bot_cpu_ms": cpu_bot / max(turns, 1) * 1000,
            "engine_cpu_ms": cpu_engine / max(turns, 1) * 1000,
            "redis_per_game": bot_bytes / n_games,
            "rss_per_1000": rss_growth / n_games * 1000,
            "turns_per_s": turns / args.seconds,
        }
    finally:
        services.stop()


def show(rows: list[dict[str, Any]], hands: str) -> None:
    print(f"\nhands: {hands}")
    head = (
        f"{'games':>5} {'turns':>6} {'turns/s':>7} {'group/turn':>10} {'private/turn':>12} "
        f"{'all/turn':>8} {'429s':>5} {'p50 ms':>7} {'p99 ms':>7} {'bot CPU ms/turn':>15} "
        f"{'engine CPU ms/turn':>18} {'bot Redis B/game':>16} {'bot RSS B/1000 games':>20}"
    )
    print(head)
    for x in rows:
        print(
            f"{x['games']:>5} {x['turns']:>6} {x['turns_per_s']:>7.1f} {x['group']:>10.2f} "
            f"{x['private']:>12.2f} {x['all']:>8.2f} {x['429']:>5} {x['p50']:>7.1f} "
            f"{x['p99']:>7.1f} {x['bot_cpu_ms']:>15.2f} {x['engine_cpu_ms']:>18.2f} "
            f"{x['redis_per_game']:>16.0f} {x['rss_per_1000']:>20.0f}"
        )


def main() -> None:
    # A SIGTERM stops the services this bench started, as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between a game's moves")
    parser.add_argument("--hands", choices=("inline", "private", "both"), default="both")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--capacity", action="store_true")
    args = parser.parse_args()
    modes = ("inline", "private") if args.hands == "both" else (args.hands,)
    for mode in modes:
        args.hands = mode
        if not args.capacity:
            show([run(args, args.games)], mode)
            continue
        rows = []
        n = max(10, args.games // 2)
        while True:
            row = run(args, n)
            rows.append(row)
            show([row], mode)
            if row["429"] or row["p99"] > 100 or n >= 2000:
                break
            n *= 2
        show(rows, mode + " (capacity)")


if __name__ == "__main__":
    main()
