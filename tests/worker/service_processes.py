"""Real service processes for the worker's end-to-end tests: the engine (uvicorn) and the
worker (``celery -A services.worker.app worker``), each in its own process group so a test
can kill one with SIGKILL, the way a container dies (``services/engine/local_server.py``
starts and stops them, for the benches too)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from waiting import wait_for

from services.engine import local_server
from services.engine.local_server import answers_ok, uvicorn_command, worker_command
from services.playground.processes import records_url

TEST_ENGINE_TOKEN = "worker-tests-token"


def service_env(redis_url: str, engine_url: str, **extra: str) -> dict[str, str]:
    """The environment both services get: the test Redis for state and broker alike."""
    extra = {"UNO_ENABLE_TEST_ENDPOINTS": "true", **extra}
    return local_server.service_env(redis_url, engine_url, TEST_ENGINE_TOKEN, **extra)


class ServiceProcess(local_server.ServiceProcess):
    """A service the tests may also freeze and thaw."""

    def pause(self) -> None:
        """SIGSTOP: the process stays, its sockets accept, nothing is answered."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGCONT)


def start_engine(redis_url: str, port: int, log_dir: Path, **extra_env: str) -> ServiceProcess:
    engine_url = f"http://127.0.0.1:{port}"
    proc = ServiceProcess(
        "engine",
        uvicorn_command("services.engine.app:app", port, "--log-level", "warning"),
        service_env(redis_url, engine_url, **extra_env),
        log_dir / f"engine-{port}.log",
    )
    proc.start()
    wait_for(
        answers_ok(f"{engine_url}/healthz"),
        30,
        "the engine to be healthy",
        alive=lambda: proc.alive,
        output=proc.log,
    )
    return proc


def start_worker(
    redis_url: str, engine_url: str, log_dir: Path, name: str = "worker", **extra_env: str
) -> ServiceProcess:
    env = {
        "UNO_WORKER_POLL_INTERVAL": "0.05",
        "UNO_TIMER_LEASE_SECONDS": "3",
        # The results recorder's records go beside the logs, not into the repository.
        "UNO_DATABASE_URL": records_url(log_dir),
        **extra_env,
    }
    proc = ServiceProcess(
        name,
        worker_command(f"{name}-{os.getpid()}@%h"),
        service_env(redis_url, engine_url, **env),
        log_dir / f"{name}.log",
    )
    offset = len(proc.log())
    proc.start()
    wait_for(
        lambda: " ready." in proc.log()[offset:],
        60,
        f"{name} to be ready",
        alive=lambda: proc.alive,
        output=proc.log,
    )
    return proc
