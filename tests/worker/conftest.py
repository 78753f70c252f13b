"""Fixtures for the worker tests: the variants, and for the end-to-end tests a real engine
service (uvicorn) and real Celery workers, each in its own process (harness/services.py).

Set ``UNO_TEST_REDIS_URL`` to your own database; set ``UNO_SHOW_WORKER_LOGS=1`` to print the
workers' logs after each end-to-end test.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness.processes import ServiceProcess
from harness.services import start_engine, start_worker
from services.engine.rules import VARIANTS

#: Short pauses so the end-to-end tests run in seconds (the turn time's floor is 5 s).
ENGINE_TEST_ENV = {"UNO_AWAY_PAUSE_SECONDS": "0.3", "UNO_UNO_WINDOW_SECONDS": "1"}


@pytest.fixture(params=sorted(VARIANTS))
def variant_name(request: pytest.FixtureRequest) -> str:
    """Every registered variant."""
    name: str = request.param
    return name


@pytest.fixture
def engine_process(redis_url: str, tmp_path: Path) -> Iterator[ServiceProcess]:
    """A real engine service on the test Redis, with the test endpoints on."""
    proc = start_engine(redis_url, tmp_path, **ENGINE_TEST_ENV)
    yield proc
    proc.stop()


@pytest.fixture
def engine_url(engine_process: ServiceProcess) -> str:
    return str(engine_process.env["UNO_ENGINE_URL"])


@pytest.fixture
def worker_factory(
    redis_url: str, engine_url: str, tmp_path: Path
) -> Iterator[Callable[..., ServiceProcess]]:
    """Starts real Celery workers (``celery -A services.worker.app worker``) and stops them
    all at the end; call it again after a kill to restart."""
    started: list[ServiceProcess] = []

    def start(**extra_env: str) -> ServiceProcess:
        name = f"worker{len(started)}"
        proc = start_worker(redis_url, engine_url, tmp_path, name=name, **extra_env)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.stop()
    if os.environ.get("UNO_SHOW_WORKER_LOGS"):
        for proc in started:
            print(f"==== {proc.name}\n{proc.log()}")
