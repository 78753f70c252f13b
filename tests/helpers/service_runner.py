"""Run the image's entry point (scripts/entrypoint.sh) as local processes, configured by
environment variables alone, the way a container runs it: this virtualenv's bin first on
PATH stands for the image's /opt/venv/bin."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from harness import processes
from harness.processes import answers_ok
from harness.services import records_url
from tests.helpers.waiting import wait_for

REPO = Path(__file__).resolve().parents[2]
ENTRYPOINT = REPO / "scripts" / "entrypoint.sh"
TOKEN = "deploy-tests-engine-token"


def entry_env(**settings: str) -> dict[str, str]:
    """This process's environment without its UNO_ settings, then ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_", "UVICORN_"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"
    env.update(settings)
    return env


def run_role(
    role: str, env: Mapping[str, str], *args: str, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """A one-shot role (set-webhook, migrate, worker-ping) to its end."""
    return subprocess.run(
        ["sh", str(ENTRYPOINT), role, *args],
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def wait_ready(what: str, url: str, log: Path, timeout: float = 30) -> None:
    """Wait for the service at ``url`` to answer ``/readyz`` (``what``: "the engine", say);
    a failure shows the end of its ``log``."""
    wait_for(answers_ok(f"{url}/readyz"), timeout, f"{what} to be ready", output=log.read_text)


@contextmanager
def service(role: str, env: Mapping[str, str], log_dir: Path) -> Iterator[Path]:
    """A long-running role in its own process group, stopped (SIGTERM) on the way out;
    yields the path of its log. Its records (a worker's, a bot's) go beside the log unless
    ``env`` names a database: the default ``./uno.db`` would land in the checkout."""
    log = log_dir / f"{role}.log"
    env = {"UNO_DATABASE_URL": records_url(log_dir), **env}
    process = processes.spawn(["sh", str(ENTRYPOINT), role], env, log)
    try:
        yield log
    finally:
        processes.stop(process)


def engine_env(redis_url: str, port: int, **extra: str) -> dict[str, str]:
    return entry_env(
        UNO_REDIS_URL=redis_url,
        UNO_ENGINE_TOKEN=TOKEN,
        UNO_ENGINE_URL=f"http://127.0.0.1:{port}",
        UNO_LOG_FORMAT="json",
        UVICORN_HOST="127.0.0.1",
        UVICORN_PORT=str(port),
        **extra,
    )
