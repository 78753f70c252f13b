"""Request bodies are strict and small.

Every body field has one JSON type: ``"1001"`` is not a user id, ``"4"`` or ``4.0`` not a
version, ``"yes"`` not ``true``; a wrong type is 400 and nothing is applied. A body over
``MAX_BODY_BYTES`` is 413 on every route, the move routes' fast path included, and the
service reads no more of it than that.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from harness.services import ENGINE_TOKEN
from services.engine.app import EngineAPI
from services.engine.client import EngineClient
from services.engine.layers import MAX_BODY_BYTES
from tests.helpers.engine_service import dealt

LOOSE = [
    ("user_id", "101"),
    ("version", "1"),
    ("version", 1.0),
    ("action", 5),
    ("action_id", 7),
]


@pytest.mark.parametrize(("field", "value"), LOOSE)
async def test_an_action_with_a_loosely_typed_field_is_400(
    engine: EngineClient, http: httpx.AsyncClient, field: str, value: Any
) -> None:
    gid = await dealt(engine, ["R5 R6 G7", "B1 B2 B3"])
    body = {"user_id": 101, "action": "p.R5", "version": 1, "action_id": "a", field: value}
    response = await http.post(f"/v1/games/{gid}/actions", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "bad_request"
    assert (await engine.game(gid)).version == 1


async def test_a_non_host_cannot_end_a_game_with_admin_yes(
    engine: EngineClient, http: httpx.AsyncClient
) -> None:
    gid = await dealt(engine, ["R5 R6 G7", "B1 B2 B3"])
    ended = await http.post(f"/v1/games/{gid}/end", json={"user_id": 102, "admin": "yes"})
    assert ended.status_code == 400
    assert (await engine.game(gid)).status == "playing"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/games", {"chat_id": -5, "user_id": "1001", "name": "A"}),
        ("/v1/games", {"chat_id": "-5", "user_id": 1001, "name": "A"}),
        ("/v1/games", {"chat_id": -5, "user_id": 1001, "name": "A", "turn_seconds": 30.0}),
        ("/v1/games", {"chat_id": -5, "user_id": 1, "name": "A", "rules": {"seven_o": 1}}),
    ],
)
async def test_a_lobby_request_with_a_loosely_typed_field_is_400(
    http: httpx.AsyncClient, path: str, body: dict[str, Any]
) -> None:
    response = await http.post(path, json=body)
    assert response.status_code == 400, response.text
    assert (await http.get("/v1/chats/-5/game")).status_code == 404  # nothing was created


@pytest.mark.parametrize(
    "path", ["/v1/games/abc/actions", "/v1/games", "/v1/games/abc/join", "/v1/test/games"]
)
async def test_a_body_over_the_limit_is_413(http: httpx.AsyncClient, path: str) -> None:
    body = b'{"pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    response = await http.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"] == "body_too_large"


def post_scope(path: str, *headers: tuple[bytes, bytes]) -> dict[str, Any]:
    """An ASGI scope of a JSON POST with the service token."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"authorization", f"Bearer {ENGINE_TOKEN}".encode()),
            (b"content-type", b"application/json"),
            *headers,
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }


@pytest.mark.parametrize("path", ["/v1/games/abc/actions", "/v1/games/abc/join"])
async def test_the_service_reads_no_more_than_the_limit(app: EngineAPI, path: str) -> None:
    """A body sent in pieces without a length (chunked): refused once the limit is
    passed, without reading the rest (the probe's 100 MB took 12.5 s and 400 MB)."""
    chunk, chunks = b"x" * 65_536, 1600  # 100 MB on offer
    taken = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal taken
        taken += 1
        return {"type": "http.request", "body": chunk, "more_body": taken < chunks}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(post_scope(path, (b"transfer-encoding", b"chunked")), receive, send)
    assert sent[0]["status"] == 413
    assert taken * len(chunk) <= MAX_BODY_BYTES + len(chunk)


async def test_a_declared_length_over_the_limit_is_413_before_reading(app: EngineAPI) -> None:
    taken = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal taken
        taken += 1
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    length = (b"content-length", str(MAX_BODY_BYTES + 1).encode())
    await app(post_scope("/v1/games", length), receive, send)
    assert sent[0]["status"] == 413 and taken == 0
