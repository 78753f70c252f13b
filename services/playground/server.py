"""Running the local Telegram: in this process on a background thread (the pytest fixture,
benchmarks) or as its own process (``python -m services.playground``)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from dataclasses import dataclass, field

import uvicorn

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


def start_in_thread(host: str = "127.0.0.1", port: int = 0) -> LocalTelegram:
    """Serve a fresh world on a background thread; ``port`` 0 picks a free one."""
    world = World()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    config = uvicorn.Config(
        create_app(world), log_level="warning", access_log=False, lifespan="off", ws="none"
    )
    server = uvicorn.Server(config)

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
