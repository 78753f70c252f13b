"""The one way the bot calls the engine: ``call_engine`` retries a call the engine did not
answer (unreachable, a 5xx) within a deadline a button press allows, and says whether the
request may have been applied (``EngineDown``). The handlers and the redraw path both go
through it (tests/bot/test_one_way_to_the_engine.py holds them to it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import httpx

from services.engine.client import Unavailable

log = logging.getLogger(__name__)

T = TypeVar("T")


class EngineDown(Exception):
    """The engine did not answer after the retries; the user is asked to try again.
    ``maybe_applied``: the request reached it (a 5xx, a timeout: its store hanging), so a
    write may have been applied all the same, and the table will show it if it was."""

    def __init__(self, *, maybe_applied: bool = False) -> None:
        super().__init__("the engine did not answer")
        self.maybe_applied = maybe_applied


#: How long a call and its retries may take in all. Telegram drops the answer to a button
#: press about 15 s after the press, so a player must hear "try again" well before that
#: (each try alone may take the engine client's whole timeout).
ENGINE_DEADLINE = 8.0


async def call_engine(
    call: Callable[[], Awaitable[T]], attempts: int = 3, deadline: float = ENGINE_DEADLINE
) -> T:
    """``call`` with retries when the engine is unreachable or answers 5xx, all within
    ``deadline`` seconds. A move is sent again with the same action id, so the engine
    applies it once however often it arrives."""
    reached = False
    try:
        async with asyncio.timeout(deadline):
            for attempt in range(attempts):
                try:
                    return await call()
                except (Unavailable, httpx.TransportError) as e:
                    log.warning("engine unavailable (%s), attempt %d", e, attempt + 1)
                    reached = reached or not isinstance(
                        e, httpx.ConnectError | httpx.ConnectTimeout
                    )
                    if attempt == attempts - 1:
                        raise EngineDown(maybe_applied=reached) from e
                    await asyncio.sleep(0.25 * 2**attempt)
    except TimeoutError as e:
        # Cut off mid-call: the request may have reached the engine.
        log.warning("engine did not answer within %.0fs", deadline)
        raise EngineDown(maybe_applied=True) from e
    raise AssertionError("unreachable")
