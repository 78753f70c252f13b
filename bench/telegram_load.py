"""Load benchmark of the Telegram bot against the local Telegram, its flood limits on.

Real processes on the loopback interface, started by the harness as for the bot's
end-to-end tests (harness/stack.py): the local Telegram (``python -m playground``,
Telegram's flood limits: 20 messages a minute per group, about one a second per private
chat, 30 a second per bot token), the engine, the Celery worker and one bot replica, all on
one Redis database, emptied first. Scripted people (harness/players.py) open N 4-player
Classic games the way people do (/new, the variant button, Join, Start) and then make one
move every ``--pace`` seconds per game: the player the table's "▶" line names picks a card
(the scripted players' preference: play, then any other decision, then draw) either from
the inline-mode hand ("My cards": an inline query and a chosen result posted in the group)
or from the hand in their private chat (a button press), on schedule whatever the group's
table shows yet, as people do who play from their hands: a private-hand player moves when
their hand offers a move; an inline-hand player whose turn the game names (the bench asks
the engine, as the player's own inline hand would tell them) opens their hand and plays.

Everything is timed on the local Telegram's clock, from its live feed (harness/feed.py) and
call log: a
move's time is the press (or the posting of the chosen inline result); it is shown when the
bot's first write of the group's table after it carries the move's line ("P2 played 🟥 5",
the bot's own words), or when the bot posts the round's scores first (a move that ends a
round is told there: the next round's table opens afresh). A turn is a move shown so; one
not shown within 10 s is "late" and counts in the percentiles as over 10 s.
"Refused" counts presses the bot answered with a refusal (a stale private hand) or that
Telegram refused (the button was gone); "idle" counts ticks where the named player had
nothing to choose yet (their hand or the inline answer not caught up).

Prints, per run: Bot API calls per turn (group, private, answers to callback and inline
queries, all but getUpdates), 429s, press-to-table p50/p99 (with the bot's own mean render
lag and rate-budget wait from its /metrics), bot / engine / worker CPU per turn (/proc), the
bot's own Redis per live game (MEMORY USAGE over ``bot:``) and its RSS growth per 1,000 games
(past a warm-up tenth of the games), beside the goals. With ``--capacity`` it raises the
number of games step by step until the first 429 or p99 over ``--p99-limit`` (the goal, 100
ms), and prints the turns per second one bot token carried, with the local Telegram's CPU
share to show it was not the bottleneck.

    .venv/bin/python bench/telegram_load.py [--games 100] [--pace 5] [--seconds 60]
        [--hand inline|private|both] [--capacity [--steps 10,25,50] [--p99-limit 0.1]]
        [--quick] [--brisk] [--placement bottom|in-place|both]
        [--bot-env NAME=VALUE ...] [--redis redis://127.0.0.1:6379/13]

``--quick``: 10 games, 30 s (capacity: 5 and 10 games). ``--brisk``: a brisk group, 10
games at a move every 2 s (30 a minute, over the group's 20). ``--placement`` (default
both) runs each hand with the table at the bottom (the bot's default) and edited in place
until 15 messages pushed it up (``UNO_BOT_TABLE_REPOST_AFTER=15``, the design before),
side by side; it also prints the share of turns after which the live table is among the
group's last 3 messages as the next player comes to move (the players' card messages
counted; read while at most 20 games play), the table writes spent on a state already
superseded (a move made ≥ 1 s before the write left out) and the deletions of superseded
tables. Bounded: every run stops by itself. Stopped early (Ctrl-C, SIGTERM as ``timeout``
sends it), it prints the figures of what it measured so far, the window being measured cut
at the stop, says that it was stopped, and stops every process it started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
import redis

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.percentiles import percentile  # noqa: E402
from bench.stopping import STOP, until_stopped  # noqa: E402
from harness.feed import Feed, Shown, owing_user  # noqa: E402
from harness.players import (  # noqa: E402
    inline_moves,
    is_table,
    markup_callbacks,
    preferred_move,
)
from harness.processes import free_port, stop_signals_interrupt  # noqa: E402
from harness.stack import Stack, start_stack  # noqa: E402
from playground.control import TelegramControl  # noqa: E402
from services.bot.memory import PREFIX as BOT_PREFIX  # noqa: E402
from services.engine.client import EngineClient, GameInfo  # noqa: E402
from services.engine.wire.event_log import LOG_PREFIX  # noqa: E402
from services.presentation.callbacks import Kind  # noqa: E402
from services.presentation.screens.event_lines import event_line  # noqa: E402

GOAL_GROUP_CALLS = 1.05
GOAL_P99_S = 0.100
#: A brisk group (a move every 2 s, over the group's 20 writes a minute): press → table.
#: The floor: a write every 3 s and a move every 2 s leave waits of 0, 1 and 2 s.
GOAL_BRISK_P50_S = 1.1
GOAL_BRISK_P99_S = 3.5
GOAL_HAND_P99_S = 1.2  # press → the next mover's private hand, where the token allows it
GOAL_REDIS_BYTES = 1024
TELEGRAM_TOKEN_RATE = 30.0  # messages a second one bot token may send
SHOWN_WITHIN_S = 10.0  # a move not on the table by then counts as late
IN_VIEW = 3  # the table counts as in view among the group's last this many messages
GOAL_IN_VIEW = 0.95
LOOK_AT_MOST = 20  # games: above it the chats are not read for the in-view share
#: A table write that leaves out a move made this long before it spent a slot on a state
#: already superseded (the render after the wait would have had it).
SUPERSEDED_AFTER_S = 1.0
#: The bot's setting that keeps the table where it was before it moved to the bottom:
#: edited in place until fifteen messages had pushed it up.
IN_PLACE = {"UNO_BOT_TABLE_REPOST_AFTER": "15"}
#: An inline-hand player's tries at a tick (each an engine read and an inline query), so a
#: slow bot is not asked ever more often.
INLINE_TRIES = 3
METERED = ("send", "edit", "delete", "copy", "forward")


def move_line(game: GameInfo, seat: int, code: str) -> str | None:
    """The words the table's last-moves line gives the move ``code`` (the bot's own
    renderer), or None when they depend on what the engine decides (a challenge's verdict)."""
    head, _, arg = code.partition(".")
    events = {
        "p": {"type": "played", "player": seat, "card": arg},
        "d": {"type": "drew", "player": seat, "count": 1},
        "k": {"type": "kept", "player": seat},
        "c": {"type": "color_chosen", "player": seat, "color": arg},
        "u": {"type": "uno_called", "player": seat},
    }
    event = events.get(head)
    line = event_line("en", game, event) if event is not None else None
    return line.plain if line is not None else None


# -- the processes ------------------------------------------------------------------------------


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


#: Kinds of the bot's keys whose size follows the update rate, not the games: the webhook's
#: update ids seen (one bit each, kept an hour), printed apart from the per-game figure.
PER_RATE_KINDS = frozenset({"seen"})


def bot_redis_bytes(client: redis.Redis) -> tuple[int, dict[str, int]]:
    """MEMORY USAGE summed over the bot's keys but :data:`PER_RATE_KINDS`, and per kind of
    key (``bot:<kind>:...``)."""
    total, kinds = 0, dict[str, int]()
    for key in client.scan_iter(match=BOT_PREFIX + "*", count=1000):
        size = int(client.memory_usage(key) or 0)
        kind = key.decode().split(":")[1]
        kinds[kind] = kinds.get(kind, 0) + size
        total += size if kind not in PER_RATE_KINDS else 0
    return total, kinds


def bot_histograms(port: str) -> dict[str, tuple[float, float, float]]:
    """(sum, count, count over 100 ms) of each of the bot's histograms, from its
    ``/metrics``."""
    from prometheus_client.parser import text_string_to_metric_families

    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    out: dict[str, tuple[float, float, float]] = {}
    for family in text_string_to_metric_families(text):
        if family.type != "histogram":
            continue
        values = {s.name: s.value for s in family.samples if not s.name.endswith("_bucket")}
        within = sum(
            s.value
            for s in family.samples
            if s.name.endswith("_bucket") and s.labels.get("le") in ("0.1", "0.1000")
        )
        count = values.get(family.name + "_count", 0.0)
        out[family.name] = (values.get(family.name + "_sum", 0.0), count, count - within)
    return out


def histograms(stack: Stack) -> dict[str, tuple[float, float, float]]:
    return bot_histograms(stack.bots[0].env["UNO_BOT_METRICS_PORT"])


def cpu(stack: Stack) -> dict[str, float]:
    """CPU seconds so far of every process of the stack, and of this one (``bench``: the
    scripted people and the feed, which share the machine with what they measure)."""
    return {name: proc.cpu_seconds() for name, proc in stack.processes.items()} | {
        "bench": time.process_time()
    }


def start_load_stack(
    redis_url: str, log_dir: Path, bot_env: dict[str, str] | None = None, webhook: bool = False
) -> Stack:
    """The local Telegram (Telegram's flood limits on), engine, worker and one bot: polling,
    or (``webhook``) taking its updates on a webhook registered as an operator does, with
    ``python -m services.deploy.set_webhook``."""
    stack = start_stack(redis_url, log_dir, bot_username="uno_load_bot")
    try:
        limits = stack.control.set_limits(True)  # Telegram's own numbers
        assert limits["enabled"] and limits["global_per_second"] == TELEGRAM_TOKEN_RATE
        hook: dict[str, str] = {}
        if webhook:
            port = free_port()
            hook = {
                "UNO_BOT_HTTP_PORT": str(port),
                "UNO_BOT_WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram",
                "UNO_BOT_WEBHOOK_SECRET": "load-bench-secret",
            }
        bot = stack.start_bot("bot", **hook, **(bot_env or {}))
        if webhook:
            subprocess.run(
                [sys.executable, "-m", "services.deploy.set_webhook"],
                cwd=REPO, env=bot.env, check=True, capture_output=True, timeout=60,
            )  # fmt: skip
    except BaseException:
        stack.stop()
        raise
    return stack


# -- the people ---------------------------------------------------------------------------------

_local = threading.local()


#: How much lower the people's threads run than the stack. They stand for phones elsewhere,
#: not for load on the bot's machine: on these two cores they yield to the stack they play
#: against. The times measured are the local Telegram's (when a press or a write reached
#: it), so a person's own delay is in none of them.
PEOPLE_NICENESS = 10


def control_for(url: str) -> TelegramControl:
    """One control client per thread (the people act from a thread pool); a thread's first
    call lowers its priority (``PEOPLE_NICENESS``: Linux sets it per thread)."""
    found: TelegramControl | None = getattr(_local, "control", None)
    if found is None:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), PEOPLE_NICENESS)
    if found is None or found.base_url != url:
        found = _local.control = TelegramControl(url)
    return found


