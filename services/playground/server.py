"""Running the local Telegram: in this process on a background thread (the pytest fixture)
or as its own process (``python -m services.playground``; :class:`LocalTelegramProcess`
for benchmarks, which can then tell the CPU it used)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from services.playground.app import create_app
from services.playground.control import TelegramControl
from services.playground.world import World


@dataclass
class LocalTelegram:
    """A running server: its ``url``, the Bot API base for python-telegram-bot's
    ``base_url`` (``bot_api_url``), a ``control`` client and the ``world`` itself."""

    url: str
    world: World
    control: TelegramControl
    _server: uvicorn.Server
    _thread: threading.Thread = field(repr=False)

    @property
    def bot_api_url(self) -> str:
        return self.url + "/bot"

    def stop(self) -> None:
        self.control.close()
        self._server.should_exit = True
        self._thread.join(10)


def tcp_socket(host: str) -> socket.socket:
    """A listening socket made as the event loop makes its own: with ``IPPROTO_TCP`` set, so
    asyncio turns Nagle's algorithm off on its connections (without it every response waits
    some 40 ms for a delayed ACK)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)


def bound_socket(host: str, port: int) -> socket.socket:
    """:func:`tcp_socket` bound to ``host:port`` (``port`` 0 picks a free one)."""
    sock = tcp_socket(host)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


def uvicorn_server(app: FastAPI) -> uvicorn.Server:
    """The local Telegram's server, quiet, without lifespan or WebSockets."""
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", ws="none")
    return uvicorn.Server(config)


def start_in_thread(host: str = "127.0.0.1", port: int = 0) -> LocalTelegram:
    """Serve a fresh world on a background thread; ``port`` 0 picks a free one."""
    world = World()
    sock = bound_socket(host, port)
    server = uvicorn_server(create_app(world))

    def run() -> None:
        asyncio.run(server.serve(sockets=[sock]))

    thread = threading.Thread(target=run, name="local-telegram", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the local Telegram did not start")
        time.sleep(0.01)
    bound_port = sock.getsockname()[1]
    url = f"http://{host}:{bound_port}"
    return LocalTelegram(url, world, TelegramControl(url), server, thread)


class LocalTelegramProcess:
    """``python -m services.playground`` as a child process on a free port: ``url``,
    ``control`` and :meth:`cpu_seconds`, so a benchmark can report the server's CPU share."""

    def __init__(self, *, limits: bool = True, extra_args: tuple[str, ...] = ()) -> None:
        argv = [sys.executable, "-m", "services.playground", "--port", "0", *extra_args]
        if not limits:
            argv.append("--no-limits")
        self.process = subprocess.Popen(
            argv,
            cwd=Path(__file__).resolve().parents[2],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "UNO_LOG_LEVEL": os.environ.get("UNO_LOG_LEVEL", "WARNING")},
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if not line.startswith("local telegram listening on "):
            self.process.kill()
            raise RuntimeError(f"the local Telegram did not start: {line!r}")
        self.url = line.rsplit(" ", 1)[1]
        self.bot_api_url = self.url + "/bot"
        self.control = TelegramControl(self.url)

    @property
    def pid(self) -> int:
        return self.process.pid

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server has used so far (Linux /proc)."""
        stat = Path(f"/proc/{self.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.control.close()
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
