"""The engine not answering a move: over real HTTP, an engine that takes the request and
never answers (its store hanging), or drops the connection, may have applied it, one that
cannot be reached has not, and the player is told which. Over httpx's own transport (the
engine client's default) and over the one the bot uses (services/bot/engine_http.py)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import httpx
import pytest

from harness.processes import free_port
from services.bot.engine_calls import EngineDown, call_engine
from services.bot.engine_http import engine_transport
from services.engine.client import EngineClient
from services.presentation.screens.refusals import not_answering


@pytest.fixture
def hanging_engine() -> Iterator[str]:
    """A server that accepts every connection and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()


@pytest.fixture
def dropping_engine() -> Iterator[str]:
    """A server that reads each request and closes the connection without an answer."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()


@pytest.fixture(params=["httpx", "bot"])
def transport(request: pytest.FixtureRequest) -> httpx.AsyncBaseTransport | None:
    return engine_transport() if request.param == "bot" else None


async def down(url: str, transport: httpx.AsyncBaseTransport | None = None) -> EngineDown:
    async with EngineClient(url, "token", timeout=0.3, transport=transport) as engine:
        with pytest.raises(EngineDown) as raised:
            await call_engine(
                lambda: engine.act("AbCdEf123456", 7, "d", version=3, action_id="tg:7:3:d")
            )
    return raised.value


async def test_a_move_the_engine_took_and_never_answered_may_have_been_applied(
    hanging_engine: str, transport: httpx.AsyncBaseTransport | None
) -> None:
    e = await down(hanging_engine, transport)
    assert e.maybe_applied
    assert not_answering("en", maybe_applied=e.maybe_applied) == (
        "The game server is slow: your move may have been applied, and the table will show it."
    )


async def test_a_move_the_engine_took_and_dropped_may_have_been_applied(
    dropping_engine: str, transport: httpx.AsyncBaseTransport | None
) -> None:
    assert (await down(dropping_engine, transport)).maybe_applied


async def test_a_move_that_never_reached_the_engine_is_to_be_sent_again(
    transport: httpx.AsyncBaseTransport | None,
) -> None:
    e = await down(f"http://127.0.0.1:{free_port()}", transport)
    assert not e.maybe_applied
    assert (
        not_answering("en", maybe_applied=e.maybe_applied)
        == "The game server is not answering. Please try again."
    )


async def test_the_retries_end_within_the_deadline_a_press_can_be_answered_in(
    hanging_engine: str,
) -> None:
    """Each try alone would take the client's whole timeout: the retries together stop at
    the deadline, so the player hears of it while Telegram still takes the answer."""
    tries = 0

    async def move() -> object:
        nonlocal tries
        tries += 1
        return await engine.act("AbCdEf123456", 7, "d", version=3, action_id="tg:7:3:d")

    async with EngineClient(hanging_engine, "token", timeout=5) as engine:
        with pytest.raises(EngineDown) as raised:
            await call_engine(move, deadline=0.5)
    assert raised.value.maybe_applied
    assert tries == 1  # cut off in its first try, not three tries of the client's timeout
