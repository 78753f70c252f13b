"""The service's routes, one router per concern (FastAPI's layout for bigger applications):
``health`` (no token), ``lobby``, ``play``, ``timers`` (the worker's) and ``testing``
(only with ``UNO_ENABLE_TEST_ENDPOINTS``). Each route reads, lets games.py decide, and
answers with responses.py; errors are answered by errors.py."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path

from services.engine.wire.schemas import ErrorBody

#: A game id, as the routes take it (the fast path matches the same, fast_path.py).
GAME_ID_PATTERN = r"[A-Za-z0-9_-]{1,32}"
GameId = Annotated[
    str, Path(pattern=f"^{GAME_ID_PATTERN}$", description="Game id", examples=["abcDEF123_-x"])
]


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route: 400, 401 and 413 (a body over the limit)
    always, then ``codes``."""
    return {code: {"model": ErrorBody} for code in (400, 401, 413, *codes)}
