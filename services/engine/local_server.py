"""Local service processes for the service tests and bench scripts: a free TCP port on the
loopback interface, the uvicorn command line that serves on it, the environment the engine
and the worker get, and starting and stopping a process in its own process group
(``ServiceProcess``: the launcher's, the tests' and the benches' processes are each one)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx

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


def answers_ok(url: str) -> Callable[[], bool]:
    """A condition to wait for: a GET of ``url`` (a service's ``/readyz``, say) answers 200;
    a service not listening yet, or not ready, is simply not so yet."""

    def ok() -> bool:
        try:
            return httpx.get(url, timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    return ok


@dataclass
class ServiceProcess:
    """One local service subprocess in its own process group, its output in ``log_path``."""

    name: str
    argv: list[str]
    env: Mapping[str, str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    def start(self) -> None:
        self.process = spawn(self.argv, self.env, self.log_path, preexec_fn=self.preexec())

    def preexec(self) -> Callable[[], object] | None:
        """What runs in the child before exec (:func:`spawn`); nothing here."""
        return None

    @property
    def alive(self) -> bool:
        return self.exit_code is None and self.process is not None

    @property
    def exit_code(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown handler runs."""
        if self.process is not None:
            kill(self.process)
            self.process = None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it will not go."""
        if self.process is not None:
            stop(self.process)
            self.process = None
