"""Fuzz the published OpenAPI with Schemathesis against a real uvicorn server: whatever a
client sends, the answer is a documented 4xx or success, never a 5xx, and its body matches
the schema."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest
import redis
import schemathesis
from hypothesis import HealthCheck, settings
from pydantic import SecretStr
from schemathesis.checks import positive_data_acceptance

from harness.services import ENGINE_TOKEN, EngineProcess
from services.config import Settings
from services.engine.app import create_app
from tests.helpers.engine_service import engine_server

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
# Hypothesis derives the fuzz test's examples from its source (derandomize): these names keep
# that source, and so the examples, what they were.
TOKEN = ENGINE_TOKEN
EngineServer = EngineProcess


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineProcess]:
    redis.Redis.from_url(TEST_REDIS_URL).flushdb()
    srv = engine_server(TEST_REDIS_URL, tmp_path_factory.mktemp("engine"))
    srv.serve()
    yield srv
    srv.stop()


# The same document the server publishes at /openapi.json (built here so that collection
# needs no running server).
_app = create_app(
    Settings(
        redis_url=TEST_REDIS_URL, engine_token=SecretStr(ENGINE_TOKEN), enable_test_endpoints=True
    )
)
schema = schemathesis.openapi.from_dict(_app.openapi())


def test_the_server_publishes_that_schema(api_server: EngineProcess) -> None:
    published = httpx.get(api_server.url + "/openapi.json").json()
    assert published == _app.openapi()


@schema.parametrize()
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_input_breaks_the_service(case: schemathesis.Case, api_server: EngineServer) -> None:
    # [decision] Schema-valid but meaningless input (an unknown variant, a card code that
    # names no card, a set-up that deals no hands) is a documented 422, so the check that
    # every schema-valid request succeeds does not apply; every other check does.
    case.call_and_validate(
        base_url=api_server.url,
        headers={"Authorization": f"Bearer {TOKEN}"},
        excluded_checks=[positive_data_acceptance],
    )