@dataclass
class Move:
    chat_id: int
    key: tuple[str, int, Any]  # ("press", user, data) or ("post", chat, message id)
    before: str  # the table's text when the player read it
    line: str | None


@dataclass
class Game:
    chat_id: int
    people: list[dict[str, Any]]
    hand: str  # inline or private
    info: GameInfo | None = None
    pressed: dict[int, str] = field(default_factory=dict)  # user → the hand they last played from

    def seat_of(self, user_id: int) -> int:
        assert self.info is not None
        return next(s.seat for s in self.info.seats if s.user_id == user_id)


@dataclass
class Counters:
    moves: list[tuple[float, Move]] = field(default_factory=list)  # (bench clock, move)
    refused: int = 0
    idle: int = 0  # ticks where the named player had nothing to do yet
    #: (bench clock, whether the live table was among the group's last messages) as a
    #: player came to move: what they saw after the turn before
    in_view: list[tuple[float, bool]] = field(default_factory=list)


class Load:
    """Games on one stack and the people playing them."""

    def __init__(self, stack: Stack, hand: str, pace: float) -> None:
        """``hand``: "inline", "private", or "mixed" (the games take turns: a check that
        both ways work, in one run)."""
        self.stack, self.hand, self.pace = stack, hand, pace
        self.feed = Feed(stack.telegram_url, stack.bot_id)
        self.games: list[Game] = []
        self.counters = Counters()
        self.stopping = False
        self.tasks: list[asyncio.Task[None]] = []
        self.serial = itertools.count(1)
        self.engine: EngineClient | None = None  # set while playing (running_load)

    async def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        url = self.stack.telegram_url

        def run() -> Any:
            return getattr(control_for(url), name)(*args, **kwargs)

        return await asyncio.to_thread(run)

    async def wait_for(self, what: str, check: Any, timeout: float = 60.0) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = check()
            if found:
                return found
            await asyncio.sleep(0.05)
        raise RuntimeError(f"timed out waiting for {what}")

    # -- setting games up the way people do -------------------------------------------------

    async def add_games(self, n: int, concurrency: int = 10) -> None:
        """Open ``n`` more games (a few at a time, as people would over a while, so the
        lobbies' messages stay within the token's budget) and start playing each."""
        gate = asyncio.Semaphore(concurrency)
        began = time.monotonic()

        async def one() -> None:
            async with gate:
                game = await self.open_game()
            self.games.append(game)
            self.tasks.append(asyncio.create_task(self.play(game)))

        await asyncio.gather(*(one() for _ in range(n)))
        if n:
            print(
                f"  {self.hand} hand: {n} games opened in {time.monotonic() - began:.0f} s, "
                f"{len(self.games)} in play",
                file=sys.stderr,
                flush=True,
            )

    async def open_game(self) -> Game:
        n = next(self.serial)
        hand = self.hand if self.hand != "mixed" else ("inline", "private")[n % 2]
        token = self.stack.token
        people = [await self.call("create_user", f"P{seat}") for seat in range(4)]
        host = people[0]["id"]
        chat = await self.call(
            "create_group", f"Table {n}", [p["id"] for p in people], admins=[host], bots=[token]
        )
        chat_id = int(chat["id"])
        self.feed.groups.add(chat_id)
        if hand == "private":
            for person in people:
                await self.call("start_bot", person["id"], token)
        await self.call("send_message", host, chat_id, "/new")
        question = await self.wait_for(
            "the variant keyboard", lambda: self.feed.newest(chat_id, kind=Kind.VARIANT)
        )
        classic = next(cb for cb in markup_callbacks(question.markup) if cb.arg == "classic")
        await self.call("press_button", host, chat_id, question.message_id, classic.encode())
        lobby = await self.wait_for("the lobby", lambda: self.feed.newest(chat_id, kind=Kind.LOBBY))
        buttons = {cb.arg: cb for cb in markup_callbacks(lobby.markup)}
        for _ in range(3):  # a join lost on a loaded machine is pressed again
            seated = self.feed.newest(chat_id, kind=Kind.LOBBY)
            missing = [
                p for p in people[1:] if seated is None or p["first_name"] not in seated.text
            ]
            for person in missing:
                await self.call(
                    "press_button",
                    person["id"],
                    chat_id,
                    lobby.message_id,
                    buttons["join"].encode(),
                )
            with contextlib.suppress(RuntimeError):
                await self.wait_for(
                    "every seat taken",
                    lambda: all(
                        p["first_name"]
                        in (self.feed.newest(chat_id, kind=Kind.LOBBY) or lobby).text
                        for p in people
                    ),
                    timeout=20,
                )
                break
        await self.call("press_button", host, chat_id, lobby.message_id, buttons["start"].encode())
        table = await self.wait_for(
            "the table", lambda: self._in_play(chat_id), timeout=SHOWN_WITHIN_S * 6
        )
        game = Game(chat_id, people, hand)
        async with self.stack.engine_client() as engine:
            game.info = await engine.chat_game(chat_id)
        assert game.info is not None and len(game.info.seats) == 4, game.info
        if hand == "private":
            hand_button = next(cb for cb in markup_callbacks(table.markup) if cb.kind is Kind.HAND)
            for person in people:
                await self.call(
                    "press_button", person["id"], chat_id, table.message_id, hand_button.encode()
                )
            for person in people:
                await self.wait_for("a private hand", lambda u=person["id"]: self.feed.hand(u))
        return game

    def _in_play(self, chat_id: int) -> Shown | None:
        table = self.feed.table(chat_id)
        return table if table is not None and owing_user(table.text) is not None else None

    # -- playing ----------------------------------------------------------------------------

    async def play(self, game: Game) -> None:
        """One move every ``pace`` seconds, from a random phase so games don't move in step."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(random.uniform(0, self.pace))
        due = loop.time()
        while not self.stopping:
            try:
                await self.move(game, due + self.pace / 2)
            except Exception as e:  # a refused control request: counted, play goes on
                self.counters.refused += 1
                print(f"  move in chat {game.chat_id} failed: {e}", file=sys.stderr)
            due += self.pace
            await asyncio.sleep(max(0.0, due - loop.time()))

    async def look(self, game: Game) -> None:
        """Whether the group's live table (its newest) is among its last ``IN_VIEW``
        messages, the players' own card messages counted: what a player sees as they come
        to move."""
        messages = [m for m in await self.call("messages", game.chat_id) if not m["deleted"]]
        tables = [
            n
            for n, m in enumerate(messages)
            if m.get("from", {}).get("id") == self.stack.bot_id and is_table(m.get("text", ""))
        ]
        seen = bool(tables) and len(messages) - tables[-1] <= IN_VIEW
        self.counters.in_view.append((time.time(), seen))

    async def move(self, game: Game, give_up: float) -> None:
        """The player whose turn it is makes their move, on schedule whatever the table
        shows: from their private hand (the one whose hand offers a move), or from their
        inline hand (the seat the game names, asked as the player's own hand would tell
        them); retried briefly while no hand offers a move yet (the private hand of the
        move before not caught up)."""
        loop = asyncio.get_running_loop()
        if len(self.games) <= LOOK_AT_MOST:
            await self.look(game)
        tries = 0
        while not self.stopping and (game.hand == "private" or tries < INLINE_TRIES):
            tries += 1
            table = self.feed.table(game.chat_id)
            before = table.text if table is not None else ""
            done = await (self.move_inline if game.hand == "inline" else self.move_private)(
                game, before
            )
            if done:
                return
            if loop.time() > give_up:
                self.counters.idle += 1
                return
            # An inline try costs an engine read and an inline query: not too often.
            await asyncio.sleep(0.05 if game.hand == "private" else 0.3)
        if not self.stopping:
            self.counters.idle += 1

    async def whose_turn(self, game: Game) -> int | None:
        """The user who owes the game's decision (what their own inline hand tells them)."""
        assert game.info is not None
        if self.engine is None:
            return None
        view = (await self.engine.spectator_view(game.info.game_id)).view
        if view is None or view.pending is None:
            return None
        return game.info.seats[view.pending.player].user_id

    async def move_inline(self, game: Game, before: str) -> bool:
        assert game.info is not None
        user = await self.whose_turn(game)
        if user is None:
            return False
        found = await self.call("inline_query", user, game.info.game_id, chat_id=game.chat_id)
        options = inline_moves(found)
        cb = preferred_move(list(options))
        if cb is None:
            return False
        posted = await self.call(
            "choose_inline_result", user, found["query_id"], options[cb], chat_id=game.chat_id
        )
        line = move_line(game.info, game.seat_of(user), cb.arg)
        key = ("post", game.chat_id, posted["message_id"])
        self.counters.moves.append((time.time(), Move(game.chat_id, key, before, line)))
        return True

    async def move_private(self, game: Game, before: str) -> bool:
        assert game.info is not None
        offers = [
            (person["id"], hand, cb)
            for person in game.people
            if (hand := self.feed.hand(person["id"])) is not None
            and (cb := preferred_move(markup_callbacks(hand.markup))) is not None
            and game.pressed.get(person["id"]) != hand.text  # not the hand just played from
        ]
        if len(offers) != 1:
            return False  # a hand not caught up yet: two players' hands both offer a move
        user, hand, cb = offers[0]
        data = cb.encode()
        game.pressed[user] = hand.text
        answer = await self.call("press_button", user, self.stack.bot_id, hand.message_id, data)
        if answer.get("text"):
            self.counters.refused += 1
            return False
        line = move_line(game.info, game.seat_of(user), cb.arg)
        key = ("press", user, data)
        self.counters.moves.append((time.time(), Move(game.chat_id, key, before, line)))
        return True

    async def stop(self) -> None:
        """The people stop playing: each after their move under way, or at once after a
        stop (a signal), which has seconds to stop the stack."""
        self.stopping = True
        if STOP.by:
            for task in self.tasks:
                task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


