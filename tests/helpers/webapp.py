"""The Mini App's test stack: its processes, the people and group, and signed launches."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import services
from harness.rounds import play_a_round
from harness.services import ENGINE_TOKEN, EngineProcess, WebAppProcess
from playground.web_apps import sign
from services.engine.client import EngineClient, GameInfo, SeatSpec

#: The short name the Mini App is registered under (as with @BotFather's /newapp).
APP_NAME = "table"


@dataclass
class WebAppStack:
    redis_url: str
    engine: EngineProcess
    token: str
    bot: dict[str, Any]
    telegram: Any
    group: dict[str, Any]
    people: dict[str, dict[str, Any]]
    log_dir: Path
    replicas: list[WebAppProcess] = field(default_factory=list)

    @property
    def engine_url(self) -> str:
        return self.engine.url

    def url(self, replica: int = 0) -> str:
        return self.replicas[replica].url

    def open_app(self, name: str, game_id: str) -> dict[str, Any]:
        """``name`` opens the app from the group's direct link, as the local Telegram does
        it: ``{"url", "init_data", …}`` (the URL at the replica registered last)."""
        link = f"https://t.me/{self.bot['username']}/{APP_NAME}?startapp={game_id}"
        launch: dict[str, Any] = self.telegram.control.open_web_app(
            self.people[name]["id"], "direct_link", link=link, chat_id=self.group["id"]
        )
        return launch

    def launch(self, name: str, game_id: str) -> str:
        """The initData of ``name`` opening the app from the group's direct link."""
        return str(self.open_app(name, game_id)["init_data"])

    def signed(self, name: str, *, auth_date: float | None = None, token: str | None = None) -> str:
        """initData for ``name`` signed here (for dates and tokens Telegram would not give)."""
        person = self.people[name]
        fields = {
            "user": json.dumps({"id": person["id"], "first_name": person["first_name"]}),
            "auth_date": str(int(auth_date if auth_date is not None else time.time())),
        }
        return sign(token or self.token, fields)


@dataclass
class Deal:
    game: GameInfo
    stack: WebAppStack

    @property
    def game_id(self) -> str:
        return self.game.game_id


async def deal_classic(stack: WebAppStack, hands: list[str]) -> GameInfo:
    """A Classic game in play in the group between Ann (seat 0, to play) and Bob, dealt
    ``hands`` on a red 3; the group's earlier game, if any, ended first."""
    seats = [
        SeatSpec(name="Ann", user_id=stack.people["Ann"]["id"]),
        SeatSpec(name="Bob", user_id=stack.people["Bob"]["id"]),
    ]
    setup = {
        "hands": hands,
        "discard": "R3",
        "draw_pile": "Y1 Y3 Y4 Y5 Y6 Y7 B1 B2 B3 B4 B5 B6",
        "current": 0,
    }
    async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
        existing = await engine.chat_game(stack.group["id"])
        if existing is not None:
            await engine.end(existing.game_id, existing.host, admin=True)
        return await engine.create_test_game(stack.group["id"], seats, setup, turn_seconds=300)


def start_webapp(stack: WebAppStack, name: str, **extra: str) -> WebAppProcess:
    """A Mini App replica for the stack's bot, registered (as with @BotFather's /newapp)
    as its app ``APP_NAME`` at the replica's address."""
    proc = services.start_webapp(
        name,
        stack.redis_url,
        stack.engine_url,
        stack.telegram.bot_api_url,
        stack.token,
        stack.log_dir,
        **extra,
    )
    stack.telegram.control.register_web_app(stack.token, APP_NAME, f"{proc.url}/")
    return proc


async def finished_game(stack: WebAppStack, *, moves: int | None = None) -> GameInfo:
    """A Classic game of Ann and Bob in the stack's group, dealt by the service and played
    to one round's end, or ended after ``moves`` moves (``harness.rounds.play_a_round``)."""
    players = [(stack.people[n]["id"], n) for n in ("Ann", "Bob")]
    async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
        return await play_a_round(engine, stack.group["id"], players, moves=moves)


def act(stack: WebAppStack, game_id: str, name: str, code: str, version: int) -> int:
    """``name`` acts as a chat press would (straight to the engine): the new version. In a
    thread of its own: Playwright's sync API runs its own event loop in the test's."""

    async def send() -> int:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            user = stack.people[name]["id"]
            done = await engine.act(game_id, user, code, version=version, action_id=f"t:{code}")
            return done.version

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, send()).result()
