"""Whatever ends a bench or ``make play`` (its own end, a child that dies, Ctrl-C, SIGTERM as
``timeout`` and CI send it, SIGKILL of the command itself), every process it started is gone
within seconds, no port of theirs stays taken and no client of theirs stays on the Redis
database. Each case starts the real command in a session of its own, as a terminal does, and
watches the process table, the ports and Redis with a bounded deadline."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from harness.launcher import LauncherProcess, start_launcher
from harness.processes import (
    REPO,
    ProcessEntry,
    ServiceProcess,
    descendants,
    free_port,
    process_table,
)

pytestmark = pytest.mark.slow

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
#: How long after the end of the command its last process may still be there.
GONE_WITHIN = 10.0


def living() -> dict[int, ProcessEntry]:
    """Every living process (zombies left out: an exited process its parent has not reaped
    holds no port, no connection and no CPU)."""
    return {pid: entry for pid, entry in process_table().items() if entry.state != "Z"}


def listening_ports(pids: set[int]) -> set[int]:
    """The TCP ports the processes ``pids`` listen on (their sockets' inodes matched in
    /proc/net/tcp)."""
    inodes = set()
    for pid in pids:
        try:
            links = [os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()]
        except OSError:
            continue
        inodes |= {link[8:-1] for link in links if link.startswith("socket:[")}
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def port_free(port: int) -> bool:
    """A service could listen on ``port`` again (as uvicorn binds: SO_REUSEADDR)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def redis_clients() -> list[str]:
    """The clients connected to the test Redis database, this check's own left out."""
    client = redis.Redis.from_url(TEST_REDIS_URL)
    try:
        me = client.client_id()
        db = client.connection_pool.connection_kwargs.get("db", 0)
        return [
            f"{c['addr']} {c.get('name', '')}"
            for c in client.client_list()
            if int(c["db"]) == db and int(c["id"]) != me
        ]
    finally:
        client.close()


class Stack:
    """What a command started, read while it runs: its processes and their ports."""

    def __init__(self, command: LauncherProcess) -> None:
        self.command = command
        self.pids = descendants(command.process.pid, living())
        self.ports = listening_ports(self.pids)
        assert self.pids and self.ports, command.output

    def left(self) -> str:
        """What is still there ('' when nothing): processes, taken ports, Redis clients."""
        alive = living()
        procs = [
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:90]
            for pid in sorted(self.pids & alive.keys())
            if Path(f"/proc/{pid}/cmdline").exists()
        ]
        ports = sorted(p for p in self.ports if not port_free(p))
        clients = redis_clients()
        if not (procs or ports or clients):
            return ""
        return f"processes {procs}, ports taken {ports}, Redis clients {clients}"

    def wait_gone(self, since: float) -> float:
        """Poll until nothing of the stack is left; how long after ``since`` that was. Fails
        naming what is left if it takes over :data:`GONE_WITHIN` seconds."""
        while left := self.left():
            if time.monotonic() - since > GONE_WITHIN:
                self.kill_what_is_left()
                raise AssertionError(
                    f"{GONE_WITHIN:.0f} s after the stop: {left}\n{self.command.output}"
                )
            time.sleep(0.05)
        return time.monotonic() - since

    def kill_what_is_left(self) -> None:
        """So a failing case leaves nothing running beside the next one."""
        for pid in self.pids & living().keys():
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def stop(command: LauncherProcess, how: str) -> float:
    """End ``command`` ``how``; the monotonic time of the end (its own: when it exited)."""
    pid = command.process.pid
    if how == "SIGINT":  # Ctrl-C: the terminal signals the foreground process group
        os.killpg(pid, signal.SIGINT)
    elif how == "SIGTERM":  # as `timeout` and CI runners send it: to the command's group
        os.killpg(pid, signal.SIGTERM)
    elif how == "SIGKILL":  # the command alone, killed outright
        os.kill(pid, signal.SIGKILL)
    elif how != "its own end":
        raise AssertionError(how)
    at = time.monotonic()
    if how == "its own end":
        command.process.wait(300)
        at = time.monotonic()
    return at