# -- measuring ----------------------------------------------------------------------------------


@dataclass
class Window:
    """What one measured stretch of play gave."""

    hand: str
    games: int
    seconds: float
    turns: int
    late: int  # not shown within SHOWN_WITHIN_S: in the percentiles as endless
    refused: int
    idle: int
    group_calls: int
    private_calls: int
    answer_calls: int
    other_calls: int
    polls: int
    too_many: int
    too_many_total: int
    latencies: list[float]
    cpu: dict[str, float]
    redis_bytes: int = 0
    redis_kinds: dict[str, int] = field(default_factory=dict)
    rss_per_game: float = 0.0
    render_lag: float = float("nan")  # mean, event log write → table shown (bot's metric)
    rate_wait: float = float("nan")  # mean wait of a call for the shared rate budget
    rate_waits_over_100ms: int = 0  # calls that waited longer for it
    load_average: float = 0.0
    placement: str = ""
    deletes: int = 0  # group deleteMessage(s) calls: superseded tables tidied away
    superseded_writes: int = 0  # table writes that left out a move made ≥ 1 s before
    table_writes: int = 0
    in_view: list[bool] = field(default_factory=list)
    #: private hands: a move's press → the next mover's hand written after it
    hand_latencies: list[float] = field(default_factory=list)
    hand_late: int = 0
    #: each shown move's press → table split at the engine's log entry for it:
    #: (press → log entry, log entry → table)
    splits: list[tuple[float, float]] = field(default_factory=list)

    def split_quantile(self, part: int, q: float) -> float:
        return percentile([s[part] for s in self.splits], q) if self.splits else float("nan")

    def slowest_split(self, share: float = 0.01) -> tuple[float, float]:
        """The mean of each part over the slowest ``share`` of the split turns: where a
        slow turn's time went."""
        if not self.splits:
            return float("nan"), float("nan")
        slow = sorted(self.splits, key=sum)[-max(1, round(len(self.splits) * share)) :]
        return sum(s[0] for s in slow) / len(slow), sum(s[1] for s in slow) / len(slow)

    def hand_quantile(self, q: float) -> float:
        if not self.hand_latencies and not self.hand_late:
            return float("nan")
        return percentile(self.hand_latencies + [math.inf] * self.hand_late, q)

    @property
    def in_view_share(self) -> float:
        return sum(self.in_view) / len(self.in_view) if self.in_view else float("nan")

    @property
    def all_calls(self) -> int:
        return self.group_calls + self.private_calls + self.answer_calls + self.other_calls

    @property
    def metered_per_turn(self) -> float:
        return (self.group_calls + self.private_calls) / max(self.turns, 1)

    def per_turn(self, calls: int) -> float:
        return calls / max(self.turns, 1)

    def quantile(self, q: float) -> float:
        """Over the moves shown and the late ones, which rank above every shown one."""
        if not self.latencies and not self.late:
            return float("nan")
        return percentile(self.latencies + [math.inf] * self.late, q)

    @property
    def turns_per_second(self) -> float:
        return self.turns / self.seconds

    def share(self, name: str) -> float:
        """CPU of a process as a share of one core over the window."""
        return self.cpu.get(name, 0.0) / self.seconds


