"""Shared fixtures: where the test Redis and PostgreSQL live, the engine app served
in-process with a client of it, the local Telegram, and the browser the playground's and
the Mini App's page tests share.

`make test` starts both (scripts/ensure-services.sh). Point the tests elsewhere with
UNO_TEST_REDIS_URL and UNO_TEST_DATABASE_URL. Area-specific fixtures live in
tests/<area>/conftest.py.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playground.server import LocalTelegram
    from services.config import Settings
    from services.engine.app import EngineAPI
    from services.engine.client import EngineClient

# Development mode for everything the tests build from the environment (README
# "Configuration"); a test of production behaviour sets ``dev_mode=False`` itself.
os.environ.setdefault("UNO_DEV_MODE", "1")

#: The records file a developer's bot keeps by default (``UNO_DATABASE_URL``); no test may
#: write it: each gives its services a database of its own.
WORKING_TREE_RECORDS = Path(__file__).resolve().parents[1] / "uno.db"

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
TEST_DATABASE_URL = os.environ.get(
    "UNO_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/uno_test"
)


@pytest.fixture(scope="session", autouse=True)
def no_records_in_the_working_tree() -> Iterator[None]:
    """Fails the run when a test left ``./uno.db`` in the checkout (a bot or worker built
    with the default database URL), unless one was there before."""
    there_before = WORKING_TREE_RECORDS.exists()
    yield
    if not there_before and WORKING_TREE_RECORDS.exists():
        pytest.fail(f"a test wrote {WORKING_TREE_RECORDS}: give its services a database of its own")


@pytest.fixture
def redis_url() -> Iterator[str]:
    """URL of a test Redis database, emptied (FLUSHDB) before the test."""
    import redis

    client = redis.Redis.from_url(TEST_REDIS_URL)
    try:
        client.flushdb()
    except redis.ConnectionError as exc:
        pytest.fail(f"test Redis at {TEST_REDIS_URL} is unreachable ({exc}); run `make services`")
    finally:
        client.close()
    yield TEST_REDIS_URL


@pytest.fixture(scope="session")
def database_url() -> str:
    """SQLAlchemy URL of the test PostgreSQL database (checked to accept connections)."""
    import psycopg

    if TEST_DATABASE_URL.startswith("postgresql"):
        plain_url = TEST_DATABASE_URL.replace("postgresql+psycopg://", "postgresql://", 1)
        try:
            psycopg.connect(plain_url, connect_timeout=5).close()
        except psycopg.OperationalError as exc:
            pytest.fail(
                f"test PostgreSQL at {plain_url} is unreachable ({exc}); run `make services`"
            )
    return TEST_DATABASE_URL


@pytest.fixture
def settings(redis_url: str) -> Settings:
    """The settings of the in-process engine app: the test Redis, a token of the tests' own,
    the test endpoints on. An area's conftest overrides it to tune timings or shards."""
    from pydantic import SecretStr

    from services.config import Settings

    return Settings(
        redis_url=redis_url,
        engine_token=SecretStr("engine-tests-token"),
        enable_test_endpoints=True,
    )


@pytest.fixture
def app(settings: Settings) -> EngineAPI:
    """The real engine service's app, built from ``settings``, served by no server."""
    from services.engine.app import create_app

    return create_app(settings)


@pytest.fixture
async def engine(app: EngineAPI, settings: Settings) -> AsyncIterator[EngineClient]:
    """A client of ``app`` served in-process over ASGI: the service's own code path minus
    the socket, so fast enough for every test that only needs the engine to answer."""
    import httpx

    from services.engine.client import EngineClient

    token = settings.engine_token.get_secret_value()
    transport = httpx.ASGITransport(app=app)
    async with EngineClient("http://engine", token, transport=transport) as client:
        yield client


@pytest.fixture(scope="session")
def local_telegram() -> Iterator[LocalTelegram]:
    """The local Telegram (playground), served in this process on a free port for the
    whole session: ``.url``, ``.bot_api_url`` (python-telegram-bot's ``base_url``) and
    ``.control`` (a ``TelegramControl``). Ids are unique per run, so a test that creates its
    own users, groups and bots needs no reset."""
    from playground.server import start_in_thread

    server = start_in_thread()
    yield server
    server.stop()


CHROMIUM = os.environ.get("UNO_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (``make browser`` installs it)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: run `make browser` (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()
