"""Loopback ports for the playground stack: the wanted one, or the next free one after it."""

from __future__ import annotations

import errno
import socket

#: How many ports after the wanted one are tried before giving up.
PORT_SEARCH_SPAN = 100


def is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Could a server bind ``host:port`` now? (SO_REUSEADDR, as uvicorn and Redis bind.)"""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
        return True


def next_free_port(wanted: int, *, avoid: frozenset[int] = frozenset()) -> int:
    """``wanted`` when it is free, else the first free port after it (none in ``avoid``)."""
    for port in range(wanted, min(wanted + PORT_SEARCH_SPAN, 65536)):
        if port not in avoid and is_free(port):
            return port
    raise OSError(f"no free port in {wanted}..{wanted + PORT_SEARCH_SPAN - 1} on 127.0.0.1")
