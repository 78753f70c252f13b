"""Fixtures for the Mini App service's tests: the real engine and Mini App processes, the
local Telegram (getChatMember, and the initData it signs), a group with two players, a
spectator and an outsider, and a Classic game dealt in it."""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.services import start_engine
from services.app_presence import PREFIX as LEASES_PREFIX
from services.webapp.flood import PREFIX as FLOOD_PREFIX
from tests.helpers.webapp import Deal, WebAppStack, deal_classic, start_webapp

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
_BOTS = itertools.count()


@pytest.fixture(scope="module")
def webapp_stack(
    local_telegram: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WebAppStack]:
    import redis as sync_redis

    client = sync_redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    client.close()
    log_dir: Path = tmp_path_factory.mktemp("webapp")
    control = local_telegram.control
    made = control.create_bot(f"uno_app{next(_BOTS)}_{os.getpid()}_bot", "UNO")
    people = {
        name: control.create_user(name, language_code="fa" if name == "Bob" else "en")
        for name in ("Ann", "Bob", "Sam", "Out")
    }
    group = control.create_group(
        "UNO night", [people[n]["id"] for n in ("Ann", "Bob", "Sam")], bots=[made["token"]]
    )
    engine = start_engine(TEST_REDIS_URL, log_dir)
    stack = WebAppStack(
        redis_url=TEST_REDIS_URL,
        engine=engine,
        token=made["token"],
        bot=made["user"],
        telegram=local_telegram,
        group=group,
        people=people,
        log_dir=log_dir,
    )
    stack.replicas.append(start_webapp(stack, "webapp-a"))
    yield stack
    for proc in [*stack.replicas, engine]:
        proc.stop()


@pytest.fixture
def deal(webapp_stack: WebAppStack) -> Deal:
    """A Classic game between Ann (seat 0, to play) and Bob (seat 1) in the group, each
    person's flood budget whole again and no stream's place still held (a killed replica's
    lapse in their own time): a test that floods must not slow the next one."""
    import redis as sync_redis

    client = sync_redis.Redis.from_url(webapp_stack.redis_url)
    for prefix in (FLOOD_PREFIX, LEASES_PREFIX):
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
    client.close()
    return Deal(
        asyncio.run(deal_classic(webapp_stack, ["R5 R6 B9 G1", "R7 G7 G8 Y2"])), webapp_stack
    )
