"""The product's services as local processes for the end-to-end tests and the benches: the
engine (uvicorn), the worker (Celery), bot replicas (``python -m services.bot``) and the
local Telegram (``python -m playground``), each in its own process group (so a test can
kill one the way a container dies), all on the harness's own engine token."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.processes import (
    ServiceProcess,
    answers_ok,
    free_port,
    service_env,
    uvicorn_command,
    worker_command,
)
from playground.control import TelegramControl
from services.engine.client import EngineClient
from services.http_limits import UVICORN_ARGS

#: The engine token of every service the harness starts (development mode accepts it).
ENGINE_TOKEN = "harness-engine-token"

#: Short pauses so scripted games run in seconds (the turn time's floor is 5 s).
QUICK_GAMES = {"UNO_AWAY_PAUSE_SECONDS": "0.2", "UNO_UNO_WINDOW_SECONDS": "2"}


def records_url(log_dir: Path) -> str:
    """The records (SQL) of the services started in ``log_dir``: a SQLite file of their
    own, unless the caller names another; never the default ``./uno.db`` of the working
    directory, which is a developer's playground."""
    return f"sqlite:///{log_dir / 'records.db'}"


@dataclass
class HTTPServiceProcess(ServiceProcess):
    """A service answering HTTP on 127.0.0.1:``port``."""

    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class EngineProcess(HTTPServiceProcess):
    """The engine service, ready once ``ready_path`` answers."""

    ready_path: str = "/healthz"

    def serve(self) -> None:
        """Start (again, after a kill: same port and settings) and wait until ready."""
        self.start_ready(answers_ok(self.url + self.ready_path))

    def client(self, **options: Any) -> EngineClient:
        return EngineClient(self.url, str(self.env["UNO_ENGINE_TOKEN"]), **options)


def engine_process(
    redis_url: str,
    log_dir: Path,
    *,
    port: int | None = None,
    ready_path: str = "/healthz",
    options: tuple[str, ...] = (),
    **extra: str,
) -> EngineProcess:
    """The engine with its test endpoints on (``extra`` settings last), not started yet
    (:meth:`EngineProcess.serve`); ``options`` go to uvicorn."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    return EngineProcess(
        "engine",
        uvicorn_command(
            "services.engine.app:app", port, *UVICORN_ARGS, *options, "--log-level", "warning"
        ),
        service_env(redis_url, url, ENGINE_TOKEN, UNO_ENABLE_TEST_ENDPOINTS="true", **extra),
        log_dir / f"engine-{port}.log",
        port=port,
        ready_path=ready_path,
    )


def start_engine(redis_url: str, log_dir: Path, **how: Any) -> EngineProcess:
    """:func:`engine_process`, started and ready."""
    proc = engine_process(redis_url, log_dir, **how)
    proc.serve()
    return proc


def start_worker(
    redis_url: str, engine_url: str, log_dir: Path, name: str = "worker", **extra: str
) -> ServiceProcess:
    """A Celery worker draining deadlines briskly, its records in ``log_dir``, once ready."""
    env = {
        "UNO_ENABLE_TEST_ENDPOINTS": "true",
        "UNO_WORKER_POLL_INTERVAL": "0.05",
        "UNO_TIMER_LEASE_SECONDS": "3",
        "UNO_DATABASE_URL": records_url(log_dir),
        **extra,
    }
    proc = ServiceProcess(
        name,
        worker_command(f"{name}-{os.getpid()}@%h"),
        service_env(redis_url, engine_url, ENGINE_TOKEN, **env),
        log_dir / f"{name}.log",
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
) -> ServiceProcess:
    """A bot replica polling ``bot_api_url`` (or taking a webhook, by ``extra``), once its
    ``/readyz`` answers; its ``/metrics`` on ``env["UNO_BOT_METRICS_PORT"]``."""
    port = int(extra.pop("UNO_BOT_HTTP_PORT", None) or free_port())
    extra.setdefault("UNO_BOT_METRICS_PORT", str(free_port()))
    env = service_env(
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
    proc = ServiceProcess(
        name, [sys.executable, "-m", "services.bot"], env, log_dir / f"{name}.log"
    )
    proc.start_ready(answers_ok(f"http://127.0.0.1:{port}/readyz"))
    return proc


#: How the local Telegram's process says it accepts connections, then its address.
LISTENING = "local telegram listening on "


@dataclass
class TelegramProcess(ServiceProcess):
    """The local Telegram as a process of its own: ``url``, ``bot_api_url``, ``control``."""

    url: str = ""
    _control: TelegramControl | None = field(default=None, init=False, repr=False)

    @property
    def bot_api_url(self) -> str:
        return self.url + "/bot"

    @property
    def control(self) -> TelegramControl:
        if self._control is None:
            self._control = TelegramControl(self.url)
        return self._control

    def stop(self) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        super().stop()


def start_local_telegram(log_dir: Path, *options: str) -> TelegramProcess:
    """``python -m playground`` on a free port (``options``: e.g. ``--no-limits``), once it
    says it listens."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.setdefault("UNO_LOG_LEVEL", "WARNING")
    argv = [sys.executable, "-m", "playground", "--port", "0", *options]
    proc = TelegramProcess("telegram", argv, env, log_dir / "telegram.log")
    proc.start_ready(lambda: LISTENING in proc.log_since_start())
    proc.url = proc.log_since_start().split(LISTENING, 1)[1].split()[0]
    return proc


@dataclass
class WebAppProcess(HTTPServiceProcess):
    """The Mini App service (``python -m services.webapp``), its ``/metrics`` at
    ``metrics_url``."""

    metrics_port: int = 0

    @property
    def metrics_url(self) -> str:
        return f"http://127.0.0.1:{self.metrics_port}/metrics"


def start_webapp(
    name: str,
    redis_url: str,
    engine_url: str,
    bot_api_url: str,
    token: str,
    log_dir: Path,
    **extra: str,
) -> WebAppProcess:
    """A Mini App replica checking launches against the bot ``token`` at ``bot_api_url``
    (its getChatMember), once its ``/readyz`` answers."""
    port, metrics_port = free_port(), free_port()
    env = service_env(
        redis_url,
        engine_url,
        ENGINE_TOKEN,
        UNO_TELEGRAM_TOKEN=token,
        UNO_BOT_API_URL=bot_api_url,
        UNO_WEBAPP_HTTP_HOST="127.0.0.1",
        UNO_WEBAPP_HTTP_PORT=str(port),
        UNO_WEBAPP_METRICS_PORT=str(metrics_port),
        **extra,
    )
    argv = [sys.executable, "-m", "services.webapp"]
    proc = WebAppProcess(
        name, argv, env, log_dir / f"{name}.log", port=port, metrics_port=metrics_port
    )
    proc.start_ready(answers_ok(f"{proc.url}/readyz"))
    return proc
