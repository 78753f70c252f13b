"""The worker process's way to the engine: one event loop thread holding one pooled engine
client, which the timer tasks' pool threads and the results recorder's thread hand their
requests to and wait on.

A client (and its loop) per task, per pool thread or per recorder costs a TLS context and a
fresh connection each time, which showed up as hundreds of milliseconds of timer lateness
when many timers fell due at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from services.config import Settings, get_settings
from services.engine.client import EngineClient

log = logging.getLogger(__name__)
_R = TypeVar("_R")

#: A request the engine has not answered in this long counts as "unavailable": a timer's
#: claim is kept and the deadline fired again when its lease runs out; a recorder's entry
#: stays pending and is read again.
ENGINE_TIMEOUT_SECONDS = 5.0
#: Concurrent requests one worker process makes to the engine (its pool has 16 threads).
ENGINE_CONNECTIONS = 64


class EngineLoop:
    """An event loop in its own thread, with an engine client built in it; ``call`` runs a
    coroutine there (``client``'s requests, say) from any other thread and waits for it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="uno-engine-loop", daemon=True
        )
        self._thread.start()
        self.client = self.call(self._open(settings))
        self.pid = os.getpid()

    @staticmethod
    async def _open(settings: Settings) -> EngineClient:
        # Built inside the loop that will use it.
        return EngineClient.from_settings(
            settings, timeout=ENGINE_TIMEOUT_SECONDS, max_connections=ENGINE_CONNECTIONS
        )

    def call(self, coroutine: Coroutine[Any, Any, _R]) -> _R:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def warm_up(self) -> None:
        """Open a first connection to the engine, so the first timer does not pay for it."""

        async def ping() -> None:
            if not await self.client.ready():
                log.warning("the engine is not reachable yet at %s", self.settings.engine_url)

        self.call(ping())

    def close(self) -> None:
        """Close the client and stop the loop, once nothing calls it any more. The worker
        never closes its process's loop: a pool thread may still be finishing a timer while
        the worker shuts down, and the process's exit ends the loop anyway."""
        self.call(self.client.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


_engine_loop: EngineLoop | None = None
_engine_loop_lock = threading.Lock()


def engine_loop() -> EngineLoop:
    """This process's engine loop (a forked pool child builds its own)."""
    global _engine_loop
    with _engine_loop_lock:
        if _engine_loop is None or _engine_loop.pid != os.getpid():
            _engine_loop = EngineLoop(get_settings())
        return _engine_loop
