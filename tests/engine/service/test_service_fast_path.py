"""The fast path answers exactly as the FastAPI routes it stands in front of.

fast_path.py serves a player's view, the spectator's, several people's at once and an
action past FastAPI when the request is well formed. One table of good and bad requests
goes, in order, to the service as it runs and to the same service with every request
routed through FastAPI (``fast_path=False``), each on its own copy of one game: every
answer (status, body, ``Allow``) and every request counted by the metrics must be the same.
"""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import redis

from harness.services import ENGINE_TOKEN
from services.config import Settings
from services.engine.app import create_app
from services.engine.layers import MAX_BODY_BYTES
from tests.helpers.engine_service import DRAW_PILE

CHAT = -100_780
VIEW = "/v1/games/{gid}/view"
SPECTATOR = "/v1/games/{gid}/spectator"
VIEWS = "/v1/games/{gid}/views"
ACTIONS = "/v1/games/{gid}/actions"
JSON = {"Content-Type": "application/json"}
MOVE = {"user_id": 101, "action": "p.R5", "version": 1, "action_id": "m1"}

#: (method, path, query string, headers, body): sent in this order to both services.
REQUESTS: list[tuple[str, str, str, dict[str, str], bytes | None]] = [
    # -- a player's view
    ("GET", VIEW, "?user_id=101", {}, None),
    ("GET", VIEW, "?user_id=102", {}, None),
    ("GET", VIEW, "?user_id=999", {}, None),  # no seat: 403
    ("GET", VIEW, "", {}, None),
    ("GET", VIEW, "?user_id=0", {}, None),
    ("GET", VIEW, "?user_id=true", {}, None),
    ("GET", VIEW, f"?user_id={2**53 + 1}", {}, None),
    ("GET", VIEW, "?user_id=x", {}, None),
    ("GET", VIEW, "?user_id=101&user_id=102", {}, None),
    ("GET", VIEW, "?user_id=101", {"Authorization": "Bearer wrong"}, None),
    ("GET", "/v1/games/nosuchgame/view", "?user_id=101", {}, None),
    ("POST", VIEW, "?user_id=101", JSON, b"{}"),  # 405
    # -- the spectator's view
    ("GET", SPECTATOR, "", {}, None),
    ("GET", SPECTATOR, "?user_id=101", {}, None),
    ("GET", SPECTATOR, "", {"Authorization": "Bearer wrong"}, None),
    ("GET", "/v1/games/nosuchgame/spectator", "", {}, None),
    ("GET", "/v1/games/no such game/spectator", "", {}, None),
    ("POST", SPECTATOR, "", JSON, b"{}"),  # 405
    # -- several people's views
    ("GET", VIEWS, "?user_id=101", {}, None),
    ("GET", VIEWS, "?user_id=101&user_id=102&user_id=999&user_id=998", {}, None),
    ("GET", VIEWS, "?user_id=102&user_id=102", {}, None),
    ("GET", VIEWS, "?" + "&".join(f"user_id={100 + n}" for n in range(64)), {}, None),
    ("GET", VIEWS, "?" + "&".join(f"user_id={100 + n}" for n in range(65)), {}, None),
    ("GET", VIEWS, "", {}, None),
    ("GET", VIEWS, "?user_id=", {}, None),
    ("GET", VIEWS, "?user_id=101&", {}, None),
    ("GET", VIEWS, "?user_id=0&user_id=101", {}, None),
    ("GET", VIEWS, f"?user_id=101&user_id={2**53 + 1}", {}, None),
    ("GET", VIEWS, "?user_id=101&limit=2", {}, None),
    ("GET", VIEWS, "?user_id=101", {"Authorization": "Bearer wrong"}, None),
    ("GET", "/v1/games/nosuchgame/views", "?user_id=101", {}, None),
    ("POST", VIEWS, "?user_id=101", JSON, b"{}"),  # 405
    # -- an action: refused
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "user_id": 102, "action": "d"})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "user_id": 999})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "action": "p.G9"})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "action": "close"})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "version": 7})),
    ("POST", "/v1/games/nosuchgame/actions", "", JSON, orjson.dumps(MOVE)),
    # -- an action: malformed
    ("POST", ACTIONS, "", JSON, b"{"),
    ("POST", ACTIONS, "", JSON, b"[]"),
    ("POST", ACTIONS, "", JSON, b"null"),
    ("POST", ACTIONS, "", JSON, b""),
    ("POST", ACTIONS, "", JSON, b'{"user_id": 101}'),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "version": True})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "version": "1"})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "version": 1.0})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "user_id": "101"})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "extra": 1})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "action": "p R5"})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "action_id": "timer:x:turn:2"})),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "action_id": ""})),
    ("POST", ACTIONS, "", {"Content-Type": "text/plain"}, orjson.dumps(MOVE)),
    ("POST", ACTIONS, "", JSON, b'{"pad": "' + b"x" * MAX_BODY_BYTES + b'"}'),
    ("POST", ACTIONS, "", {"Authorization": "Bearer wrong", **JSON}, orjson.dumps(MOVE)),
    ("GET", ACTIONS, "", {}, None),  # 405
    # -- an action: applied, repeated, then stale
    ("POST", ACTIONS, "", JSON, orjson.dumps(MOVE)),
    ("POST", ACTIONS, "", JSON, orjson.dumps(MOVE)),
    ("POST", ACTIONS, "", {"Content-Type": "application/json; charset=utf-8"}, orjson.dumps(MOVE)),
    ("POST", ACTIONS, "", JSON, orjson.dumps({**MOVE, "action_id": "m2"})),
    (
        "POST",
        ACTIONS,
        "",
        JSON,
        orjson.dumps({**MOVE, "user_id": 102, "action": "d", "version": 2, "action_id": "b1"}),
    ),
    ("GET", VIEW, "?user_id=101", {}, None),
    ("GET", SPECTATOR, "", {}, None),
]


