"""Running an ASGI app as a local uvicorn subprocess, for the service tests and bench scripts:
a free TCP port on the loopback interface and the uvicorn command line that serves on it."""

from __future__ import annotations

import socket
import sys


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
