"""Helpers for the local Telegram's tests: a bot, two users and a group, and raw Bot API
calls that show Telegram's envelope as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from playground.control import TelegramControl
from playground.server import LocalTelegram

JOIN = {"inline_keyboard": [[{"text": "Join", "callback_data": "join"}]]}


@dataclass
class Scene:
    lt: LocalTelegram
    http: httpx.Client
    token: str
    bot: dict[str, Any]
    ann: dict[str, Any]
    bob: dict[str, Any]
    group: dict[str, Any]

    @property
    def control(self) -> TelegramControl:
        return self.lt.control

    def call(self, method: str, **params: Any) -> tuple[int, dict[str, Any]]:
        response = self.http.post(f"{self.lt.bot_api_url}{self.token}/{method}", json=params)
        body: dict[str, Any] = response.json()
        assert response.status_code == (200 if body["ok"] else body["error_code"])
        return response.status_code, body

    def ok(self, method: str, **params: Any) -> Any:
        _status, body = self.call(method, **params)
        assert body["ok"], body
        return body["result"]

    def refused(self, method: str, **params: Any) -> str:
        _status, body = self.call(method, **params)
        assert not body["ok"], body
        return str(body["description"])

    def updates(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self.ok("getUpdates", timeout=0)
        if result:
            self.ok("getUpdates", offset=result[-1]["update_id"] + 1, timeout=0)
        return result
