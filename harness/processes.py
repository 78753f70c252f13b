"""Starting, watching and stopping a service of the product as a local process: a free TCP
port on the loopback interface, the uvicorn and Celery command lines, the environment a
service gets, and :class:`ServiceProcess`, one service in its own process group. ``make
play``'s launcher, the end-to-end tests and the benches start every process through it.

No process started here outlives the command that started it, however that command ends.
Its own end, an exception and Ctrl-C run its ``finally`` blocks, which stop the services
(SIGTERM, then SIGKILL); SIGTERM does too once :func:`stop_signals_interrupt` is set (Python's
own action for it ends the process at once, skipping every ``finally`` and atexit handler).
What is left, a command killed outright or dying before its ``finally``, is the kernel's
parent-death signal (:func:`die_with_parent`): every service gets it, not only ``make
play``'s (a bench's services once stayed up for an hour after ``timeout`` stopped it)."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx

REPO = Path(__file__).resolve().parents[1]

_PR_SET_PDEATHSIG = 1
_T = TypeVar("_T")


def free_port() -> int:
    """A loopback port nobody listens on right now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def uvicorn_command(app: str, port: int, *options: str) -> list[str]:
    """``python -m uvicorn APP`` on 127.0.0.1:PORT, with this interpreter and extra options."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *options,
    ]


def worker_command(node_name: str | None = None, *, loglevel: str = "INFO") -> list[str]:
    """``celery -A services.worker.app worker`` with this interpreter, quiet on the broker.

    Gossip, mingle and heartbeats are for worker fleets that watch each other; a local worker
    only needs its queue and its deadline drainer, and starts faster without them.
    """
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "services.worker.app",
        "worker",
        f"--loglevel={loglevel}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    if node_name is not None:
        argv += ["-n", node_name]
    return argv


def service_env(redis_url: str, engine_url: str, token: str, **extra: str) -> dict[str, str]:
    """The environment of a local engine or worker: this process's, without its own ``UNO_``
    settings, with ``redis_url`` for state and broker alike, development mode on
    (``UNO_DEV_MODE``: these are a developer's or a test's processes), then ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    env.update(
        UNO_REDIS_URL=redis_url,
        UNO_BROKER_URL=redis_url,
        UNO_ENGINE_URL=engine_url,
        UNO_ENGINE_TOKEN=token,
        UNO_DEV_MODE="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


@dataclass(frozen=True)
class ProcessEntry:
    """One process as Linux's /proc/<pid>/stat tells it."""

    parent: int
    state: str  # R, S, D, Z (a zombie: exited, not yet reaped) ...
    cpu_ticks: int  # user + system, in clock ticks


def process_table() -> dict[int, ProcessEntry]:
    """Every process on the machine now, by pid, from Linux's /proc."""
    table: dict[int, ProcessEntry] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        fields = raw[raw.rindex(")") + 2 :].split()
        table[int(entry.name)] = ProcessEntry(
            parent=int(fields[1]), state=fields[0], cpu_ticks=int(fields[11]) + int(fields[12])
        )
    return table


def descendants(pid: int, table: Mapping[int, ProcessEntry] | None = None) -> set[int]:
    """The pids of every process below ``pid`` (children, theirs, ...), in ``table``."""
    table = process_table() if table is None else table
    found: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        children = {child for child, entry in table.items() if entry.parent == current}
        todo.extend(children - found)
        found |= children
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and every living descendant (Celery's pool children)
    so far, from Linux's /proc."""
    table = process_table()
    ticks = sum(table[p].cpu_ticks for p in {pid} | descendants(pid, table) if p in table)
    return ticks / os.sysconf("SC_CLK_TCK")


def die_with_parent(parent: int | None = None, signum: int = signal.SIGKILL) -> None:
    """In the child, before exec: get ``signum`` when the parent dies, even by SIGKILL, so
    no service outlives the command that started it (Linux only; elsewhere nothing
    happens). ``parent``: the parent's pid, read before the fork; a parent already gone by
    the time this runs would never send the signal, so the child ends itself then.

    SIGKILL, not SIGTERM: a parent that could stop its children has done so (SIGTERM, then
    SIGKILL, in its ``finally``); this signal comes only when nobody is left to follow a
    SIGTERM up, and a service may outwait one for as long as it likes (the local Telegram
    and uvicorn wait for open long polls and live streams, Celery's warm shutdown for its
    running tasks). Nothing a service holds needs a graceful end here: the harness's Redis
    saves nothing, records are SQLite transactions. The signal reaches the child alone, not
    a process the child starts: none of the services forks one (the worker's pool is
    threads); a command that stops what it started itself (``make play``'s launcher, or
    ``make`` that passes SIGTERM on to it) is better given SIGTERM. The kernel sends the
    signal when the *thread* that forked the child exits, which is why :func:`spawn` forks
    from a thread that lasts as long as the process."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signum)
        if parent is not None and os.getppid() != parent:
            os.kill(os.getpid(), signum)


def stop_signals_interrupt() -> None:
    """From now on SIGTERM (``timeout``'s, a CI runner's, ``kill``'s) and SIGINT (Ctrl-C)
    raise KeyboardInterrupt in the main thread at once: ``finally`` blocks stop the services
    and a bench prints what it measured. Python's own action for SIGTERM ends the process
    at once, skipping them all; and ``asyncio.run`` would hold Ctrl-C back until the running
    task next awaits (a stack's start, say, takes many seconds without one). For a command's
    ``main`` (a bench's), not for a library: it sets the whole process's handling."""
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)  # which stop it was, for the message


#: The thread that forks every child started from another thread than the main one, and
#: this process's pid when it started (a forked copy of this process needs its own).
_forker: tuple[int, queue.SimpleQueue[tuple[Callable[[], object], Future[object]]]] | None = None
_forker_lock = threading.Lock()


def _on_lasting_thread(call: Callable[[], _T]) -> _T:
    """``call()`` on a thread that lives as long as this process: the main thread, or a
    daemon thread kept for forking. The parent-death signal fires when the thread that
    forked the child exits, so a service started from a short-lived thread (a thread pool's,
    ``asyncio.to_thread``'s) would be killed as soon as that thread ended."""
    global _forker
    if threading.current_thread() is threading.main_thread():
        return call()
    with _forker_lock:
        if _forker is None or _forker[0] != os.getpid():
            requests: queue.SimpleQueue[tuple[Callable[[], object], Future[object]]]
            requests = queue.SimpleQueue()

            def serve() -> None:
                while True:
                    work, done = requests.get()
                    try:
                        done.set_result(work())
                    except BaseException as error:
                        done.set_exception(error)

            threading.Thread(target=serve, name="harness-forker", daemon=True).start()
            _forker = (os.getpid(), requests)
        requests = _forker[1]
    done: Future[object] = Future()
    requests.put((call, done))
    return done.result()  # type: ignore[return-value]


def spawn(
    argv: list[str],
    env: Mapping[str, str],
    log_path: Path,
    *,
    dies_with_parent: bool = True,
    stdin_pipe: bool = False,
) -> subprocess.Popen[bytes]:
    """``argv`` from the repository's root, reading nothing (or, with ``stdin_pipe``, a pipe
    from this process), its output appended to ``log_path``, in its own process group, so a
    signal to the group (``stop``, ``kill``) reaches all of it and Ctrl-C in the terminal
    does not; with ``dies_with_parent`` (:func:`die_with_parent`) it is killed when this
    process dies."""
    parent = os.getpid()
    preexec = functools.partial(die_with_parent, parent) if dies_with_parent else None

    def start() -> subprocess.Popen[bytes]:
        with log_path.open("ab") as log:
            return subprocess.Popen(
                argv,
                cwd=REPO,
                env=dict(env),
                stdin=subprocess.PIPE if stdin_pipe else subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=preexec,
            )

    return _on_lasting_thread(start)


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the whole process group: no shutdown handler runs."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def stop(process: subprocess.Popen[bytes], grace: float = 15) -> None:
    """SIGTERM the process group, then SIGKILL if it has not gone within ``grace`` seconds;
    nothing to a process already reaped (its number may be another process's by now)."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(grace)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        kill(process)


@functools.cache
def _check_client() -> httpx.Client:
    """The one HTTP client of every readiness check in this process: a new client costs
    tens of milliseconds of CPU (its TLS context), and checks every 50 ms with a new one
    each would take most of a core from the very processes being waited for; a refused
    connection on a kept client costs a fraction of a millisecond."""
    return httpx.Client(timeout=1)


def answers_ok(url: str) -> Callable[[], bool]:
    """A condition to wait for: a GET of ``url`` (a service's ``/readyz``, say) answers 200;
    a service not listening yet, or not ready, is simply not so yet."""

    def ok() -> bool:
        try:
            return _check_client().get(url).status_code == 200
        except httpx.HTTPError:
            return False

    return ok


def logged(child: ServiceProcess, text: str) -> Callable[[], bool]:
    """A condition to wait for: ``child``'s latest start has logged ``text`` (e.g. Celery's
    ``ready.``), read from where the previous check stopped."""
    seen = b""
    offset: int | None = None

    def ok() -> bool:
        nonlocal seen, offset
        if offset is None:
            offset = child.log_start_offset
        try:
            with child.log_path.open("rb") as log:
                log.seek(offset)
                new = log.read()
        except FileNotFoundError:
            return False
        offset += len(new)
        # The text may straddle two reads: keep the end of the last one.
        seen = seen[-len(text) :] + new
        return text.encode() in seen

    return ok


@dataclass
class ServiceProcess:
    """One local service subprocess in its own process group, its output in ``log_path``
    (appended to across starts). ``dies_with_parent``: it does not outlive the command that
    started it, even one killed outright (every service the harness starts)."""

    name: str
    argv: list[str]
    env: Mapping[str, str]
    log_path: Path
    dies_with_parent: bool = True
    #: Started under ``harness.preload``: it loads, then waits for :meth:`release`.
    held: bool = False
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _ready: Callable[[], bool] = field(default=lambda: True, init=False, repr=False)
    _log_offset: int = field(default=0, init=False, repr=False)

    def start(self) -> None:
        self._log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self.process = spawn(
            self.argv,
            self.env,
            self.log_path,
            dies_with_parent=self.dies_with_parent,
            stdin_pipe=self.held,
        )

    @property
    def log_start_offset(self) -> int:
        """Where in the log the latest start's output begins (in bytes)."""
        return self._log_offset

    def release(self) -> None:
        """Let a held process (``harness.preload``) go on from its imports to its start."""
        assert self.held and self.process is not None and self.process.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.write(b"go\n")
            self.process.stdin.close()

    def start_ready(self, ready: Callable[[], bool], timeout: float = 60) -> None:
        """Start and return once ``ready`` holds; a RuntimeError with this start's log when
        the process exits first or is not ready within ``timeout`` seconds."""
        self._ready = ready
        self.start()
        self.wait_ready(ready, timeout, "ready")

    def wait_ready(self, ready: Callable[[], bool], timeout: float, what: str) -> None:
        """Poll ``ready`` until it holds; fail with the end of the log if the process dies
        or is late (saying it was not ``what``)."""
        end = time.monotonic() + timeout
        while not ready():
            if not self.alive or time.monotonic() > end:
                raise RuntimeError(self.start_failure(what, timeout))
            time.sleep(0.05)

    def start_failure(self, what: str, timeout: float) -> str:
        """Why the latest start failed (the process exited, or was not ``what`` within
        ``timeout`` seconds), with the end of what it logged."""
        if self.alive:
            why = f"{self.name} was not {what} within {timeout:.0f} s"
        else:
            why = f"{self.name} exited with code {self.exit_code} while starting"
        return f"{why}; the end of {self.log_path}:\n{self.log_since_start()[-4000:]}"

    def start_again(self) -> None:
        """Start the same process again (same port, name and settings) after a kill."""
        self.start_ready(self._ready)

    @property
    def alive(self) -> bool:
        return self.exit_code is None and self.process is not None

    @property
    def exit_code(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_since_start(self) -> str:
        """What the latest start of the process has logged."""
        if not self.log_path.exists():
            return ""
        with self.log_path.open("rb") as log:
            log.seek(self._log_offset)
            return log.read().decode(errors="replace")

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def cpu_seconds(self) -> float:
        """The CPU the process and its children have used so far (0 when not running)."""
        return cpu_seconds(self.process.pid) if self.process is not None else 0.0

    def pause(self) -> None:
        """SIGSTOP: the process stays, its sockets accept, nothing is answered."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGCONT)

    def terminate(self) -> None:
        """SIGTERM to the process group, without waiting (see :meth:`wait_or_kill`); nothing
        to a process already reaped (its number may be another process's by now)."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)

    def wait_or_kill(self, grace: float) -> None:
        """Wait up to ``grace`` seconds for the process to exit, then SIGKILL its group."""
        if self.process is None:
            return
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            kill(self.process)

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown handler runs."""
        if self.process is not None:
            kill(self.process)
            self.process = None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it will not go."""
        if self.process is not None:
            stop(self.process)
            self.process = None
