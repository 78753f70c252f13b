"""Waiting for what another process, thread or task does: a condition polled until it holds,
within a bound, and a failure that says what never happened (and the output that may say why).

The tests never assert on time; the bound only stops a wait that would otherwise hang, so
it is generous and the message, not the figure, is what a failure is about.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: How much of a process's output a failure shows: its end, where the reason usually is.
OUTPUT_TAIL = 4000


class _Wait:
    """One wait's bound and bookkeeping, shared by the thread and the event-loop versions."""

    def __init__(
        self,
        timeout: float,
        what: str,
        alive: Callable[[], bool] | None,
        output: Callable[[], str] | None,
    ) -> None:
        self.timeout = timeout
        self.what = what
        self.alive = alive
        self.output = output
        self.end = time.monotonic() + timeout

    def over(self, value: object) -> bool:
        """Whether ``value`` ends the wait; raises when nothing more is worth waiting for."""
        if value:
            return True
        # Asked before the bound is: a change that came during the last sleep still counts.
        if self.alive is not None and not self.alive():
            raise self.failure(f"gave up waiting for {self.what}: its process has exited")
        if time.monotonic() > self.end:
            raise self.failure(f"timed out after {self.timeout:g}s waiting for {self.what}")
        return False

    def failure(self, message: str) -> AssertionError:
        if self.output is not None:
            message += f"; its output ends:\n{self.output()[-OUTPUT_TAIL:]}"
        return AssertionError(message)


def wait_for(
    condition: Callable[[], T],
    timeout: float,
    what: str,
    *,
    poll: float = 0.05,
    alive: Callable[[], bool] | None = None,
    output: Callable[[], str] | None = None,
) -> T:
    """Poll ``condition`` every ``poll`` seconds until it returns something truthy, and return
    that. An AssertionError naming ``what`` once ``timeout`` seconds have passed, or as soon
    as ``alive`` says the process that was to bring it about has died; ``output`` (a process's
    log, say) is read only then, and its end added to the message."""
    wait = _Wait(timeout, what, alive, output)
    while not wait.over(value := condition()):
        time.sleep(poll)
    return value


async def async_wait_for(
    condition: Callable[[], T], timeout: float, what: str, *, poll: float = 0.05
) -> T:
    """``wait_for`` inside an event loop: it sleeps with ``asyncio.sleep``, so the loop's
    other tasks (the very ones that bring the condition about) run meanwhile."""
    wait = _Wait(timeout, what, alive=None, output=None)
    while not wait.over(value := condition()):
        await asyncio.sleep(poll)
    return value
