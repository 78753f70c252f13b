"""The service token: no default and no empty token outside development mode.

README "The API": every route but the health checks needs ``UNO_ENGINE_TOKEN``. The
development token (``services.config.DEV_ENGINE_TOKEN``) is accepted only with
``UNO_DEV_MODE`` on (the tests, ``make play``, ``make test``); an empty token never. The
engine refuses to start without a real token, and so does every holder of the token (the
bot and the worker, through ``EngineClient.from_settings``).
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
import yaml
from pydantic import SecretStr

from harness.processes import REPO, free_port, service_env, spawn, stop, uvicorn_command
from services.config import DEV_ENGINE_TOKEN, InsecureToken, Settings
from services.engine.app import create_app
from services.engine.client import EngineClient


def test_the_development_token_is_refused_outside_development_mode(redis_url: str) -> None:
    assert Settings.model_fields["engine_token"].default.get_secret_value() == DEV_ENGINE_TOKEN
    assert Settings.model_fields["dev_mode"].default is False
    token = SecretStr(DEV_ENGINE_TOKEN)
    production = Settings(redis_url=redis_url, engine_token=token, dev_mode=False)
    with pytest.raises(InsecureToken, match="UNO_ENGINE_TOKEN"):
        create_app(production)
    with pytest.raises(InsecureToken):
        EngineClient.from_settings(production)
    development = production.model_copy(update={"dev_mode": True})
    create_app(development)  # allowed: a developer's machine


@pytest.mark.parametrize("dev_mode", [False, True])
def test_an_empty_token_is_always_refused(redis_url: str, dev_mode: bool) -> None:
    settings = Settings(redis_url=redis_url, engine_token=SecretStr(""), dev_mode=dev_mode)
    with pytest.raises(InsecureToken):
        create_app(settings)
    with pytest.raises(InsecureToken):
        EngineClient.from_settings(settings)


def test_the_engine_process_will_not_start_without_a_token(redis_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = service_env(redis_url, f"http://127.0.0.1:{port}", "")
    env.pop("UNO_ENGINE_TOKEN")
    env.pop("UNO_DEV_MODE", None)
    log = tmp_path / "engine.log"
    process = spawn(uvicorn_command("services.engine.app:app", port), env, log)
    try:
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            try:
                served = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            except httpx.HTTPError:
                time.sleep(0.1)
                continue
            pytest.fail(f"the engine served without a token ({served.status_code})")
        assert process.poll() not in (None, 0)
        assert "UNO_ENGINE_TOKEN" in log.read_text()
    finally:
        stop(process)


def test_deployments_never_fall_back_to_the_development_token() -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    for name, service in compose["services"].items():
        environment = service.get("environment") or {}
        assert "UNO_DEV_MODE" not in environment, name
        token = environment.get("UNO_ENGINE_TOKEN")
        if token is not None:
            assert DEV_ENGINE_TOKEN not in token and token.startswith("${UNO_ENGINE_TOKEN:?"), name
    for path in [REPO / "Dockerfile", *sorted((REPO / "k8s").glob("*.yaml"))]:
        text = path.read_text()
        assert "UNO_DEV_MODE" not in text and DEV_ENGINE_TOKEN not in text, path
