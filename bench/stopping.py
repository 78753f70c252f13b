"""A bench run stopped early, by Ctrl-C or by SIGTERM as ``timeout`` and CI runners send
it: the window being measured ends at the stop and is taken as it is, the run's stack is
stopped, and the bench prints what it measured and says that it was stopped (as
bench/ai_strength.py does). The stack's processes die with the bench anyway
(harness/processes.py); this is what makes a stopped run still worth its time."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

from harness.processes import stop_signals_interrupt

_T = TypeVar("_T")


class EarlyStop:
    """Ctrl-C or SIGTERM while a run's task plays (from :meth:`watch` on). While it
    measures (``measuring``: it waits with :meth:`wait`), the window ends there and is taken
    as it is; elsewhere (opening games, warming up) the run's task is cancelled. Its stack
    is stopped either way (the run's ``finally``), and the bench prints what it has. A
    second stop raises KeyboardInterrupt (harness.processes.stop_signals_interrupt): the
    process ends at once, its services with it."""

    def __init__(self) -> None:
        #: The signal that stopped the run ("SIGTERM"), once one has.
        self.by: str | None = None
        self.measuring = False
        self._asked: asyncio.Event | None = None
        self._task: asyncio.Task[Any] | None = None

    def watch(self) -> None:
        """From now on, in the running loop's task, a stop ends the run as above."""
        loop = asyncio.get_running_loop()
        self._asked, self._task = asyncio.Event(), asyncio.current_task()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self._stop, signum)

    def unwatch(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        stop_signals_interrupt()  # removing the handlers gave the signals Python's own back

    def _stop(self, signum: int) -> None:
        self.by = signal.Signals(signum).name
        self.unwatch()
        assert self._asked is not None and self._task is not None
        self._asked.set()
        if not self.measuring:
            self._task.cancel()

    async def wait(self, seconds: float) -> None:
        """Sleep ``seconds``, or until a stop."""
        if self._asked is None:
            await asyncio.sleep(seconds)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._asked.wait(), seconds)


#: The stop of this process's run (a bench runs one at a time).
STOP = EarlyStop()


async def watched(run: Coroutine[Any, Any, _T]) -> _T:
    """``run`` with :data:`STOP` watching it: the coroutine to hand ``asyncio.run``."""
    STOP.watch()
    try:
        return await run
    finally:
        STOP.unwatch()


@contextlib.contextmanager
def until_stopped() -> Iterator[None]:
    """The runs, until they end or a stop ends them: a stop before any window was measured
    (cancelling a run, or KeyboardInterrupt while a stack starts) ends them here too."""
    try:
        yield
    except (asyncio.CancelledError, KeyboardInterrupt) as stop:
        STOP.by = STOP.by or signal_of(stop)


def signal_of(stop: BaseException) -> str:
    """The signal a stop came by: the one :func:`stop_signals_interrupt` names, else
    Ctrl-C (Python's own KeyboardInterrupt)."""
    return str(stop) if str(stop).startswith("SIG") else "SIGINT"


@contextlib.contextmanager
def reported_stop() -> Iterator[None]:
    """The ``main`` of a bench that prints its figures as it measures them: a stop ends the
    run once its ``finally`` blocks have stopped what it started, and the bench says so."""
    stop_signals_interrupt()
    try:
        yield
    except KeyboardInterrupt as stop:
        print(
            f"\nstopped by {signal_of(stop)}: the figures above are what was measured before "
            "it; every process the bench started is stopped",
            flush=True,
        )
