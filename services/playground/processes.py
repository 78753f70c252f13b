"""The real services for the bot's end-to-end tests and the Telegram load bench, each a
process in its own group (so a test can kill one the way a container dies): the engine
(uvicorn), the worker (Celery) and bot replicas (``python -m services.bot``) talking to the
local Telegram."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from services.engine import local_server
from services.engine.local_server import answers_ok, free_port, uvicorn_command, worker_command

ENGINE_TOKEN = "bot-e2e-token"

#: Short pauses so games run in seconds (the turn time's floor is 5 s).
ENGINE_ENV = {
    "UNO_AWAY_PAUSE_SECONDS": "0.2",
    "UNO_UNO_WINDOW_SECONDS": "2",
    "UNO_ENABLE_TEST_ENDPOINTS": "true",
    "UNO_DEV_MODE": "true",
}


@dataclass
class Process(local_server.ServiceProcess):
    """A service started and waited for until ``ready`` says so."""

    _ready: Callable[[], bool] = field(default=lambda: True, init=False)
    _log_offset: int = field(default=0, init=False)

    def log_since_start(self) -> str:
        """What this start of the process has logged (the log file spans every start)."""
        return self.log()[self._log_offset :]

    def start_ready(self, ready: Callable[[], bool], timeout: float = 60) -> None:
        self._ready = ready
        offset = self._log_offset = len(self.log())
        self.start()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if ready():
                return
            if not self.alive:
                break
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start; its log:\n{self.log()[offset:][-4000:]}")

    def start_again(self) -> None:
        """Start the same process again (same port, name and settings) after a kill."""
        self.start_ready(self._ready)


def records_url(log_dir: Path) -> str:
    """The records (SQL) of the services started in ``log_dir``: a SQLite file of their
    own, unless the caller names another; never the default ``./uno.db`` of the working
    directory, which is a developer's playground."""
    return f"sqlite:///{log_dir / 'records.db'}"


def start_engine(redis_url: str, log_dir: Path) -> Process:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = Process(
        "engine",
        uvicorn_command("services.engine.app:app", port, "--log-level", "warning"),
        local_server.service_env(redis_url, url, ENGINE_TOKEN, **ENGINE_ENV),
        log_dir / "engine.log",
    )
    proc.start_ready(answers_ok(f"{url}/healthz"))
    return proc


def start_worker(redis_url: str, engine_url: str, log_dir: Path, **extra: str) -> Process:
    env = local_server.service_env(
        redis_url,
        engine_url,
        ENGINE_TOKEN,
        UNO_WORKER_POLL_INTERVAL="0.05",
        UNO_TIMER_LEASE_SECONDS="3",
        **ENGINE_ENV,
        **{"UNO_DATABASE_URL": records_url(log_dir), **extra},
    )
    proc = Process(
        "worker",
        worker_command(f"bote2e-{time.monotonic_ns()}@%h"),
        env,
        log_dir / "worker.log",
    )
    proc.start_ready(lambda: " ready." in proc.log_since_start())
    return proc


def start_bot(
    name: str,
    redis_url: str,
    engine_url: str,
    bot_api_url: str,
    token: str,
    log_dir: Path,
    **extra: str,
) -> Process:
    port = int(extra.pop("UNO_BOT_HTTP_PORT", None) or free_port())
    env = local_server.service_env(
        redis_url,
        engine_url,
        ENGINE_TOKEN,
        UNO_TELEGRAM_TOKEN=token,
        UNO_BOT_API_URL=bot_api_url,
        UNO_BOT_HTTP_HOST="127.0.0.1",
        UNO_BOT_HTTP_PORT=str(port),
        UNO_BOT_REPLICA=name,
        UNO_BOT_CLAIM_IDLE_MS="1500",
        UNO_LOG_LEVEL="INFO",
        **{"UNO_DATABASE_URL": records_url(log_dir), **extra},
    )
    proc = Process(name, [sys.executable, "-m", "services.bot"], env, log_dir / f"{name}.log")
    proc.start_ready(answers_ok(f"http://127.0.0.1:{port}/readyz"))
    return proc
