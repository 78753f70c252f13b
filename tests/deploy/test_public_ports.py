"""What the product's HTTP services answer on the ports the outside may reach, run as the
image runs them (scripts/entrypoint.sh's roles, production mode: no UNO_DEV_MODE): the
engine, the Mini App and the bot's HTTP side each refuse a request head over
``services.http_limits.MAX_HEAD_BYTES`` with 431 without reading the rest, and a body over
their limit with 413; none serves Prometheus's metrics or an API description there; the
metrics answer on each one's own metrics port."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from harness.processes import free_port
from services.http_limits import MAX_HEAD_BYTES, UVICORN_ARGS
from tests.helpers.service_runner import ENTRYPOINT, engine_env, service, wait_ready

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
#: A head as large as the one that was read whole before.
HUGE = 20 * 1024 * 1024


@dataclass
class Deployed:
    """Each service's public URL and its metrics port (0: it has none of its own)."""

    public: dict[str, str]
    metrics: dict[str, int]


@pytest.fixture(scope="module")
def deployed(local_telegram: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployed]:
    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    client.close()
    log_dir: Path = tmp_path_factory.mktemp("public-ports")
    made = local_telegram.control.create_bot(
        username=f"uno_ports_{free_port()}_bot", first_name="UNO"
    )
    engine_port, webapp_port, bot_port = free_port(), free_port(), free_port()
    webapp_metrics, bot_metrics = free_port(), free_port()
    env = engine_env(
        TEST_REDIS_URL,
        engine_port,
        UNO_TELEGRAM_TOKEN=made["token"],
        UNO_BOT_API_URL=local_telegram.bot_api_url,
        UNO_BOT_HTTP_HOST="127.0.0.1",
        UNO_BOT_HTTP_PORT=str(bot_port),
        UNO_BOT_METRICS_PORT=str(bot_metrics),
        UNO_WEBAPP_HTTP_HOST="127.0.0.1",
        UNO_WEBAPP_HTTP_PORT=str(webapp_port),
        UNO_WEBAPP_METRICS_PORT=str(webapp_metrics),
    )
    public = {
        "engine": f"http://127.0.0.1:{engine_port}",
        "webapp": f"http://127.0.0.1:{webapp_port}",
        "bot": f"http://127.0.0.1:{bot_port}",
    }
    with ExitStack() as running:
        for role in ("engine", "webapp", "bot"):
            log = running.enter_context(service(role, env, log_dir))
            wait_ready(f"the {role}", public[role], log, timeout=60)
        yield Deployed(public, {"engine": 0, "webapp": webapp_metrics, "bot": bot_metrics})


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def answer_of(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection."""
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


SERVICES = ("engine", "webapp", "bot")


def test_the_engine_runs_with_the_bound_the_harness_gives_it() -> None:
    """The image's engine and the tests' and benches' (harness/services.py) are one server."""
    words = " ".join(ENTRYPOINT.read_text().replace("\\\n", " ").split())
    assert " ".join(UVICORN_ARGS) in words


@pytest.mark.parametrize("name", SERVICES)
def test_a_head_over_the_bound_is_refused_431(deployed: Deployed, name: str) -> None:
    """A whole request whose headers pass the bound, in one piece: 431, in words."""
    with socket.create_connection(address(deployed.public[name]), timeout=30) as sock:
        padding = b"x" * (MAX_HEAD_BYTES + 1)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + padding + b"\r\n\r\n")
        answer = answer_of(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b'"error":"head_too_large"' in body


@pytest.mark.parametrize("name", SERVICES)
def test_a_huge_header_is_not_read_to_its_end(deployed: Deployed, name: str) -> None:
    """A 20 MB ``Authorization`` header sent in pieces: the service answers 431 and closes
    the connection long before the header ends (the sender sees the connection closed, or
    the answer, with most of the header unsent), and goes on serving."""
    sent = 0
    with socket.create_connection(address(deployed.public[name]), timeout=30) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: tma ")
        piece = b"a" * 65536
        try:
            while sent < HUGE:
                sock.sendall(piece)
                sent += len(piece)
            sock.sendall(b"\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = answer_of(sock)
    assert sent < HUGE, "the service read the whole header"
    assert answer == b"" or answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert httpx.get(f"{deployed.public[name]}/healthz").status_code == 200


@pytest.mark.parametrize("name", SERVICES)
def test_heads_within_the_bound_are_served_one_after_another_on_a_connection(
    deployed: Deployed, name: str
) -> None:
    """Eight requests of a 10 KB head each on one kept-alive connection, sent at once: all
    answered, though together they pass the bound many times."""
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"p" * 10_000 + b"\r\n\r\n"
    with socket.create_connection(address(deployed.public[name]), timeout=30) as sock:
        sock.sendall(request * 7 + request.replace(b"Host: x", b"Host: x\r\nConnection: close"))
        answer = answer_of(sock)
    assert answer.count(b"HTTP/1.1 200 OK") == 8, answer[:300]


@pytest.mark.parametrize(
    ("name", "path", "limit"),
    [
        ("webapp", "/v1/games/abcdefabcdef/moves", 16 * 1024),
        ("bot", "/telegram", 1024 * 1024),
    ],
)
def test_a_body_over_the_limit_is_refused_413(
    deployed: Deployed, name: str, path: str, limit: int
) -> None:
    """Declared too long, or sent in pieces (chunked) past the limit: 413, in words. (The
    engine's own limit has its tests in tests/engine/service.)"""
    url = deployed.public[name] + path
    declared = httpx.post(url, content=b"{" + b" " * limit + b"}")
    assert declared.status_code == 413
    assert declared.json()["error"] == "body_too_large"

    def pieces() -> Iterator[bytes]:
        for _ in range(limit // 4096 + 2):
            yield b" " * 4096

    chunked = httpx.post(url, content=pieces())
    assert chunked.status_code == 413
    assert chunked.json()["error"] == "body_too_large"


@pytest.mark.parametrize("name", SERVICES)
def test_no_metrics_and_no_api_description_on_the_public_port(
    deployed: Deployed, name: str
) -> None:
    base = deployed.public[name]
    for path in ("/openapi.json", "/docs", "/redoc"):
        assert httpx.get(base + path).status_code == 404, path
    if name != "engine":  # the engine's /metrics asks for the engine token (README)
        assert httpx.get(base + "/metrics").status_code == 404


@pytest.mark.parametrize(("name", "family"), [("webapp", "uno_webapp_"), ("bot", "uno_bot_")])
def test_the_metrics_answer_on_their_own_port(deployed: Deployed, name: str, family: str) -> None:
    answer = httpx.get(f"http://127.0.0.1:{deployed.metrics[name]}/metrics")
    assert answer.status_code == 200 and family in answer.text
