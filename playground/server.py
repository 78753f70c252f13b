"""Serving the local Telegram: in this process on a background thread (the tests' fixture),
or from ``python -m playground`` (its own process; harness/services.py starts it so for
the benchmarks)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from dataclasses import dataclass, field

import uvicorn
from fastapi import FastAPI

from playground.app import create_app
from playground.control import TelegramControl
from playground.world import World


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


#: How long a stopping server lets its open requests run before it cancels them. A bot's
#: pending getUpdates lasts its whole timeout (10 s for the harness's bot) even after the
#: bot is gone, and a page's live feed never ends by itself; uvicorn's default waits for
#: them all, so a stopped stack took ten seconds and more to let go of its port.
STOP_GRACE_SECONDS = 1


def uvicorn_server(app: FastAPI) -> uvicorn.Server:
    """The local Telegram's server, quiet, without lifespan or WebSockets; stopped, it ends
    its open requests after :data:`STOP_GRACE_SECONDS`."""
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        ws="none",
        timeout_graceful_shutdown=STOP_GRACE_SECONDS,
    )
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
