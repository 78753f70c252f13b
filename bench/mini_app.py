"""The Mini App under load: N games of four players, each player's page a live table
stream (server-sent events), one move per game every ``--interval`` seconds.

The whole stack as real processes on the given Redis (harness/stack.py): the local
Telegram (``python -m playground``, Telegram's flood limits on), the engine, the worker,
one bot replica told the Mini App's address, and the Mini App service (``python -m
services.webapp``). The bot follows the games like any others and keeps each group's table
(one merged edit per write it can afford). Viewers are headless clients that trade their
initData for a stream ticket, as the page does, and read the stream over plain sockets;
each game's player to act presses the first of their legal moves (play, colour, take,
keep, draw) through ``POST …/moves``. Prints, over the measured window:

- press → every viewer's table updated: from the press being sent to each of the game's
  four streams delivering that version (p50/p99; goal at 625 games × 4 viewers, one move
  per 10 s a game: p50 ≤ 20 ms, p99 ≤ 100 ms);
- beside it, the baseline of the same run: press → the move's answer (the engine applied
  it, through the Mini App);
- the chat path of the same moves: press → the group's table in the chat rewritten by the
  bot (its first write of that table after the press, on the local Telegram's clock);
- Bot API calls per app move, by kind (goal at 625 games x 4 viewers, one move per 10 s a
  game, every player following in the app: <= 0.4, none answered 429), and the token's
  ceiling in app moves a second (the local Telegram's per-token rate over the calls per
  move) beside the load offered;
- the Mini App's resident memory per open connection (its RSS with every stream open,
  minus before any, over the count; goal ≤ 50 KB), its engine requests per move, and each
  process's CPU over the window.

    .venv/bin/python bench/mini_app.py [--games 50] [--interval 10] [--seconds 60]
            [--quiet-seconds 30] [--no-baseline-run] [--redis redis://127.0.0.1:6379/12]

The bot runs with the quiet table (``UNO_BOT_QUIET_TABLE_SECONDS``, services/bot/README.md
"A quiet table": every seated human has the app open, so the group's table is written at
most once in that many seconds); then, unless ``--no-baseline-run``, the same load runs
again on a fresh stack with the quiet table off (one table write per move), and both runs'
figures are printed side by side.

Stopped early (Ctrl-C, SIGTERM as ``timeout`` sends it), it prints the figures of the window
measured so far, cut at the stop, and says that it was stopped (bench/stopping.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402
import orjson  # noqa: E402
import uvloop  # noqa: E402

from bench.percentiles import percentile  # noqa: E402
from bench.stopping import STOP, until_stopped, watched  # noqa: E402
from harness.feed import Feed  # noqa: E402
from harness.processes import stop_signals_interrupt  # noqa: E402
from harness.services import ENGINE_TOKEN, WebAppProcess, start_webapp  # noqa: E402
from harness.stack import Stack, start_stack  # noqa: E402
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
    chat_id: int = 0
    #: version -> when the press that made it was sent
    pressed: dict[int, float] = field(default_factory=dict)
    #: wall-clock times (the local Telegram's clock) of the measured presses
    pressed_at: list[float] = field(default_factory=list)
    #: version -> how many streams have shown it
    shown: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))


@dataclass
class Figures:
    updated: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)
    chat: list[float] = field(default_factory=list)
    chat_late: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    too_many: int = 0
    refused: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    measuring: bool = False
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    view_requests: float = 0.0
    #: the local Telegram's overall calls a second for one token
    token_rate: float = 30.0
    quiet_seconds: float = 0.0
    connections: int = 0
    per_connection_kb: float = 0.0


async def viewer(
    host: str, port: int, game: Game, user: int, figures: Figures, opened: asyncio.Event
) -> None:
    """One page's stream over a plain socket, opened as the page opens it (its initData
    traded for a stream ticket first, on the same connection) and read as the browser's
    EventSource reads it."""
    reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
    writer.write(
        f"POST /v1/games/{game.game_id}/tickets HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: tma {game.init_data[user]}\r\nContent-Length: 0\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    body = await reader.readexactly(length)
    if b" 200 " not in status:
        raise RuntimeError(f"no stream ticket: {status!r} {body!r}")
    path = f"/v1/games/{game.game_id}/stream?ticket={quote(orjson.loads(body)['ticket'])}"
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
                table = orjson.loads(data)
                game.tables[user] = table
                version = table["version"]
                sent = game.pressed.get(version)
                game.shown[version] += 1
                if sent is not None and figures.measuring and game.shown[version] == PLAYERS:
                    figures.updated.append(time.perf_counter() - sent)
            event, data = b"", b""


class Presser:
    """One game's presses over one kept-alive HTTP/1.1 connection of plain sockets, as
    light as the viewers' streams: the bench's own client must not be what is measured."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._kept = False

    async def post(self, path: str, body: bytes, authorization: str) -> int:
        """The answer's status. A kept connection the server has closed meanwhile (uvicorn
        closes idle ones after a few seconds) is replaced once."""
        try:
            return await self._post(path, body, authorization)
        except OSError:
            if self._kept:
                return await self._post(path, body, authorization)
            raise

    async def _post(self, path: str, body: bytes, authorization: str) -> int:
        self._kept = self._streams is not None
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._streams
        try:
            writer.write(
                f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                f"Authorization: {authorization}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            status_line = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            return int(status_line.split()[1])
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            writer.close()
            self._streams = None
            raise OSError("the press's connection failed") from None


async def mover(
    presser: Presser,
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
            if figures.measuring:
                game.pressed_at.append(time.time())
            try:
                status = await presser.post(
                    f"/v1/games/{game.game_id}/moves",
                    orjson.dumps({"action": code, "version": version}),
                    f"tma {game.init_data[user]}",
                )
            except OSError:
                figures.refused += 1
                figures.statuses["failed"] += 1
                break
            if status == 200:
                if figures.measuring:
                    figures.answered.append(time.perf_counter() - sent)
            else:
                figures.refused += 1
                figures.statuses[str(status)] += 1
            break
        await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))


