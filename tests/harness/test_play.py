"""``make play`` as a person runs it: the whole stack comes up on a busy machine (the wanted
port taken), prints its page, a second run points at it, and Ctrl-C stops every process it
started; once it has printed its page, a game can be played there at once."""

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

from harness.play import BOT_USERNAME, FIRST_PERSON, GROUP_TITLE
from harness.players import Players, callbacks, preferred_move, version_of
from harness.processes import REPO, free_port
from playground.control import TelegramControl
from services.presentation.callbacks import Kind
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


def environ_of(pid: int) -> dict[str, str]:
    """A running process's environment, from Linux's /proc."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(entry.decode().split("=", 1) for entry in raw if b"=" in entry)


def asks_the_variant(message: dict[str, Any]) -> bool:
    return any(cb.kind is Kind.VARIANT for cb in callbacks(message))


def test_once_the_page_is_printed_a_game_plays_there_at_once(tmp_path: Path) -> None:
    """The services start together and the bot only once its world is made: the line with
    the page's address comes when everything answers, so a game started right after it
    (as a person would from the page: Alex in "UNO night", /new, classic, an AI seat,
    start) deals and takes a move."""
    redis.Redis.from_url(TEST_REDIS_URL).flushdb()
    ports = ("--port", str(free_port()), "--engine-port", str(free_port()))
    launcher = start_launcher(tmp_path / "play", *ports)
    try:
        launcher.wait_for("UNO playground: ")
        control = TelegramControl(launcher.page_url.rstrip("/"))
        state = control.state()
        alex = next(u["id"] for u in state["users"] if u["first_name"] == FIRST_PERSON)
        group = next(c["id"] for c in state["chats"] if c["title"] == GROUP_TITLE)
        bot = next(b for b in state["bots"] if b["username"] == BOT_USERNAME)
        info = json.loads((tmp_path / "play" / "stack.json").read_text())
        token = environ_of(info["children"]["bot"])["UNO_TELEGRAM_TOKEN"]
        players = Players(control, token, group, BOT_USERNAME, bot["id"])

        control.send_message(alex, group, "/new")
        question: dict[str, Any] = control.wait_until(
            lambda: next(filter(asks_the_variant, players.bot_messages()), {}),
            timeout=60,
            what="the variant keyboard",
        )
        players.press(alex, question, next(cb for cb in callbacks(question) if cb.arg == "classic"))
        lobby = players.wait_table("the lobby", lambda m: "waiting for players" in m["text"])
        players.press(alex, lobby, next(cb for cb in callbacks(lobby) if cb.arg == "ai.strong"))
        players.wait_table("an AI seat", lambda m: "AI 1" in m["text"])
        players.press(alex, lobby, next(cb for cb in callbacks(lobby) if cb.arg == "start"))
        table = players.wait_table("the table", lambda m: "round 1" in m["text"])
        players.press(alex, table, next(cb for cb in callbacks(table) if cb.kind is Kind.HAND))
        hand = players.wait_hand(
            alex, lambda m: preferred_move(callbacks(m)) is not None, "Alex's hand with a move"
        )
        move = preferred_move(callbacks(hand))
        assert move is not None
        assert not players.press_hand(alex, hand, move)["text"], hand["text"]
        players.wait_hand(alex, lambda m: version_of(m) > move.version, "the move shown")
    finally:
        assert launcher.interrupt() == 0, launcher.output


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
