"""Fixtures for the bot's tests: the engine (in-process over ASGI for the unit tests of
rendering and memory; real processes for the end-to-end tests from
``services/playground/processes.py``), the test Redis, and the local Telegram."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from bot_stack import Group, Stack, records_url
from redis.asyncio import Redis

from services.bot.memory import Memory
from services.config import Settings
from services.playground.processes import start_engine, start_worker

_BOTS = itertools.count()
TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Settings of the in-process engine (the shared ``engine`` fixture, tests/conftest.py):
    two event-log shards, so the bot's log reader is tested across more than one."""
    return settings.model_copy(update={"event_shards": 2})


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def memory(redis: Redis) -> Memory:
    return Memory(redis)


# -- end to end: the real services against the local Telegram ----------------------------------


@pytest.fixture(scope="module")
def stack(local_telegram: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    import redis as sync_redis

    client = sync_redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    client.close()
    log_dir = tmp_path_factory.mktemp("bot-e2e")
    control = local_telegram.control
    control.set_limits(False)
    # Group privacy off: a frozen Minions player talking is noticed (RULES.md §6).
    made = control.create_bot(
        username=f"uno_e2e{next(_BOTS)}_bot", first_name="UNO", privacy_mode=False
    )
    engine = start_engine(TEST_REDIS_URL, log_dir)
    worker = start_worker(
        TEST_REDIS_URL, engine.env["UNO_ENGINE_URL"], log_dir, UNO_DATABASE_URL=records_url(log_dir)
    )
    bot_user = made["user"]
    found = Stack(
        TEST_REDIS_URL, engine, worker, [], made["token"], bot_user["username"], bot_user["id"],
        local_telegram, log_dir,
    )  # fmt: skip
    found.start_bot("bot-a")
    yield found
    for proc in [*found.bots, worker, engine]:
        proc.stop()
    control.set_limits(True)  # Telegram's own numbers again, for whoever comes next
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
