"""Each role of the image's entry point starts its service from environment variables
alone: the same scripts/entrypoint.sh, run as local processes against the test Redis."""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
from service_runner import (
    TOKEN,
    engine_env,
    entry_env,
    readyz_answers,
    run_role,
    service,
    wait_for,
)

from services.engine.client import EngineClient
from services.engine.local_server import free_port


def test_the_engine_serves_on_the_port_and_with_the_token_it_is_given(
    redis_url: str, tmp_path: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with service("engine", engine_env(redis_url, port), tmp_path) as log:
        wait_for(readyz_answers(url), 30, "ready", log)
        assert httpx.get(f"{url}/metrics").status_code == 401
        answer = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status_code == 200
        assert "uno_engine_requests_total" in answer.text


@pytest.mark.slow
async def test_the_worker_starts_answers_its_probe_and_counts_timer_fires(
    redis_url: str, tmp_path: Path
) -> None:
    port, metrics_port = free_port(), free_port()
    env = engine_env(
        redis_url, port, WORKER_PING_TIMEOUT="2", UNO_WORKER_METRICS_PORT=str(metrics_port)
    )
    # Nobody answers yet: the probe fails, so it can tell a dead worker.
    assert run_role("worker-ping", env).returncode != 0
    with (
        service("engine", env, tmp_path) as engine_log,
        service("worker", env, tmp_path) as worker_log,
    ):
        wait_for(readyz_answers(f"http://127.0.0.1:{port}"), 30, "ready", engine_log)
        wait_for(lambda: " ready." in worker_log.read_text(), 60, "ready", worker_log)
        wait_for(lambda: run_role("worker-ping", env).returncode == 0, 60, "pingable", worker_log)

        # A game whose every turn is the worker's: an AI seat, and a player who never moves.
        async with EngineClient(f"http://127.0.0.1:{port}", TOKEN) as client:
            game = await client.create_game(-1004, 101, "Ana", turn_seconds=5)
            await client.add_ai(game.game_id, 101)
            await client.start(game.game_id, 101)

        def fired() -> bool:
            text = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=2).text
            return 'uno_worker_timer_fires_total{outcome="applied"}' in text and (
                "uno_worker_timer_lateness_seconds_count 0.0" not in text
            )

        wait_for(fired, 60, "counting timer fires", worker_log)


# ------------------------------------------------------------------------------- set-webhook


