"""``make play`` as a person runs it: the whole stack comes up on a busy machine (the wanted
port taken), prints its page, a second run points at it, and Ctrl-C stops every process it
started."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import redis

from harness.processes import REPO, free_port
from tests.helpers.launcher import TEST_REDIS_URL, start_launcher

pytestmark = pytest.mark.slow


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A child that exited but was not yet reaped by its parent is gone for our purposes.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ")[-1][0] != "Z"


def test_the_stack_starts_moves_off_a_busy_port_is_found_again_and_stops_on_ctrl_c(
    tmp_path: Path,
) -> None:
    redis.Redis.from_url(TEST_REDIS_URL).flushdb()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        launcher = start_launcher(
            tmp_path / "play", "--port", str(busy), "--engine-port", str(free_port())
        )
        try:
            launcher.wait_for("UNO playground: ")
            page = launcher.page_url
            assert urlsplit(page).port not in (None, busy)  # moved to the next free port
            moved = f"http://127.0.0.1:{urlsplit(page).port} ({busy} was taken)"
            assert any("local telegram" in line and moved in line for line in launcher.lines)
            assert "<title>UNO playground</title>" in httpx.get(page).text
            for step in ("redis", "engine", "local telegram", "worker", "bot", "mini app"):
                assert any(step in line for line in launcher.lines), step  # progress shown

            info = json.loads((tmp_path / "play" / "stack.json").read_text())
            children = info["children"]
            assert set(children) == {"engine", "worker", "telegram", "bot", "webapp"}
            assert all(alive(pid) for pid in children.values())

            state = str(tmp_path / "play")
            second = subprocess.run(
                [sys.executable, "-m", "harness.play", "--state-dir", state],
                cwd=REPO,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert second.returncode == 0
            assert "already running" in second.stdout and page in second.stdout
        finally:
            code = launcher.interrupt()
    assert code == 0, launcher.output
    assert "every process this command started has exited" in launcher.output
    assert not any(alive(pid) for pid in children.values())
    assert not (tmp_path / "play" / "stack.json").exists()


def test_with_a_token_the_bot_talks_to_that_telegram_and_no_page_starts(
    tmp_path: Path, local_telegram: Any
) -> None:
    """``UNO_TELEGRAM_TOKEN`` set: no local Telegram of the stack's own and no page; the bot
    polls the Telegram it is given (here the test's local Telegram standing in for the real
    one through ``UNO_BOT_API_URL``)."""
    bot = local_telegram.control.create_bot("token_mode_bot")
    launcher = start_launcher(
        tmp_path / "play",
        "--engine-port",
        str(free_port()),
        UNO_TELEGRAM_TOKEN=bot["token"],
        UNO_BOT_API_URL=local_telegram.bot_api_url,
    )
    try:
        launcher.wait_for("UNO is running against Telegram")
        assert "local telegram" not in launcher.output
        control = local_telegram.control
        control.wait_until(
            lambda: any(c["method"] == "getUpdates" for c in control.calls(token=bot["token"])),
            timeout=30,
            what="the bot polling the Telegram it was given",
        )
        children = json.loads((tmp_path / "play" / "stack.json").read_text())["children"]
        assert set(children) == {"engine", "worker", "bot"}
    finally:
        assert launcher.interrupt() == 0, launcher.output
