"""A test table over the real engine's HTTP API: set up games, act as players, read what
happened (the event log, the deadline board, the worker's fire log)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import httpx
import redis

from harness.services import ENGINE_TOKEN
from services.engine.wire.deadline_keys import CLAIMED_KEY, DEADLINES_KEY
from services.worker.timers import FIRED_STREAM


@dataclass(frozen=True)
class Fired:
    member: str
    outcome: str
    lateness: float | None
    done: float


class Table:
    def __init__(self, engine_url: str, redis_url: str) -> None:
        self.http = httpx.Client(
            base_url=engine_url,
            headers={"Authorization": f"Bearer {ENGINE_TOKEN}"},
            timeout=10,
        )
        self.redis = redis.Redis.from_url(redis_url, decode_responses=True)
        self._chat = -1000

    def close(self) -> None:
        self.http.close()
        self.redis.close()

    def _ok(self, response: httpx.Response) -> dict[str, Any]:
        assert response.status_code < 300, (
            f"{response.request.url}: {response.status_code} {response.text}"
        )
        body: dict[str, Any] = response.json()
        return body

    def _next_chat(self) -> int:
        self._chat -= 1
        return self._chat

    # -- games -------------------------------------------------------------------------

    def lobby_game(self, humans: int = 2, ais: tuple[str, ...] = (), turn_seconds: int = 5) -> str:
        """A game dealt by the lobby: users 1..humans, then the AI seats; started."""
        info = self._ok(
            self.http.post(
                "/v1/games",
                json={
                    "chat_id": self._next_chat(),
                    "user_id": 1,
                    "name": "U1",
                    "turn_seconds": turn_seconds,
                },
            )
        )
        gid = str(info["game_id"])
        for user in range(2, humans + 1):
            self._ok(
                self.http.post(f"/v1/games/{gid}/join", json={"user_id": user, "name": f"U{user}"})
            )
        for level in ais:
            self._ok(self.http.post(f"/v1/games/{gid}/ai", json={"user_id": 1, "level": level}))
        self._ok(self.http.post(f"/v1/games/{gid}/start", json={"user_id": 1}))
        return gid

    def set_up_game(self, setup: dict[str, Any], users: int, turn_seconds: int = 5) -> str:
        """A game in play from an explicit table (the engine's test endpoint), users 1..n."""
        seats = [{"name": f"U{u}", "user_id": u} for u in range(1, users + 1)]
        body = {
            "chat_id": self._next_chat(),
            "seats": seats,
            "setup": setup,
            "turn_seconds": turn_seconds,
        }
        return str(self._ok(self.http.post("/v1/test/games", json=body))["game_id"])

    def info(self, gid: str) -> dict[str, Any]:
        return self._ok(self.http.get(f"/v1/games/{gid}"))

    def version(self, gid: str) -> int:
        return int(self.info(gid)["version"])

    def owing_seat(self, gid: str) -> int | None:
        view = self._ok(self.http.get(f"/v1/games/{gid}/spectator"))["view"]
        pending = view.get("pending") if view else None
        return None if pending is None else int(pending["player"])

    def view(self, gid: str, user: int) -> dict[str, Any]:
        return self._ok(self.http.get(f"/v1/games/{gid}/view", params={"user_id": user}))

    def act(self, gid: str, user: int, code: str | None = None) -> dict[str, Any]:
        """``user`` makes a move at the version they see (their first legal one by default,
        skipping a UNO call or a catch so the move settles the decision)."""
        seen = self.view(gid, user)
        legal = seen["view"]["legal"]
        if code is None:
            code = next((c for c in legal if c != "u" and not c.startswith("x.")), legal[0])
        return self.act_at(gid, user, code, int(seen["view"]["version"]))

    def act_at(self, gid: str, user: int, code: str, version: int) -> dict[str, Any]:
        body = {"user_id": user, "action": code, "version": version, "action_id": str(uuid.uuid4())}
        return self._ok(self.http.post(f"/v1/games/{gid}/actions", json=body))

    def back(self, gid: str, user: int) -> dict[str, Any]:
        return self._ok(self.http.post(f"/v1/games/{gid}/back", json={"user_id": user}))

    def events(self, gid: str) -> list[dict[str, Any]]:
        """Every event of the game in the event log (with its ``version``), as written."""
        page = self._ok(self.http.get(f"/v1/games/{gid}/events", params={"limit": 1000}))
        return [{**row["event"], "version": row["version"]} for row in page["events"]]

    # -- timers ------------------------------------------------------------------------

    def deadline(self, gid: str, kind: str = "turn") -> tuple[int, float] | None:
        """The pending deadline of this kind for the game: (version, due)."""
        for member, score in self.redis.zrange(DEADLINES_KEY, 0, -1, withscores=True):
            g, k, v = member.rsplit("|", 2)
            if g == gid and k == kind:
                return int(v), float(score)
        return None

    def claimed(self) -> list[str]:
        return list(self.redis.zrange(CLAIMED_KEY, 0, -1))

    def redis_now(self) -> float:
        seconds, micros = self.redis.time()
        return seconds + micros / 1_000_000

    def fired(self, member: str | None = None) -> list[Fired]:
        out = []
        for _, fields in self.redis.xrange(FIRED_STREAM):
            if member is None or fields["member"] == member:
                lateness = float(fields["lateness"]) if fields["lateness"] else None
                out.append(
                    Fired(fields["member"], fields["outcome"], lateness, float(fields["done"]))
                )
        return out
