"""Keeping the garbage collector's full passes short in a long-running service.

CPython's full collection (generation 2) walks every object it tracks. A service's heap is
mostly what its start-up made and will keep for good: the modules of python-telegram-bot,
pydantic, httpx and FastAPI, the app's routes and models -- some 140,000 objects in the bot.
Under load a full pass came every 15-20 s and stopped the process's one event loop for
50-120 ms each time (measured with ``gc.callbacks`` under ``bench/telegram_load.py``): every
move in flight then waited that long. ``gc.freeze()`` moves the objects alive at that
moment out of the collector's sight, so a later full pass walks only what the service made
since (3-11 ms in the bot in the same bench). It removed those pauses; it did not, on its
own, bring the bench's p99 out of its run-to-run spread (services/bot/README.md "Figures").
What is frozen is never freed by the cycle collector, which costs nothing here: it was
going to live as long as the process anyway. Reference counting still frees everything as
usual.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> None:
    """Call once the service has started (imports done, app built, before serving): collect
    what start-up left as garbage, then keep the rest out of every later full pass."""
    gc.collect()
    gc.freeze()


#: [decision] The Mini App's collector thresholds (CPython's defaults: 700, 10, 10). Each
#: open table stream keeps some 200 objects of the server's own alive (uvicorn's protocol,
#: the middlewares' and Starlette's coroutines and closures, its task group): at 2,500
#: streams a full pass walked some 490,000 objects and stopped the event loop for 340-535 ms
#: of CPU every ~20 s, the p99 of every move (bench/mini_app.py, 625 games x 4 viewers:
#: press -> every viewer p99 419-474 ms). A larger young generation lets a move's
#: short-lived objects die before they are promoted, and full passes come rarely (none in
#: the same 60 s window: p99 83 and 122 ms in two runs); a young pass then costs 30-165 ms,
#: what is left of the p99 (a smaller young generation is the next thing to measure).
STREAMING_THRESHOLDS = (50_000, 50, 50)


def collect_less_often(thresholds: tuple[int, int, int] = STREAMING_THRESHOLDS) -> None:
    """For a service whose heap is mostly long-lived connections: full passes rarely."""
    gc.set_threshold(*thresholds)
