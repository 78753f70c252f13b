"""Local service processes for the service tests and bench scripts: a free TCP port on the
loopback interface, the uvicorn command line that serves on it, the environment the engine
and the worker get, and starting and stopping a process in its own process group."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A loopback port nobody listens on right now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def uvicorn_command(app: str, port: int, *options: str) -> list[str]:
    """``python -m uvicorn APP`` on 127.0.0.1:PORT, with this interpreter and extra options."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *options,
    ]


def worker_command(node_name: str | None = None, *, loglevel: str = "INFO") -> list[str]:
    """``celery -A services.worker.app worker`` with this interpreter, quiet on the broker.

    Gossip, mingle and heartbeats are for worker fleets that watch each other; a local worker
    only needs its queue and its deadline drainer, and starts faster without them.
    """
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "services.worker.app",
        "worker",
        f"--loglevel={loglevel}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    if node_name is not None:
        argv += ["-n", node_name]
    return argv


def service_env(redis_url: str, engine_url: str, token: str, **extra: str) -> dict[str, str]:
    """The environment of a local engine or worker: this process's, without its own ``UNO_``
    settings, with ``redis_url`` for state and broker alike, development mode on
    (``UNO_DEV_MODE``: these are a developer's or a test's processes), then ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    env.update(
        UNO_REDIS_URL=redis_url,
        UNO_BROKER_URL=redis_url,
        UNO_ENGINE_URL=engine_url,
        UNO_ENGINE_TOKEN=token,
        UNO_DEV_MODE="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def spawn(argv: list[str], env: Mapping[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """``argv`` from the repository's root, its output appended to ``log_path``, in its own
    process group, so a signal to the group (``stop``, ``kill``) reaches all of it."""
    with log_path.open("ab") as log:
        return subprocess.Popen(
            argv,
            cwd=REPO,
            env=dict(env),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the whole process group: no shutdown handler runs."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def stop(process: subprocess.Popen[bytes], grace: float = 15) -> None:
    """SIGTERM the process group, then SIGKILL if it has not gone within ``grace`` seconds."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(grace)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        kill(process)
