"""``make play``'s launcher as a real process for the tests: started with its own state
folder and ports, its output read line by line, stopped with Ctrl-C (SIGINT)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.play import page_in
from harness.processes import REPO, die_with_parent

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@dataclass
class LauncherProcess:
    """A running ``python -m harness.play``."""

    process: subprocess.Popen[str]
    state_dir: Path
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
        """Ctrl-C, as a terminal sends it; the launcher's exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout)


def start_launcher(state_dir: Path, *args: str, **extra_env: str) -> LauncherProcess:
    """The launcher on the test Redis (the user's own token and Bot API address left out)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("UNO_TELEGRAM_TOKEN", "UNO_BOT_API_URL")
    }
    env.update(UNO_REDIS_URL=TEST_REDIS_URL, PYTHONUNBUFFERED="1", **extra_env)
    process = subprocess.Popen(
        [sys.executable, "-m", "harness.play", "--state-dir", str(state_dir), *args],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=die_with_parent,  # a test run killed outright takes its stack along
    )
    return LauncherProcess(process, state_dir)
