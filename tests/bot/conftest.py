"""Fixtures for the bot's tests: the engine (in-process over ASGI for the unit tests of
rendering and memory; for the end-to-end tests the whole stack as real processes, from
the harness: harness/stack.py), the test Redis, and the local Telegram."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from redis.asyncio import Redis

from harness.stack import FAST_LIMITS, Stack, start_stack
from services.bot.memory import Memory
from services.config import Settings
from tests.helpers.bot_scenes import Group

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
    """Engine, worker and one bot replica for one test module, on the test Redis (emptied at
    the start); tests make their own users, groups and games. Not for the whole session: the
    worker would go on draining deadlines under other areas' tests. Telegram's limits are
    lifted (in the bot and the local Telegram) unless a test sets them."""
    control = local_telegram.control
    control.set_limits(False)
    # Group privacy off: a frozen Minions player talking is noticed (RULES.md §6).
    found = start_stack(
        TEST_REDIS_URL,
        tmp_path_factory.mktemp("bot-e2e"),
        telegram_url=local_telegram.url,
        bot_username=f"uno_e2e{next(_BOTS)}_bot",
        privacy_mode=False,
        bot_env=FAST_LIMITS,
    )
    found.start_bot("bot-a")
    yield found
    processes = [*found.bots, found.worker, found.engine]
    found.stop()
    control.set_limits(True)  # Telegram's own numbers again, for whoever comes next
    if os.environ.get("UNO_SHOW_BOT_LOGS"):
        for proc in processes:
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
