"""``make play``'s launcher as a real process for its tests: with a state folder and ports
of the test's own, on the test Redis (harness/launcher.py runs it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from harness.launcher import LauncherProcess
from harness.launcher import start_launcher as start_process
from harness.processes import REPO

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def start_launcher(state_dir: Path, *args: str, **extra_env: str) -> LauncherProcess:
    """The launcher on the test Redis (the user's own token and Bot API address left out)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("UNO_TELEGRAM_TOKEN", "UNO_BOT_API_URL")
    }
    env.update(UNO_REDIS_URL=TEST_REDIS_URL, **extra_env)
    argv = [sys.executable, "-m", "harness.play", "--state-dir", str(state_dir), *args]
    return start_process(argv, REPO, env, state_dir)