def shown_at(feed: Feed, move: Move, moved_at: float) -> float | None:
    """When the group first saw ``move``: the table's first write after the move whose text
    changed and carries the move's line, or else the round's scores, if the bot posted them
    after the move and before any such write. A move that ends a round is told by its
    scores and by no table: the next round's table opens with none of the last round's
    moves (services/bot/README.md "Rendering"), and it shows the newest state."""
    ends = [at for at in feed.round_ends.get(move.chat_id, []) if at > moved_at]
    shown = ends[0] if ends else None
    for write in feed.table_writes.get(move.chat_id, []):
        if write.time <= moved_at or write.text == move.before:
            continue
        if shown is not None and write.time > shown:
            break
        if move.line is None or move.line in write.text:
            shown = write.time
            break
    return shown if shown is not None and shown - moved_at <= SHOWN_WITHIN_S else None


def moved_at(feed: Feed, move: Move) -> float | None:
    kind, a, b = move.key
    return feed.press_times.get((a, b)) if kind == "press" else feed.post_times.get((a, b))


def hand_lags(feed: Feed, moves: list[Move], t0: float, t1: float) -> tuple[list[float], int]:
    """Private hands: for each press in [t0, t1) followed by another press in its game, the
    seconds until the next mover's hand was written after it (the player could see it was
    their turn), and how many took over ``SHOWN_WITHIN_S``."""
    lags, late = [], 0
    by_chat: dict[int, list[tuple[float, int]]] = {}
    for move in moves:
        kind, user, _ = move.key
        at = moved_at(feed, move)
        if kind == "press" and at is not None:
            by_chat.setdefault(move.chat_id, []).append((at, int(user)))
    for presses in by_chat.values():
        presses.sort()
        for (at, _), (_, next_user) in itertools.pairwise(presses):
            if not t0 <= at < t1:
                continue
            written = [w for w in feed.hand_writes.get(next_user, []) if w > at]
            if written and written[0] - at <= SHOWN_WITHIN_S:
                lags.append(written[0] - at)
            else:
                late += 1
    return lags, late


