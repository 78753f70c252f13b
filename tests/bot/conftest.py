"""Fixtures for the bot's tests: the engine (in-process over ASGI for the unit tests of
rendering and memory; real processes for the end-to-end tests in ``bot_processes.py``),
the test Redis, and the local Telegram."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from pydantic import SecretStr
from redis.asyncio import Redis

from services.bot.memory import Memory
from services.config import Settings
from services.engine.app import create_app
from services.engine.client import EngineClient

TOKEN = "bot-tests-token"


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