def run_and_stop(
    argv: list[str], ready: str, how: str, end: Callable[[LauncherProcess], None] | None = None
) -> tuple[LauncherProcess, float]:
    """Start ``argv`` as a terminal does, wait for its line ``ready``, end it ``how`` (or by
    ``end``), then wait for its whole stack to be gone; the command and how long that took."""
    own = ("UNO_TELEGRAM_TOKEN", "UNO_BOT_API_URL")  # the user's own Telegram left out
    env = {k: v for k, v in os.environ.items() if k not in own}
    env["UNO_REDIS_URL"] = TEST_REDIS_URL
    command = start_launcher(argv, REPO, env)
    try:
        command.wait_for(ready, timeout=180)
        stack = Stack(command)
        if end is not None:
            end(command)
            at = time.monotonic()
        else:
            at = stop(command, how)
        took = stack.wait_gone(at)
        command.process.wait(GONE_WITHIN)
    finally:
        if command.process.poll() is None:
            os.killpg(command.process.pid, signal.SIGKILL)
            command.process.wait(10)
    print(f"{' '.join(argv[1:3])} {how}: the last process gone {took:.2f} s after the end")
    return command, took


@pytest.mark.parametrize("how", ["its own end", "SIGINT", "SIGTERM", "SIGKILL"])
def test_a_bench_ended_any_way_leaves_nothing_of_its_stack(how: str) -> None:
    """bench/telegram_load.py, the bench that was seen to leave its local Telegram, engine,
    worker and bot running for an hour after ``timeout`` stopped it. Stopped early, it
    prints what it measured so far and says that it was stopped."""
    seconds = "1" if how == "its own end" else "600"
    argv = [
        sys.executable, "bench/telegram_load.py", "--games", "1", "--pace", "1",
        "--seconds", seconds, "--hand", "inline", "--placement", "bottom",
        "--redis", TEST_REDIS_URL,
    ]  # fmt: skip
    command, _ = run_and_stop(argv, "  inline hand: measuring", how)
    output = command.output
    if how == "its own end":
        assert command.process.returncode == 0, output
        assert "press → table p50" in output
    elif how in ("SIGINT", "SIGTERM"):
        assert f"stopped by {how}" in output, output
        assert "press → table p50" in output  # the figures of what it measured so far


def kill_the_engine(command: LauncherProcess) -> None:
    """One of the children dies: the launcher stops the rest and exits."""
    engine = next(
        pid
        for pid in descendants(command.process.pid)
        if b"services.engine.app" in Path(f"/proc/{pid}/cmdline").read_bytes()
    )
    os.killpg(engine, signal.SIGKILL)


@pytest.mark.parametrize("how", ["a child dies", "SIGINT", "SIGTERM", "SIGKILL"])
def test_make_play_ended_any_way_leaves_nothing_of_its_stack(how: str, tmp_path: Path) -> None:
    argv = [
        sys.executable, "-m", "harness.play", "--state-dir", str(tmp_path / "play"),
        "--port", str(free_port()), "--engine-port", str(free_port()),
    ]  # fmt: skip
    end = kill_the_engine if how == "a child dies" else None
    command, _ = run_and_stop(argv, "UNO playground: ", how, end)
    if how in ("SIGINT", "SIGTERM"):
        assert "every process this command started has exited" in command.output
    if how == "a child dies":
        assert "engine stopped unexpectedly" in command.output


#: A process that echoes each line of its standard input to its output (its log).
ECHO = "import sys\nfor line in sys.stdin: print(line, end='', flush=True)"


def test_a_service_started_from_a_thread_that_ends_lives_on(tmp_path: Path) -> None:
    """The kernel's parent-death signal comes when the *thread* that forked the child exits,
    not the process: a service a test or bench starts from a thread pool's thread must not
    be killed when that thread ends, only when the process does."""
    echo = ServiceProcess(
        "echo", [sys.executable, "-c", ECHO], dict(os.environ), tmp_path / "echo.log", held=True
    )
    forked_on: list[int] = []

    def start() -> None:
        forked_on.append(threading.get_native_id())
        echo.start()

    starter = threading.Thread(target=start)
    starter.start()
    starter.join()
    try:
        deadline = time.monotonic() + GONE_WITHIN
        # Gone from the kernel too (its parent-death signals sent), not only from Python.
        while Path(f"/proc/self/task/{forked_on[0]}").exists():
            assert time.monotonic() < deadline, "the starting thread never ended"
            time.sleep(0.01)
        assert echo.process is not None and echo.process.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # killed already: the check below says so
            echo.process.stdin.write(b"still here\n")
            echo.process.stdin.flush()
        while "still here" not in echo.log() and echo.alive:
            assert time.monotonic() < deadline, echo.log()
            time.sleep(0.01)
        assert "still here" in echo.log(), f"killed as its starting thread ended: {echo.exit_code}"
    finally:
        echo.kill()
