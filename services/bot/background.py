"""What the modules of the redraw path share inside one bot process: the tasks they leave
running (a render waiting for the group's budget, a tidy waiting for a slot), and per game
a wake-up for whatever waits on a newer version of it.

A wake-up is only a hint: every waiter reads Redis again when it wakes or times out, so a
version seen by another replica (which cannot wake this one) is found at the next poll.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

#: Game statuses after which nothing may look live.
FINISHED = ("over", "ended")


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        #: per game, set when a newer version of it is seen
        self._moved: dict[str, asyncio.Event] = {}

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` in the background, keeping a reference until it ends."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def moved(self, game_id: str) -> None:
        """A newer version of ``game_id`` was seen: wake what waits for one here."""
        event = self._moved.pop(game_id, None)
        if event is not None:
            event.set()

    def watch(self, game_id: str) -> asyncio.Event:
        """The event the next newer version of ``game_id`` sets: taken before reading what
        to wait for, so a version seen meanwhile is not missed."""
        return self._moved.setdefault(game_id, asyncio.Event())

    @staticmethod
    async def wait(moved: asyncio.Event, timeout: float) -> None:
        """Wait until ``moved`` is set, or ``timeout`` passes."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(moved.wait(), timeout=timeout)
