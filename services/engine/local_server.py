"""Local service processes for the service tests and bench scripts: a free TCP port on the
loopback interface, the uvicorn command line that serves on it, the environment the engine
and the worker get, and starting and stopping a process in its own process group."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_PR_SET_PDEATHSIG = 1


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


def die_with_parent() -> None:
    """In the child, before exec: get SIGTERM when the parent dies, even by SIGKILL, so no
    service outlives the command that started it (Linux only; elsewhere nothing happens)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def spawn(
    argv: list[str],
    env: Mapping[str, str],
    log_path: Path,
    *,
    preexec_fn: Callable[[], object] | None = None,
) -> subprocess.Popen[bytes]:
    """``argv`` from the repository's root, reading nothing, its output appended to
    ``log_path``, in its own process group, so a signal to the group (``stop``, ``kill``)
    reaches all of it and Ctrl-C in the terminal does not; ``preexec_fn`` (e.g.
    :func:`die_with_parent`) runs in the child before exec."""
    with log_path.open("ab") as log:
        return subprocess.Popen(
            argv,
            cwd=REPO,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=preexec_fn,
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
