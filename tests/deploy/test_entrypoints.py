"""Each role of the image's entry point starts its service from environment variables
alone: the same scripts/entrypoint.sh, run as local processes against the test Redis."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from harness.processes import free_port
from services.engine.client import EngineClient
from tests.helpers.service_runner import (
    TOKEN,
    engine_env,
    entry_env,
    run_role,
    service,
    wait_ready,
)
from tests.helpers.waiting import wait_for


def test_the_engine_serves_on_the_port_and_with_the_token_it_is_given(
    redis_url: str, tmp_path: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with service("engine", engine_env(redis_url, port), tmp_path) as log:
        wait_ready("the engine", url, log)
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
        wait_ready("the engine", f"http://127.0.0.1:{port}", engine_log)
        wait_for(
            lambda: " ready." in worker_log.read_text(),
            60,
            "the worker to be ready",
            output=worker_log.read_text,
        )
        wait_for(
            lambda: run_role("worker-ping", env).returncode == 0,
            60,
            "the worker to answer its probe",
            output=worker_log.read_text,
        )

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

        wait_for(fired, 60, "the worker to count timer fires", output=worker_log.read_text)


# ------------------------------------------------------------------------------- set-webhook


class WebhookReceiver(ThreadingHTTPServer):
    """Where the local Telegram delivers the bot's updates: keeps each request's headers."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), WebhookHandler)
        self.deliveries: list[dict[str, str]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/telegram"


class WebhookHandler(BaseHTTPRequestHandler):
    server: WebhookReceiver

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.deliveries.append(dict(self.headers.items()))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    server = WebhookReceiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def telegram_bot(local_telegram: Any) -> dict[str, Any]:
    """A new bot on the local Telegram: ``token`` and ``user``."""
    made: dict[str, Any] = local_telegram.control.create_bot(
        username=f"uno_hook_{free_port()}_bot", first_name="UNO"
    )
    return made


def webhook_env(local_telegram: Any, token: str, **settings: str) -> dict[str, str]:
    return entry_env(
        UNO_TELEGRAM_TOKEN=token, UNO_BOT_API_URL=local_telegram.bot_api_url, **settings
    )


def webhook_info(local_telegram: Any, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{local_telegram.bot_api_url}{token}/getWebhookInfo").json()
    result: dict[str, Any] = answer["result"]
    return result


def webhook_url(local_telegram: Any, token: str) -> str:
    url: str = webhook_info(local_telegram, token)["url"]
    return url


def test_set_webhook_registers_the_url_and_telegram_sends_the_secret(
    local_telegram: Any, telegram_bot: dict[str, Any], receiver: WebhookReceiver
) -> None:
    token = telegram_bot["token"]
    env = webhook_env(
        local_telegram,
        token,
        UNO_BOT_WEBHOOK_URL=receiver.url,
        UNO_BOT_WEBHOOK_SECRET="s3cret_token-1",
    )
    result = run_role("set-webhook", env)
    assert result.returncode == 0, result.stderr
    assert webhook_url(local_telegram, token) == receiver.url
    assert "chat_member" in webhook_info(local_telegram, token)["allowed_updates"]

    user = local_telegram.control.create_user("Ana")
    local_telegram.control.start_bot(user["id"], token)
    wait_for(lambda: receiver.deliveries, 30, "an update delivered")
    header = {k.lower(): v for k, v in receiver.deliveries[0].items()}
    assert header["x-telegram-bot-api-secret-token"] == "s3cret_token-1"


def test_set_webhook_without_a_url_removes_it_so_the_bot_can_poll(
    local_telegram: Any, telegram_bot: dict[str, Any], receiver: WebhookReceiver
) -> None:
    token = telegram_bot["token"]
    hooked = webhook_env(
        local_telegram, token, UNO_BOT_WEBHOOK_URL=receiver.url, UNO_BOT_WEBHOOK_SECRET="abc"
    )
    assert run_role("set-webhook", hooked).returncode == 0
    result = run_role("set-webhook", webhook_env(local_telegram, token))
    assert result.returncode == 0, result.stderr
    assert webhook_url(local_telegram, token) == ""


@pytest.mark.parametrize(
    "settings",
    [
        {"UNO_BOT_WEBHOOK_URL": "https://uno.example.org/telegram"},
        {"UNO_BOT_WEBHOOK_URL": "https://uno.example.org/t", "UNO_BOT_WEBHOOK_SECRET": "a b"},
        {"UNO_BOT_WEBHOOK_URL": "uno.example.org", "UNO_BOT_WEBHOOK_SECRET": "abc"},
    ],
)
def test_set_webhook_refuses_a_webhook_telegram_would_not_secure(
    local_telegram: Any, telegram_bot: dict[str, Any], settings: dict[str, str]
) -> None:
    token = telegram_bot["token"]
    result = run_role("set-webhook", webhook_env(local_telegram, token, **settings))
    assert result.returncode == 2
    assert "UNO_BOT_WEBHOOK" in result.stderr
    assert local_telegram.control.calls(token=token) == []


def test_set_webhook_without_a_token_says_so(local_telegram: Any) -> None:
    env = webhook_env(local_telegram, "unused")
    del env["UNO_TELEGRAM_TOKEN"]
    result = run_role("set-webhook", env)
    assert result.returncode == 2
    assert "UNO_TELEGRAM_TOKEN" in result.stderr


# ----------------------------------------------------- roles whose services live elsewhere


def test_migrate_brings_an_empty_database_up_to_date_twice(fresh_database: str) -> None:
    env = entry_env(UNO_DATABASE_URL=fresh_database, UNO_LOG_FORMAT="json")
    first = run_role("migrate", env)
    assert first.returncode == 0, first.stderr
    again = run_role("migrate", env)
    assert again.returncode == 0, again.stderr


@pytest.mark.slow
def test_the_bot_starts_against_the_local_telegram_and_answers_its_probes(
    local_telegram: Any, redis_url: str, tmp_path: Path
) -> None:
    made = local_telegram.control.create_bot(username="uno_deploy_bot", first_name="UNO")
    port, http_port, metrics_port = free_port(), free_port(), free_port()
    env = engine_env(
        redis_url,
        port,
        UNO_TELEGRAM_TOKEN=made["token"],
        UNO_BOT_API_URL=local_telegram.bot_api_url,
        UNO_BOT_HTTP_HOST="127.0.0.1",
        UNO_BOT_HTTP_PORT=str(http_port),
        UNO_BOT_METRICS_PORT=str(metrics_port),
        UNO_DATABASE_URL=f"sqlite:///{tmp_path / 'records.db'}",  # not ./uno.db
    )
    bot_url = f"http://127.0.0.1:{http_port}"
    with (
        service("engine", env, tmp_path) as engine_log,
        service("bot", env, tmp_path) as bot_log,
    ):
        wait_ready("the engine", f"http://127.0.0.1:{port}", engine_log)
        wait_ready("the bot", bot_url, bot_log, timeout=60)
        assert httpx.get(f"{bot_url}/healthz").status_code == 200
        metrics = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics").text
        assert "uno_bot_updates_total" in metrics
