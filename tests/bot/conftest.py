"""Fixtures for the bot's tests: the engine (in-process over ASGI for the unit tests of
rendering and memory; real processes for the end-to-end tests in ``bot_processes.py``),
the test Redis, and the local Telegram."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from bot_processes import ENGINE_TOKEN, Process, start_bot, start_engine, start_worker
from pydantic import SecretStr
from redis.asyncio import Redis
from telegram_play import Players

from services.bot.memory import Memory
from services.config import Settings
from services.engine.app import create_app
from services.engine.client import EngineClient

TOKEN = "bot-tests-token"
#: A test plays faster than people: the flood limits would only slow it down. The tests of
#: the limits themselves set Telegram's numbers back.
FAST_LIMITS = {
    "UNO_BOT_GROUP_MESSAGES_PER_MINUTE": "6000",
    "UNO_BOT_PRIVATE_MESSAGES_PER_SECOND": "100",
    "UNO_BOT_MESSAGES_PER_SECOND": "1000",
}
TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def settings(redis_url: str) -> Settings:
    return Settings(
        redis_url=redis_url,
        engine_token=SecretStr(TOKEN),
        enable_test_endpoints=True,
        event_shards=2,
    )


@pytest.fixture
async def engine(settings: Settings) -> AsyncIterator[EngineClient]:
    """The real engine service's app, served in-process on the test Redis."""
    transport = httpx.ASGITransport(app=create_app(settings))
    async with EngineClient("http://engine", TOKEN, transport=transport) as client:
        yield client


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def memory(redis: Redis) -> Memory:
    return Memory(redis)


# -- end to end: the real services against the local Telegram ----------------------------------


@dataclass
class Stack:
    """Engine, worker and one bot replica, for the whole session, on the test Redis (which
    is emptied once, at the start); tests make their own users, groups and games."""

    redis_url: str
    engine: Process
    worker: Process
    bots: list[Process]
    token: str
    username: str
    bot_id: int
    telegram: Any
    log_dir: Path

    @property
    def engine_url(self) -> str:
        return self.engine.env["UNO_ENGINE_URL"]

    @property
    def control(self) -> Any:
        return self.telegram.control

    def start_bot(self, name: str, **extra: str) -> Process:
        """A bot replica; Telegram's limits are lifted (in the bot and the local Telegram)
        unless a test sets them, so games run at a test's pace."""
        extra = {**FAST_LIMITS, **extra}
        bot = start_bot(
            name, self.redis_url, self.engine_url, self.telegram.bot_api_url, self.token,
            self.log_dir, **extra,
        )  # fmt: skip
        self.bots.append(bot)
        return bot

    def engine_client(self) -> EngineClient:
        return EngineClient(self.engine_url, ENGINE_TOKEN)

    def players(self, chat_id: int) -> Players:
        return Players(self.control, self.token, chat_id, self.username, self.bot_id)


@pytest.fixture(scope="session")
def stack(local_telegram: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    import redis as sync_redis

    client = sync_redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    client.close()
    log_dir = tmp_path_factory.mktemp("bot-e2e")
    control = local_telegram.control
    control.set_limits(False)
    # Group privacy off: a frozen Minions player talking is noticed (RULES.md §6).
    made = control.create_bot(username="uno_e2e_bot", first_name="UNO", privacy_mode=False)
    engine = start_engine(TEST_REDIS_URL, log_dir)
    worker = start_worker(TEST_REDIS_URL, engine.env["UNO_ENGINE_URL"], log_dir)
    bot_user = made["user"]
    found = Stack(
        TEST_REDIS_URL, engine, worker, [], made["token"], bot_user["username"], bot_user["id"],
        local_telegram, log_dir,
    )  # fmt: skip
    found.start_bot("bot-a")
    yield found
    for proc in [*found.bots, worker, engine]:
        proc.stop()
    if os.environ.get("UNO_SHOW_BOT_LOGS"):
        for proc in [*found.bots, worker, engine]:
            print(f"==== {proc.name}\n{proc.log()[-20000:]}")
        for call in control.calls(token=found.token)[-60:]:
            print(
                call["time"],
                call["method"],
                call["ok"],
                call.get("chat_id"),
                call.get("description"),
            )


@dataclass
class Group:
    chat: dict[str, Any]
    people: list[dict[str, Any]]
    players: Players

    @property
    def id(self) -> int:
        return int(self.chat["id"])


@pytest.fixture
def make_group(stack: Stack) -> Callable[..., Group]:
    """A new supergroup with the bot and ``n`` people who all started the bot privately."""

    def make(n: int = 2, *, forum: bool = False, title: str = "Friday UNO") -> Group:
        control = stack.control
        people = [control.create_user(f"P{i}", username=None) for i in range(n)]
        chat = control.create_group(
            title, [p["id"] for p in people], admins=[people[0]["id"]], forum=forum,
            bots=[stack.token],
        )  # fmt: skip
        for person in people:
            control.start_bot(person["id"], stack.token)
        return Group(chat, people, stack.players(int(chat["id"])))

    return make