class FakeBotApi(ThreadingHTTPServer):
    """Records the Bot API methods called and answers each the way Telegram does."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), BotApiHandler)
        self.calls: list[tuple[str, dict[str, Any]]] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/bot"


class BotApiHandler(BaseHTTPRequestHandler):
    server: FakeBotApi

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        if self.headers.get("Content-Type", "").startswith("application/json"):
            params = json.loads(body or "{}")
        else:
            params = dict(parse_qsl(body))
        method = self.path.rsplit("/", 1)[-1]
        self.server.calls.append((method, params))
        result: Any = True
        if method == "getMe":
            result = {"id": 1, "is_bot": True, "first_name": "UNO", "username": "uno_test_bot"}
        payload = json.dumps({"ok": True, "result": result}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def bot_api() -> Iterator[FakeBotApi]:
    server = FakeBotApi()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def webhook_env(bot_api: FakeBotApi, **settings: str) -> dict[str, str]:
    return entry_env(UNO_TELEGRAM_TOKEN="123:abc", UNO_BOT_API_URL=bot_api.base_url, **settings)


def methods(bot_api: FakeBotApi) -> list[str]:
    return [method for method, _ in bot_api.calls if method != "getMe"]


def test_set_webhook_registers_the_url_with_its_secret(bot_api: FakeBotApi) -> None:
    env = webhook_env(
        bot_api,
        UNO_BOT_WEBHOOK_URL="https://uno.example.org/telegram",
        UNO_BOT_WEBHOOK_SECRET="s3cret_token-1",
    )
    result = run_role("set-webhook", env)
    assert result.returncode == 0, result.stderr
    assert methods(bot_api) == ["setWebhook"]
    params = bot_api.calls[-1][1]
    assert params["url"] == "https://uno.example.org/telegram"
    assert params["secret_token"] == "s3cret_token-1"
    assert str(params.get("drop_pending_updates", "false")).lower() == "false"
    allowed = params["allowed_updates"]
    assert "chat_member" in (json.loads(allowed) if isinstance(allowed, str) else allowed)


def test_set_webhook_without_a_url_removes_it_so_the_bot_can_poll(bot_api: FakeBotApi) -> None:
    result = run_role("set-webhook", webhook_env(bot_api))
    assert result.returncode == 0, result.stderr
    assert methods(bot_api) == ["deleteWebhook"]


@pytest.mark.parametrize(
    "settings",
    [
        {"UNO_BOT_WEBHOOK_URL": "https://uno.example.org/telegram"},
        {"UNO_BOT_WEBHOOK_URL": "https://uno.example.org/t", "UNO_BOT_WEBHOOK_SECRET": "a b"},
        {"UNO_BOT_WEBHOOK_URL": "uno.example.org", "UNO_BOT_WEBHOOK_SECRET": "abc"},
    ],
)
def test_set_webhook_refuses_a_webhook_telegram_would_not_secure(
    bot_api: FakeBotApi, settings: dict[str, str]
) -> None:
    result = run_role("set-webhook", webhook_env(bot_api, **settings))
    assert result.returncode == 2
    assert "UNO_BOT_WEBHOOK" in result.stderr
    assert methods(bot_api) == []


def test_set_webhook_without_a_token_says_so(bot_api: FakeBotApi) -> None:
    env = webhook_env(bot_api)
    del env["UNO_TELEGRAM_TOKEN"]
    result = run_role("set-webhook", env)
    assert result.returncode == 2
    assert "UNO_TELEGRAM_TOKEN" in result.stderr


# ----------------------------------------------------- roles whose services live elsewhere


def has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.skipif(
    not has_module("services.records.migrate"), reason="services.records.migrate not written yet"
)
def test_migrate_brings_an_empty_database_up_to_date_twice(fresh_database: str) -> None:
    env = entry_env(UNO_DATABASE_URL=fresh_database, UNO_LOG_FORMAT="json")
    first = run_role("migrate", env)
    assert first.returncode == 0, first.stderr
    again = run_role("migrate", env)
    assert again.returncode == 0, again.stderr


@pytest.mark.slow
@pytest.mark.skipif(
    not (has_module("services.bot.__main__") and has_module("services.playground")),
    reason="the bot and the local Telegram are not written yet",
)
def test_the_bot_starts_against_the_local_telegram_and_answers_its_probes(
    local_telegram: Any, redis_url: str, tmp_path: Path
) -> None:
    made = local_telegram.control.create_bot(username="uno_deploy_bot", first_name="UNO")
    port, http_port = free_port(), free_port()
    env = engine_env(
        redis_url,
        port,
        UNO_TELEGRAM_TOKEN=made["token"],
        UNO_BOT_API_URL=local_telegram.bot_api_url,
        UNO_BOT_HTTP_HOST="127.0.0.1",
        UNO_BOT_HTTP_PORT=str(http_port),
    )
    bot_url = f"http://127.0.0.1:{http_port}"
    with (
        service("engine", env, tmp_path) as engine_log,
        service("bot", env, tmp_path) as bot_log,
    ):
        wait_for(readyz_answers(f"http://127.0.0.1:{port}"), 30, "ready", engine_log)
        wait_for(readyz_answers(bot_url), 60, "ready", bot_log)
        assert httpx.get(f"{bot_url}/healthz").status_code == 200
        assert "uno_bot_updates_total" in httpx.get(f"{bot_url}/metrics").text
