"""Faults that are not the caller's: a clear answer, and nothing lost or half-written.

- A 500 leaves the keep-alive connection usable, on the fast path and through FastAPI.
- Redis unreachable: 503 ``store_unavailable``, whose message says a write may have been
  applied (send the same action id again to find out).
- Redis slow to answer: ``/readyz`` answers 503 within its short ping timeout.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import httpx
import pytest
import redis
from pydantic import SecretStr

from harness.services import ENGINE_TOKEN, EngineProcess
from services.config import Settings
from services.engine.app import create_app
from services.engine.routes.health import READY_TIMEOUT_SECONDS
from tests.helpers.engine_service import dealt


def exchange(sock: socket.socket, request: bytes) -> tuple[int, bytes]:
    """Send one HTTP/1.1 request on an open connection; (status, body) of its answer."""
    sock.sendall(request)
    head = b""
    while b"\r\n\r\n" not in head:
        data = sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        head += data
    head, _, body = head.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    length = next(
        int(line.split(b":", 1)[1]) for line in lines if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        data = sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection mid-body")
        body += data
    return int(lines[0].split()[1]), body


def get(path: str) -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: e\r\nAuthorization: Bearer {ENGINE_TOKEN}\r\n\r\n".encode()
    )


async def test_a_500_leaves_the_connection_usable(
    server: EngineProcess, raw_redis: redis.Redis
) -> None:
    async with server.client() as engine:
        gid = await dealt(engine, ["R5 R6 G7", "B1 B2 B3"])
    raw_redis.set(f"uno:game:{gid}", b"7|not a record")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        for path in (
            f"/v1/games/{gid}/spectator",  # through FastAPI
            f"/v1/games/{gid}/view?user_id=101",  # the fast path
            f"/v1/games/{gid}",
        ):
            status, body = exchange(sock, get(path))
            assert status == 500 and b"corrupt_game" in body, path
        status, _ = exchange(sock, get("/healthz"))
        assert status == 200


@pytest.fixture
def unreachable_redis() -> str:
    """A Redis URL where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


#: How long the slow Redis below takes to answer a PING: longer than /readyz waits, shorter
#: than the Redis client's own socket timeout (5 s), so only the readiness check gives up.
SLOW_PING_SECONDS = 3.0


def commands(data: bytes) -> list[bytes]:
    """The command names of RESP arrays of bulk strings, as a client sends them."""
    lines, names, i = data.split(b"\r\n"), [], 0
    while i < len(lines):
        if lines[i].startswith(b"*"):
            names.append(lines[i + 2].upper())
            i += 1 + 2 * int(lines[i][1:])
        else:
            i += 1
    return names


@pytest.fixture
async def slow_redis() -> AsyncIterator[str]:
    """A Redis URL whose server answers every command at once but PING, which it answers
    after ``SLOW_PING_SECONDS``: up, but slow."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            for name in commands(data):
                if name == b"PING":
                    await asyncio.sleep(SLOW_PING_SECONDS)
                writer.write(b"+PONG\r\n" if name == b"PING" else b"+OK\r\n")
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    yield f"redis://127.0.0.1:{server.sockets[0].getsockname()[1]}/0"
    server.close()


async def test_an_unreachable_store_says_a_write_may_have_applied(unreachable_redis: str) -> None:
    app = create_app(Settings(redis_url=unreachable_redis, engine_token=SecretStr(ENGINE_TOKEN)))
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    auth = {"Authorization": f"Bearer {ENGINE_TOKEN}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://e", headers=auth) as http:
        body = {"user_id": 101, "action": "d", "version": 1, "action_id": "a1"}
        for response in (
            await http.post("/v1/games/abc/actions", json=body),  # the fast path
            await http.post("/v1/games/abc/join", json={"user_id": 101, "name": "A"}),
        ):
            assert response.status_code == 503
            answer = response.json()
            assert answer["error"] == "store_unavailable"
            assert "may have been applied" in answer["message"]
            assert "same action id" in answer["message"]


async def test_readyz_is_503_when_redis_is_slow(slow_redis: str) -> None:
    assert READY_TIMEOUT_SECONDS < SLOW_PING_SECONDS
    app = create_app(Settings(redis_url=slow_redis, engine_token=SecretStr(ENGINE_TOKEN)))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://e", timeout=30) as http:
        ready = await http.get("/readyz")
    assert ready.status_code == 503 and ready.json()["error"] == "store_unavailable"