def log_entry_times(client: redis.Redis, since: float, until: float) -> dict[str, list[float]]:
    """Each game's event-log entries written in [since, until], as times (a stream id is
    the Redis server's clock in ms: this machine's, as the local Telegram's is)."""
    times: dict[str, list[float]] = {}
    for key in client.scan_iter(match=LOG_PREFIX + "*"):
        entries = cast(
            list[tuple[bytes, dict[bytes, bytes]]],
            client.xrange(key, int(since * 1000), int(until * 1000) + 1),
        )
        for entry_id, fields in entries:
            at = int(entry_id.split(b"-")[0]) / 1000
            times.setdefault(fields[b"g"].decode(), []).append(at)
    return times


def split_at_log(entries: list[float], at: float, shown: float) -> tuple[float, float] | None:
    """A move's press → table split at its game's first log entry after the press (the
    move's own write; the ms the stream id keeps rounds down, hence the slack)."""
    entry = next((e for e in entries if e >= at - 0.001), None)
    if entry is None or entry > shown:
        return None
    return max(entry - at, 0.0), shown - entry


def mean_between(before: tuple[float, ...], after: tuple[float, ...]) -> float:
    count = after[1] - before[1]
    return (after[0] - before[0]) / count if count > 0 else float("nan")


async def measure(load: Load, seconds: float, rss_before: tuple[int, int]) -> Window:
    """Play on for ``seconds`` and take what the window gave; ``rss_before`` is the bot's
    RSS and how many games there were when it was read."""
    stack, feed = load.stack, load.feed
    client = redis.Redis.from_url(stack.redis_url)
    seq0, cpu0, t0, hist0 = feed.last_seq, cpu(stack), time.time(), histograms(stack)
    print(f"  {load.hand} hand: measuring {seconds:g} s", file=sys.stderr, flush=True)
    STOP.measuring = True
    try:
        return await measured(load, client, seconds, rss_before, seq0, cpu0, t0, hist0)
    finally:
        STOP.measuring = False


async def measured(
    load: Load,
    client: redis.Redis,
    seconds: float,
    rss_before: tuple[int, int],
    seq0: int,
    cpu0: dict[str, float],
    t0: float,
    hist0: dict[str, tuple[float, float, float]],
) -> Window:
    """:func:`measure`'s window from ``t0`` (the feed at ``seq0``, the CPU ``cpu0``, the
    bot's histograms ``hist0``) to ``seconds`` later, or to a stop."""
    stack, feed = load.stack, load.feed
    await STOP.wait(seconds)
    t1, cpu1, hist1 = time.time(), cpu(stack), histograms(stack)
    redis_total, kinds = bot_redis_bytes(client)
    bot = stack.bots[0].process
    rss = rss_bytes(bot.pid) if bot is not None else 0
    await last_tables(load, t0, t1)
    entries = log_entry_times(client, t0, t1 + SHOWN_WITHIN_S)
    client.close()
    calls = await load.call("calls", token=stack.token, since=seq0)
    users = {p["id"] for g in load.games for p in g.people}
    counts = {"group": 0, "private": 0, "answer": 0, "other": 0, "poll": 0}
    too_many = 0
    for call in calls:
        if not t0 <= call["time"] < t1:
            continue
        method = str(call["method"]).lower()
        too_many += call.get("error_code") == 429
        if method == "getupdates":
            counts["poll"] += 1
        elif call.get("chat_id") in feed.groups:
            counts["group"] += 1
        elif call.get("chat_id") in users:
            counts["private"] += 1
        elif method.startswith("answer"):
            counts["answer"] += 1
        else:
            counts["other"] += 1
    all_calls = await load.call("calls", token=stack.token)
    deletes = sum(
        1
        for call in calls
        if t0 <= call["time"] < t1
        and str(call["method"]).lower().startswith("deletemessage")
        and call.get("chat_id") in feed.groups
    )
    latencies, late = [], 0
    superseded: set[tuple[int, float]] = set()
    game_of = {g.chat_id: g.info.game_id for g in load.games if g.info is not None}
    splits = []
    for _, move in load.counters.moves:
        at = moved_at(feed, move)
        if at is None or not t0 <= at < t1:
            continue
        shown = shown_at(feed, move, at)
        if shown is None:
            late += 1
        else:
            latencies.append(shown - at)
            split = split_at_log(entries.get(game_of.get(move.chat_id, ""), []), at, shown)
            if split is not None:
                splits.append(split)
        until = shown if shown is not None else at + SHOWN_WITHIN_S
        superseded |= {
            (move.chat_id, w.time)
            for w in feed.table_writes.get(move.chat_id, [])
            if at + SUPERSEDED_AFTER_S < w.time < until
        }
    table_writes = sum(t0 <= w.time < t1 for writes in feed.table_writes.values() for w in writes)
    hand_latencies, hand_late = hand_lags(feed, [m for _, m in load.counters.moves], t0, t1)
    return Window(
        hand=load.hand,
        games=len(load.games),
        seconds=t1 - t0,
        turns=len(latencies),
        late=late,
        refused=load.counters.refused,
        idle=load.counters.idle,
        group_calls=counts["group"],
        private_calls=counts["private"],
        answer_calls=counts["answer"],
        other_calls=counts["other"],
        polls=counts["poll"],
        too_many=too_many,
        too_many_total=sum(c.get("error_code") == 429 for c in all_calls),
        latencies=latencies,
        cpu={name: cpu1[name] - cpu0.get(name, 0.0) for name in cpu1},
        redis_bytes=redis_total,
        redis_kinds=kinds,
        rss_per_game=(rss - rss_before[0]) / max(len(load.games) - rss_before[1], 1),
        render_lag=mean_between(
            *(h.get("uno_bot_render_lag_seconds", (0, 0)) for h in (hist0, hist1))
        ),
        rate_waits_over_100ms=int(
            hist1.get("uno_bot_rate_wait_seconds", (0, 0, 0))[2]
            - hist0.get("uno_bot_rate_wait_seconds", (0, 0, 0))[2]
        ),
        rate_wait=mean_between(
            *(h.get("uno_bot_rate_wait_seconds", (0, 0)) for h in (hist0, hist1))
        ),
        load_average=os.getloadavg()[0],
        deletes=deletes,
        superseded_writes=len(superseded),
        table_writes=table_writes,
        in_view=[seen for at, seen in load.counters.in_view if t0 <= at < t1],
        hand_latencies=hand_latencies,
        hand_late=hand_late,
        splits=splits,
    )


