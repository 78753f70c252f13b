"""``make play``'s launcher as a child process, as a person runs it in a terminal: its
output read line by line as it comes, stopped with Ctrl-C (SIGINT to its process group).
The launcher's tests and ``bench/play_startup.py`` run it so."""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.play import page_in
from harness.processes import die_with_parent

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@dataclass
class LauncherProcess:
    """A running launcher (``python -m harness.play``, or ``make play`` that runs it)."""

    process: subprocess.Popen[str]
    state_dir: Path | None
    lines: list[str] = field(default_factory=list)
    _queue: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, prefix: str, timeout: float = 120) -> str:
        """The first line (from now on) that starts with ``prefix``; fails with the output."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            self.lines.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"the launcher never printed {prefix!r}; it printed:\n" + self.output)

    @property
    def output(self) -> str:
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                self.lines.append(line)
        return "\n".join(self.lines)

    @property
    def page_url(self) -> str:
        for line in self.lines:
            if (page := page_in(line)) is not None:
                return page
        raise AssertionError("the launcher has not printed its page yet:\n" + self.output)

    def interrupt(self, timeout: float = 60) -> int:
        """Ctrl-C, as a terminal sends it (to the foreground process group); the exit code."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout)


def start_launcher(
    argv: list[str], cwd: Path, env: dict[str, str], state_dir: Path | None = None
) -> LauncherProcess:
    """``argv`` (a launcher) in a process group of its own, as a terminal starts a command,
    its output read as it comes; it dies with its parent, so a run killed outright takes its
    stack along."""
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        # SIGTERM: the launcher stops its own children (``make`` passes it on to it).
        preexec_fn=functools.partial(die_with_parent, os.getpid(), signal.SIGTERM),
    )
    return LauncherProcess(process, state_dir)
