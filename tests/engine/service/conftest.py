"""Fixtures for the engine service: the app in-process (ASGI; the shared ``app`` and
``engine`` fixtures of tests/conftest.py, with the settings below) and as a real uvicorn
server.

Both talk to the real Redis of the test DB (``UNO_TEST_REDIS_URL``, emptied before each
test by the shared ``redis_url`` fixture). HTTP tests that matter (concurrency, kill and
restart, the OpenAPI fuzz, connection reuse) run against ``EngineProcess``, a uvicorn
subprocess.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import redis
from pydantic import SecretStr

from harness.services import ENGINE_TOKEN, EngineProcess
from services.config import Settings
from services.engine.app import EngineAPI
from tests.helpers.engine_service import engine_server


@pytest.fixture
def settings(redis_url: str) -> Settings:
    """Settings of the in-process app (the shared ``app`` and ``engine`` fixtures,
    tests/conftest.py): the token ``EngineProcess`` uses too, and the timings that the tests
    of deadlines read back."""
    return Settings(
        redis_url=redis_url,
        engine_token=SecretStr(ENGINE_TOKEN),
        enable_test_endpoints=True,
        turn_seconds=60,
        uno_window_seconds=8,
        away_pause_seconds=2.0,
    )


@pytest.fixture
async def http(app: EngineAPI) -> AsyncIterator[httpx.AsyncClient]:
    """Plain HTTP to the same in-process app, with the token: for requests the typed client
    would never send. A fault is answered as the server answers it (no re-raise)."""
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    headers = {"Authorization": f"Bearer {ENGINE_TOKEN}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://e", headers=headers) as c:
        yield c


@pytest.fixture
def raw_redis(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def server(redis_url: str, tmp_path: Path) -> Iterator[EngineProcess]:
    srv = engine_server(redis_url, tmp_path)
    srv.serve()
    yield srv
    srv.stop()