@contextlib.asynccontextmanager
async def running_load(
    hand: str,
    pace: float,
    redis_url: str,
    bot_env: dict[str, str] | None = None,
    webhook: bool = False,
) -> AsyncIterator[Load]:
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(64))
    log_dir = Path(tempfile.mkdtemp(prefix="telegram-load-"))
    try:
        stack = start_load_stack(redis_url, log_dir, bot_env, webhook)
    except KeyboardInterrupt:  # stopped while starting: nothing failed, no log to keep
        shutil.rmtree(log_dir, ignore_errors=True)
        raise
    load = Load(stack, hand, pace)
    STOP.watch()
    try:
        load.feed.start()
        await asyncio.wait_for(load.feed.connected.wait(), 10)
        async with stack.engine_client() as engine:
            load.engine = engine
            yield load
            await load.stop()
    except BaseException:
        if not STOP.by:  # a failure, not a stop
            print(f"  (the processes' logs are kept in {log_dir})", file=sys.stderr)
            log_dir = Path()
        raise
    finally:
        STOP.unwatch()
        await load.stop()
        await load.feed.stop()
        stack.stop()
        if log_dir != Path():
            shutil.rmtree(log_dir, ignore_errors=True)


async def steady(
    hand: str,
    games: int,
    pace: float,
    seconds: float,
    redis_url: str,
    bot_env: dict[str, str] | None = None,
    webhook: bool = False,
) -> Window:
    """``games`` games at ``pace``: set up, one pace of warm-up, then ``seconds`` measured."""
    async with running_load(hand, pace, redis_url, bot_env, webhook) as load:
        bot = load.stack.bots[0].process
        assert bot is not None
        # The first tenth of the games warms the bot up; its memory growth is taken over
        # the rest.
        first = max(1, games // 10) if games > 1 else 0
        await load.add_games(first)
        await asyncio.sleep(max(pace, 3.0) if first else 1.0)
        rss_before = (rss_bytes(bot.pid), len(load.games))
        await load.add_games(games - first)
        await asyncio.sleep(max(pace, 3.0))
        window = await measure(load, seconds, rss_before)
    return window


async def capacity(
    hand: str,
    pace: float,
    seconds: float,
    steps: list[int],
    redis_url: str,
    bot_env: dict[str, str] | None = None,
    p99_limit: float = GOAL_P99_S,
) -> list[Window]:
    """More games at ``pace`` step by step until the first 429 or p99 over ``p99_limit``
    (or a stop: the steps measured so far)."""
    out: list[Window] = []
    try:
        async with running_load(hand, pace, redis_url, bot_env) as load:
            bot = load.stack.bots[0].process
            assert bot is not None
            await asyncio.sleep(1.0)
            rss_before = (rss_bytes(bot.pid), 0)
            for total in steps:
                await load.add_games(total - len(load.games))
                await asyncio.sleep(max(pace, 3.0))
                window = await measure(load, seconds, rss_before)
                out.append(window)
                print_capacity_step(window)
                if STOP.by or window.too_many or window.quantile(0.99) > p99_limit:
                    break
    except asyncio.CancelledError:
        if STOP.by is None or not out:
            raise
    return out


async def last_tables(load: Load, t0: float, t1: float, wait: float = 3.0) -> None:
    """Wait ``wait`` seconds for the tables of the window's last moves; after a stop, only
    until every move made from ``t0`` to ``t1`` is shown (the stack has seconds left)."""
    if not STOP.by:
        await asyncio.sleep(wait)
        return
    end = time.monotonic() + wait
    while time.monotonic() < end:
        moves = [(m, moved_at(load.feed, m)) for _, m in load.counters.moves]
        in_window = [(m, at) for m, at in moves if at is not None and t0 <= at < t1]
        if all(shown_at(load.feed, m, at) is not None for m, at in in_window):
            return
        await asyncio.sleep(0.05)


# -- printing -----------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"> {SHOWN_WITHIN_S:g} s" if math.isinf(seconds) else f"{seconds * 1000:.0f} ms"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def within_token(w: Window, pace: float) -> bool:
    """Whether the load offered is within what one token carries at this run's calls per
    turn (30 a second)."""
    return TELEGRAM_TOKEN_RATE / max(w.metered_per_turn, 1e-9) >= w.games / pace


def print_steady(windows: list[Window], pace: float, brisk: bool = False) -> None:
    p99_goal = GOAL_BRISK_P99_S if brisk else GOAL_P99_S

    def p99_verdict(w: Window) -> str:
        if not within_token(w, pace):
            return "(over the token's ceiling)"
        return verdict(w.quantile(0.99) <= p99_goal)

    def hand_p99(w: Window) -> str:
        if w.hand != "private":
            return "— (answered live)"
        good = w.hand_quantile(0.99) <= GOAL_HAND_P99_S
        ok = verdict(good) if within_token(w, pace) else "(over the token's ceiling)"
        return f"{ms(w.hand_quantile(0.5))} / {ms(w.hand_quantile(0.99))} {ok}"

    heads = [f"{w.hand} hand{w.placement}" for w in windows]
    rows: list[tuple[str, list[str], str]] = []

    def row(name: str, values: list[str], goal: str = "") -> None:
        rows.append((name, values, goal))

    row("games × 4 players, pace", [f"{w.games}, {pace:g} s" for w in windows])
    row("measured seconds", [f"{w.seconds:.0f}" for w in windows])
    row("turns (moves shown)", [f"{w.turns} ({w.turns_per_second:.1f}/s)" for w in windows])
    row(
        "moves late (> 10 s) / refused / idle ticks",
        [f"{w.late} / {w.refused} / {w.idle}" for w in windows],
    )
    row(
        "group calls per turn",
        [f"{w.per_turn(w.group_calls):.2f} {verdict(w.per_turn(w.group_calls) <= GOAL_GROUP_CALLS)}"
         for w in windows],
        f"≤ {GOAL_GROUP_CALLS}",
    )  # fmt: skip
    row("private calls per turn", [f"{w.per_turn(w.private_calls):.2f}" for w in windows])
    row("answer calls per turn", [f"{w.per_turn(w.answer_calls):.2f}" for w in windows])
    row("all calls per turn (no polls)", [f"{w.per_turn(w.all_calls):.2f}" for w in windows])
    row(
        "429s in window (whole run)",
        [f"{w.too_many} ({w.too_many_total}) {verdict(w.too_many_total == 0)}" for w in windows],
        "0",
    )
    row(
        "  of them: deleting superseded tables",
        [f"{w.per_turn(w.deletes):.2f}" for w in windows],
    )
    row(
        "table writes on a superseded state",
        [
            f"{w.superseded_writes} of {w.table_writes} {verdict(w.superseded_writes == 0)}"
            for w in windows
        ],
        "0",
    )
    row(
        f"turns after which the table is in the last {IN_VIEW}",
        [
            f"{w.in_view_share:.0%} of {len(w.in_view)} {verdict(w.in_view_share >= GOAL_IN_VIEW)}"
            if w.in_view
            else f"(not read above {LOOK_AT_MOST} games)"
            for w in windows
        ],
        f"≥ {GOAL_IN_VIEW:.0%}",
    )
    if brisk:
        row(
            "press → table p50",
            [f"{ms(w.quantile(0.5))} {verdict(w.quantile(0.5) <= GOAL_BRISK_P50_S)}"
             for w in windows],
            f"≤ {ms(GOAL_BRISK_P50_S)}",
        )  # fmt: skip
    else:
        row("press → table p50", [ms(w.quantile(0.5)) for w in windows])
    row("  of it: log → table, mean (bot)", [ms(w.render_lag) for w in windows])
    row(
        "  rate budget wait: mean, calls > 100 ms",
        [f"{ms(w.rate_wait)}, {w.rate_waits_over_100ms}" for w in windows],
    )
    row(
        "press → table p99",
        [f"{ms(w.quantile(0.99))} {p99_verdict(w)}" for w in windows],
        f"≤ {ms(p99_goal)}",
    )
    split_names = ("press → log entry (bot's update, engine)", "log entry → table (bot's render)")
    for part, name in enumerate(split_names):
        row(
            f"  {name} p50 / p99",
            [f"{ms(w.split_quantile(part, 0.5))} / {ms(w.split_quantile(part, 0.99))}"
             for w in windows],
        )  # fmt: skip
    row(
        "  slowest 1 %: press → log, log → table (means)",
        [" / ".join(ms(x) for x in w.slowest_split()) for w in windows],
    )
    row(
        "press → next mover's private hand p50 / p99",
        [hand_p99(w) for w in windows],
        f"p99 ≤ {ms(GOAL_HAND_P99_S)}",
    )
    for name in ("bot", "engine", "worker"):
        row(
            f"{name} CPU per turn",
            [f"{ms(w.cpu.get(name, 0) / max(w.turns, 1))}" for w in windows],
        )
    row("local Telegram CPU share", [f"{w.share('telegram'):.0%} of a core" for w in windows])
    row(
        "bench's own CPU share (people, feed)",
        [f"{w.share('bench'):.0%} of a core" for w in windows],
    )
    row(
        "bot's Redis per live game",
        [f"{w.redis_bytes / max(w.games, 1):.0f} B "
         f"{verdict(w.redis_bytes / max(w.games, 1) <= GOAL_REDIS_BYTES)}" for w in windows],
        f"≤ {GOAL_REDIS_BYTES} B",
    )  # fmt: skip
    row(
        "  by key kind",
        [" ".join(f"{k}:{v / max(w.games, 1):.0f}" for k, v in sorted(w.redis_kinds.items())
                  if k not in PER_RATE_KINDS)
         for w in windows],
    )  # fmt: skip
    row(
        "  webhook update ids seen (by the update rate, not per game)",
        [f"{sum(v for k, v in w.redis_kinds.items() if k in PER_RATE_KINDS) / 1024:.0f} KB"
         for w in windows],
    )  # fmt: skip
    row(
        "bot RSS growth per 1,000 games",
        [f"{w.rss_per_game * 1000 / 2**20:.1f} MiB" for w in windows],
    )
    row(
        "turns/s one token carries (30 ÷ metered calls/turn) / offered",
        [f"{TELEGRAM_TOKEN_RATE / max(w.metered_per_turn, 1e-9):.1f} / "
         f"{w.games / pace:.1f}" for w in windows],
    )  # fmt: skip
    row("load average (1 min)", [f"{w.load_average:.1f}" for w in windows])
    width = max(len(r[0]) for r in rows)
    cols = [max(len(h), *(len(r[1][i]) for r in rows)) for i, h in enumerate(heads)]
    print(
        f"{'':{width}}  " + "  ".join(f"{h:>{c}}" for h, c in zip(heads, cols, strict=True))
        + "  goal"
    )  # fmt: skip
    for name, values, goal in rows:
        cells = "  ".join(f"{v:>{c}}" for v, c in zip(values, cols, strict=True))
        print(f"{name:{width}}  {cells}  {goal}")


CAPACITY_HEAD = (
    f"{'hand':>8} {'games':>6} {'turns/s':>8} {'grp/turn':>8} {'metered':>8} {'429s':>5} "
    f"{'p50':>7} {'p99':>7} {'late':>5} {'bot CPU':>8} {'eng CPU':>8} {'tg CPU':>7} {'load':>5}"
)


def print_capacity_step(w: Window) -> None:
    print(
        f"{w.hand:>8} {w.games:>6} {w.turns_per_second:>8.1f} "
        f"{w.per_turn(w.group_calls):>8.2f} {w.metered_per_turn:>8.2f} {w.too_many:>5} "
        f"{ms(w.quantile(0.5)):>7} {ms(w.quantile(0.99)):>7} {w.late:>5} "
        f"{w.share('bot'):>8.0%} {w.share('engine'):>8.0%} {w.share('telegram'):>7.0%} "
        f"{w.load_average:>5.1f}",
        flush=True,
    )


def print_capacity(windows: list[Window], p99_limit: float = GOAL_P99_S) -> None:
    passed = [w for w in windows if not w.too_many and w.quantile(0.99) <= p99_limit]
    last = windows[-1]
    stopped = (
        "a 429"
        if last.too_many
        else f"p99 over {ms(p99_limit)}"
        if last.quantile(0.99) > p99_limit
        else "the last step (no limit reached)"
    )
    if passed:
        best = passed[-1]
        ceiling = TELEGRAM_TOKEN_RATE / max(best.metered_per_turn, 1e-9)
        print(
            f"{best.hand} hand: one bot token carried {best.turns_per_second:.1f} turns/s "
            f"({best.games} games at this pace) with no 429 and p99 ≤ {ms(p99_limit)}; "
            f"stopped at {stopped}. "
            f"Telegram's ceiling at {best.metered_per_turn:.2f} metered calls per turn: "
            f"{ceiling:.1f} turns/s. Local Telegram CPU: {best.share('telegram'):.0%} of a core."
        )
    else:
        print(f"{last.hand} hand: even {last.games} games had {stopped}.")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent 4-player games")
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between moves per game")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds per run")
    parser.add_argument("--hand", choices=("inline", "private", "both"), default="both")
    parser.add_argument("--capacity", action="store_true", help="raise games until a goal fails")
    parser.add_argument(
        "--steps", default="10,25,50,75,100,150,200,300", help="capacity: game counts to try"
    )
    parser.add_argument(
        "--p99-limit",
        type=float,
        default=GOAL_P99_S,
        help="capacity: the p99 (seconds) that ends the sweep; the goal is 0.1",
    )
    parser.add_argument("--quick", action="store_true", help="10 games, 30 s: a smoke check")
    parser.add_argument(
        "--brisk",
        action="store_true",
        help="a brisk group: 10 games, a move every 2 s (30 a minute, over a group's 20)",
    )
    parser.add_argument(
        "--placement",
        choices=("bottom", "in-place", "both"),
        default="both",
        help="the table at the bottom (the bot's default), edited in place until 15 "
        "messages pushed it up (as before), or both side by side",
    )
    parser.add_argument(
        "--updates",
        choices=("polling", "webhook", "both"),
        default="polling",
        help="how the bot takes its updates: polling (make play's way), a webhook (a "
        "deployment's), or both side by side",
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13", help="emptied first")
    parser.add_argument(
        "--bot-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting for the bot process, e.g. UNO_BOT_GROUP_MESSAGES_PER_MINUTE=20",
    )
    args = parser.parse_args(argv)
    stop_signals_interrupt()
    bot_env = dict(item.split("=", 1) for item in args.bot_env)
    if args.quick:
        args.games, args.seconds = 10, 30.0
        args.steps = "5,10"
    if args.brisk:
        args.games, args.pace = 10, 2.0
    hands = ["inline", "private"] if args.hand == "both" else [args.hand]
    print(
        f"bench/telegram_load.py: {'capacity' if args.capacity else 'steady'} run, "
        f"{os.cpu_count()} cores, Redis {args.redis}, Telegram's flood limits on"
        + (f", bot settings {bot_env}" if bot_env else ""),
        flush=True,
    )
    if args.capacity:
        steps = [int(s) for s in args.steps.split(",")]
        print(CAPACITY_HEAD, flush=True)
        results = []
        with until_stopped():
            for h in hands:
                results.append(
                    asyncio.run(
                        capacity(
                            h, args.pace, args.seconds, steps, args.redis, bot_env, args.p99_limit
                        )
                    )
                )
                if STOP.by:
                    break
        for windows in results:
            print_capacity(windows, args.p99_limit)
        print_stopped([w for windows in results for w in windows])
        return
    placements = {
        "in-place": [(", in place", {**IN_PLACE, **bot_env})],
        "bottom": [(", at the bottom", bot_env)],
    }
    placements["both"] = placements["in-place"] + placements["bottom"]
    updates = {"polling": [False], "webhook": [True], "both": [False, True]}[args.updates]
    runs = [
        (h, label, env, webhook)
        for h in hands
        for label, env in placements[args.placement]
        for webhook in updates
    ]
    windows = []
    with until_stopped():
        for h, label, env, webhook in runs:
            window = asyncio.run(
                steady(h, args.games, args.pace, args.seconds, args.redis, env, webhook)
            )
            window.placement = label + (", webhook" if webhook else "")
            windows.append(window)
            if STOP.by:
                break
    if windows:
        print_steady(windows, args.pace, brisk=args.brisk)
    print_stopped(windows)


def print_stopped(windows: list[Window]) -> None:
    """Say that the run was stopped, when it was, and what the figures above are."""
    if STOP.by is None:
        return
    if windows:
        print(
            f"\nstopped by {STOP.by}: the figures above are what was measured before it "
            f"(the last window {windows[-1].seconds:.0f} s of the {windows[-1].hand} hand); "
            "every process the bench started is stopped",
            flush=True,
        )
    else:
        print(
            f"\nstopped by {STOP.by} before anything was measured; every process the bench "
            "started is stopped",
            flush=True,
        )


if __name__ == "__main__":
    main()