async def answers(settings: Settings, client: redis.Redis, *, fast_path: bool) -> list[Any]:
    """Every answer to ``REQUESTS`` (the game id replaced by ``{gid}``), then the requests
    the metrics counted."""
    client.flushdb()
    app = create_app(settings, fast_path=fast_path)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    auth = {"Authorization": f"Bearer {ENGINE_TOKEN}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://e", headers=auth) as http:
        created = await http.post(
            "/v1/test/games",
            json={
                "chat_id": CHAT,
                "seats": [{"name": "A", "user_id": 101}, {"name": "B", "user_id": 102}],
                "setup": {
                    "hands": ["R5 R6 G7", "B1 B2 B3"],
                    "discard": "R3",
                    "current": 0,
                    "draw_pile": DRAW_PILE,
                },
            },
        )
        gid = created.json()["game_id"]
        out: list[Any] = []
        for method, path, query, headers, body in REQUESTS:
            response = await http.request(
                method, path.format(gid=gid) + query, headers=headers, content=body
            )
            text = response.text.replace(gid, "{gid}")
            answer = orjson.loads(text)
            if isinstance(answer, dict) and isinstance(answer.get("turn_left"), float):
                answer["turn_left"] = "seconds"  # the clock runs between the two answers
            out.append((method, path, query, response.status_code, response.headers.get("allow"),
                        answer))  # fmt: skip
        metrics = (await http.get("/metrics")).text
    counted = sorted(
        line
        for line in metrics.splitlines()
        if line.startswith(("uno_engine_requests_total{", "uno_engine_actions", "uno_engine_stale"))
        and "_created" not in line  # when a counter was made, not what it counted
    )
    return [*out, counted]


async def test_the_fast_path_answers_as_fastapi_does(
    settings: Settings, raw_redis: redis.Redis
) -> None:
    fast = await answers(settings, raw_redis, fast_path=True)
    routed = await answers(settings, raw_redis, fast_path=False)
    for one, other in zip(fast, routed, strict=True):
        assert one == other
    statuses = {answer[3] for answer in fast[:-1]}
    assert statuses == {200, 400, 401, 403, 404, 405, 409, 413, 422}  # the table covers them