async def set_up(
    args: argparse.Namespace, engine_url: str, control: Any, token: str, groups: set[int]
) -> list[Game]:
    """The games, each in its own group (added to ``groups`` before its game is made, so
    the feed sees the bot's first table there)."""
    games: list[Game] = []
    async with EngineClient(engine_url, ENGINE_TOKEN) as engine:
        for g in range(args.games):
            people = [control.create_user(f"P{g}-{i}") for i in range(PLAYERS)]
            ids = [p["id"] for p in people]
            group = control.create_group(f"bench {g}", ids, bots=[token])
            groups.add(int(group["id"]))
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
            games.append(Game(info.game_id, ids, init, chat_id=int(group["id"])))
    return games


def processes(stack: Stack, webapp: WebAppProcess) -> dict[str, Any]:
    found: dict[str, Any] = dict(stack.processes)
    found["webapp"] = webapp
    return found


def engine_requests(metrics_url: str) -> float:
    """The Mini App's engine requests for table views so far, from its /metrics."""
    for line in httpx.get(metrics_url, timeout=10).text.splitlines():
        if line.startswith("uno_webapp_engine_view_requests_total "):
            return float(line.split()[1])
    return float("nan")


async def run(args: argparse.Namespace, stack: Stack, webapp: WebAppProcess) -> Figures:
    figures = Figures()
    url = webapp.url
    host, port = "127.0.0.1", int(url.rsplit(":", 1)[1])
    pid = webapp.process.pid if webapp.process else 0
    feed = Feed(stack.telegram_url, stack.bot_id)
    feed.start()
    await asyncio.wait_for(feed.connected.wait(), 30)
    games = await set_up(args, stack.engine_url, stack.control, stack.token, feed.groups)
    before = rss_kb(pid)
    tasks: list[asyncio.Task[None]] = []
    opened: list[asyncio.Event] = []
    deadline = time.monotonic() + 300

    async def open_viewers(some: list[Game]) -> None:
        """Open every viewer of ``some`` and wait until each has its first table."""
        start = len(tasks)
        for game in some:
            for user in game.players:
                event = asyncio.Event()
                opened.append(event)
                tasks.append(asyncio.create_task(viewer(host, port, game, user, figures, event)))
                await asyncio.sleep(0.002)  # a crowd arriving, not one instant
        mine = list(zip(opened[start:], tasks[start:], strict=True))
        while time.monotonic() < deadline and not all(e.is_set() or t.done() for e, t in mine):
            await asyncio.sleep(0.2)
        shown = sum(1 for e, t in mine if e.is_set() and not t.done())
        while time.monotonic() < deadline and sum(len(g.tables) for g in some) < shown:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)

    # The first tenth warms the replica (its catalogs and name caches load once, whatever
    # the number of viewers); the rest shows what one more open connection costs.
    first = games[: max(1, len(games) // 10)]
    await open_viewers(first)
    warm = rss_kb(pid)
    warm_connections = sum(1 for e in opened if e.is_set())
    await open_viewers(games[len(first) :])
    failed = [t for t in tasks if t.done()]
    for task in failed[:3]:
        print(f"a viewer failed: {task.exception()!r}")
    connections = sum(1 for e in opened if e.is_set()) - len(failed)
    end = rss_kb(pid)
    per_connection = (end - warm) / max(1, connections - warm_connections)
    figures.connections, figures.per_connection_kb = connections, per_connection
    print(
        f"connections: {connections}; Mini App RSS {before} KB before any, {warm} KB with the "
        f"first {warm_connections}, {end} KB with all: "
        f"{(end - before) / max(1, connections):.1f} KB per connection counting the warm-up"
    )
    print(
        f"each connection after the warm-up: {per_connection:.1f} KB per open connection "
        "(goal <= 50 KB)"
    )
    # The bot posts each new game's table first: the window starts once every group has one.
    while time.monotonic() < deadline and not all(feed.table_writes.get(g.chat_id) for g in games):
        await asyncio.sleep(0.5)
    tabled = sum(1 for g in games if feed.table_writes.get(g.chat_id))
    print(f"group tables posted by the bot: {tabled} of {len(games)}")
    stop = time.monotonic() + args.warmup + args.seconds
    procs = processes(stack, webapp)
    movers = [
        asyncio.create_task(
            mover(
                Presser(host, port),
                g,
                args.interval,
                i * args.interval / len(games),
                figures,
                stop,
            )
        )
        for i, g in enumerate(games)
    ]
    await asyncio.sleep(args.warmup)
    seq0, t0 = feed.last_seq, time.time()
    cpu0 = {name: proc.cpu_seconds() for name, proc in procs.items()}
    own0 = os.times()
    views0 = engine_requests(webapp.metrics_url)
    figures.measuring = STOP.measuring = True
    await STOP.wait(args.seconds)
    figures.measuring = STOP.measuring = False
    t1 = time.time()
    cpu1 = {name: proc.cpu_seconds() for name, proc in procs.items()}
    own1 = os.times()
    cpu1["bench (viewers, presses)"] = own1.user + own1.system
    cpu0["bench (viewers, presses)"] = own0.user + own0.system
    views1 = engine_requests(webapp.metrics_url)
    if STOP.by:  # the stack has seconds left: no more moves, no more waiting than needed
        for task in movers:
            task.cancel()
    await asyncio.gather(*movers, return_exceptions=True)
    # The last moves' group tables: 3 s, or after a stop until each game's last press has one.
    settled = time.monotonic() + 3
    while time.monotonic() < settled and not (STOP.by and tabled_after_presses(games, feed)):
        await asyncio.sleep(0.05)
    figures.seconds = t1 - t0
    figures.cpu = {name: cpu1[name] - cpu0[name] for name in cpu1}
    figures.view_requests = views1 - views0
    control = stack.control
    calls = [c for c in control.calls(token=stack.token, since=seq0) if t0 <= c["time"] < t1]
    people = {u for g in games for u in g.players}
    for call in calls:
        method = str(call["method"])
        if method.lower() == "getupdates":
            continue
        where = (
            "group"
            if call.get("chat_id") in feed.groups
            else "private"
            if call.get("chat_id") in people
            else "other"
        )
        figures.calls[f"{method} ({where})"] += 1
        figures.too_many += call.get("error_code") == 429
    for game in games:
        writes = [w.time for w in feed.table_writes.get(game.chat_id, [])]
        for pressed in game.pressed_at:
            shown = next((w for w in writes if w > pressed), None)
            if shown is not None and shown - pressed <= 10:
                figures.chat.append(shown - pressed)
            else:
                figures.chat_late += 1
    await feed.stop()
    for task in tasks:
        task.cancel()
    return figures


def tabled_after_presses(games: list[Game], feed: Feed) -> bool:
    """Every game's group table has been written since the game's last measured press."""
    return all(
        not g.pressed_at
        or any(w.time > g.pressed_at[-1] for w in feed.table_writes.get(g.chat_id, []))
        for g in games
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument(
        "--interval", type=float, default=10.0, help="seconds between a game's moves"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument(
        "--quiet-seconds",
        type=float,
        default=30.0,
        help="UNO_BOT_QUIET_TABLE_SECONDS of the measured run (0: a table write per move)",
    )
    parser.add_argument(
        "--baseline-run",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="run the same load again with the quiet table off, and print both",
    )
    args = parser.parse_args()
    stop_signals_interrupt()
    runs: list[Figures] = []
    with until_stopped():
        for quiet in (args.quiet_seconds, 0.0) if args.baseline_run else (args.quiet_seconds,):
            log_dir = Path(tempfile.mkdtemp(prefix="mini-app-bench-"))
            print(f"\n== the quiet table {f'at {quiet:g} s' if quiet else 'off'} ==", flush=True)
            measured = start_and_run(args, log_dir, quiet)
            report(args, measured)
            runs.append(measured)
            if STOP.by:
                break
    if len(runs) == 2 and not STOP.by:
        compare(args, runs[0], runs[1])
    if STOP.by:
        what = "the figures above are of the window before it" if runs else "nothing measured"
        print(f"\nstopped by {STOP.by}: {what}; every process the bench started is stopped")


def start_and_run(args: argparse.Namespace, log_dir: Path, quiet_seconds: float) -> Figures:
    """The stack and the Mini App started, the load run and measured, everything stopped."""
    stack = start_stack(args.redis, log_dir, bot_username="uno_bench_app_bot")
    webapp = None
    try:
        limits = stack.control.set_limits(True)  # Telegram's own flood limits
        assert limits["enabled"]
        webapp = start_webapp(
            "webapp",
            args.redis,
            stack.engine_url,
            stack.bot_api_url,
            stack.token,
            log_dir,
            UNO_WEBAPP_MEMBER_CACHE_SECONDS="600",
        )
        stack.start_bot(
            "bot",
            UNO_WEBAPP_PUBLIC_URL=f"{webapp.url}/",
            UNO_BOT_QUIET_TABLE_SECONDS=str(quiet_seconds),
        )
        figures = uvloop.run(watched(run(args, stack, webapp)))
        figures.token_rate = float(limits["global_per_second"])
        figures.quiet_seconds = quiet_seconds
        return figures
    finally:
        if webapp is not None:
            webapp.terminate()  # told with the stack, so they stop together
        stack.stop()
        if webapp is not None:
            webapp.stop()


def report(args: argparse.Namespace, figures: Figures) -> None:
    moves = len(figures.answered)
    print(
        f"{args.games} games x {PLAYERS} viewers, one move per {args.interval:g} s a game, "
        f"{figures.seconds:.0f} s measured: {moves} moves applied, "
        f"{figures.refused} refused or failed {dict(figures.statuses)}"
    )
    for name, values in (
        ("press -> every viewer updated", figures.updated),
        ("baseline: press -> move answered", figures.answered),
        ("chat path: press -> group table", figures.chat),
    ):
        if values:
            p50, p99 = percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000
            print(f"{name:34} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   (n={len(values)})")
    print(f"chat path: moves whose group table was not rewritten within 10 s: {figures.chat_late}")
    print("goal (625 games x 4 viewers, 1 move / 10 s a game): p50 <= 20 ms, p99 <= 100 ms")
    per_move = max(moves, 1)
    total = sum(figures.calls.values())
    print(f"Bot API calls per app move: {total / per_move:.2f} ({figures.too_many} answered 429)")
    for kind, count in figures.calls.most_common():
        print(f"  {kind:40} {count / per_move:.2f}")
    print(f"Mini App engine requests for views per move: {figures.view_requests / per_move:.2f}")
    cpu = ", ".join(
        f"{name} {100 * seconds / max(figures.seconds, 1e-9):.0f}%"
        for name, seconds in sorted(figures.cpu.items())
    )
    print(f"CPU over the window (share of one core): {cpu}")
    offered = args.games / args.interval
    rate = total / max(figures.seconds, 1e-9)
    busy = (
        " (the token at its rate: the bot merges what waits)"
        if rate > 0.9 * figures.token_rate
        else ""
    )
    print(f"Bot API calls a second: {rate:.1f} of the token's {figures.token_rate:g}{busy}")
    print(
        f"the token's ceiling: {ceiling(figures):.0f} app moves a second "
        f"({figures.token_rate:g} calls a second / {calls_per_move(figures):.2f} calls a move), "
        f"load offered {offered:g} app moves a second"
    )


def calls_per_move(figures: Figures) -> float:
    return sum(figures.calls.values()) / max(len(figures.answered), 1)


def calls_per_second(figures: Figures) -> float:
    return sum(figures.calls.values()) / max(figures.seconds, 1e-9)


def ceiling(figures: Figures) -> float:
    """App moves a second one token carries at these calls per move."""
    per_move = calls_per_move(figures)
    return figures.token_rate / per_move if per_move else float("inf")


def compare(args: argparse.Namespace, quiet: Figures, loud: Figures) -> None:
    """The two runs side by side: the quiet table, and one table write per move."""

    def ms(values: list[float], q: float) -> str:
        return f"{percentile(values, q) * 1000:.1f} ms" if values else "-"

    rows = [
        ("app moves applied", str(len(quiet.answered)), str(len(loud.answered))),
        ("answered 429", str(quiet.too_many), str(loud.too_many)),
        (
            "Bot API calls per app move",
            f"{calls_per_move(quiet):.2f}",
            f"{calls_per_move(loud):.2f}",
        ),
        ("token's ceiling, app moves/s", f"{ceiling(quiet):.0f}", f"{ceiling(loud):.0f}"),
        ("Bot API calls a second", *(f"{calls_per_second(f):.1f}" for f in (quiet, loud))),
        ("press -> every viewer p50", ms(quiet.updated, 0.5), ms(loud.updated, 0.5)),
        ("press -> every viewer p99", ms(quiet.updated, 0.99), ms(loud.updated, 0.99)),
        ("press -> group table p50", ms(quiet.chat, 0.5), ms(loud.chat, 0.5)),
        ("group table not within 10 s", str(quiet.chat_late), str(loud.chat_late)),
        (
            "KB per open connection",
            f"{quiet.per_connection_kb:.1f}",
            f"{loud.per_connection_kb:.1f}",
        ),
        ("open connections", str(quiet.connections), str(loud.connections)),
    ]
    print(
        f"\n{args.games} games x {PLAYERS} viewers, load offered "
        f"{args.games / args.interval:g} app moves a second; goal (625 x 4): 0 x 429, <= 0.4 "
        "calls a move, p50 <= 20 ms, p99 <= 100 ms, <= 50 KB a connection"
    )
    head = f"quiet table {quiet.quiet_seconds:g} s"
    print(f"{'':32} {head:>20} {'a write per move':>20}")
    for name, a, b in rows:
        print(f"{name:32} {a:>20} {b:>20}")


if __name__ == "__main__":
    main()
