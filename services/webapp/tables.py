"""What each viewer of a game is shown, asked of the engine once per game and version.

A write wakes every connection watching its game at once (log_follower.py). Each one
asks here for its viewer's view at (at least) the version the log brought; the asks of
one game made in the same turn of the event loop go to the engine as one request for
all their people (``GET /v1/games/{id}/views``), which answers each person's own seat or,
for those without one, the spectator's view, computed once. The answer is kept per
(game, person) until a newer version comes, so a second tab of the same person, or a
viewer reconnecting, costs nothing more. The game's facts and each view are serialised
once (``orjson.Fragment``) however many connections show them.

[decision] Batching by event-loop turn rather than by a timer: the connections a write
wakes all run in the next turn, so they meet without any added wait.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import orjson

from services.engine.client import EngineClient, EngineView, GameInfo
from services.webapp.metrics import VIEW_REQUESTS

log = logging.getLogger(__name__)

#: Engine requests of this replica's table views in flight at once. [decision] A few
#: dozen keep the engine busy; more only queue inside the HTTP client's pool, whose
#: bookkeeping grows with its queue (it was most of the replica's time under load).
ENGINE_SLOTS = 32
#: Games whose latest views a replica keeps when nobody watches them any more.
KEPT_UNWATCHED = 1024


@dataclass(frozen=True, slots=True)
class Shown:
    """One person's view at one version, serialised: ``game`` and ``view`` are JSON, sent
    as they are; ``info`` and ``seen`` are the same parsed once, for the table's words."""

    version: int
    seat: int | None
    game: orjson.Fragment
    view: orjson.Fragment
    info: GameInfo
    seen: EngineView | None


@dataclass(slots=True)
class _Batch:
    people: dict[int, list[asyncio.Future[Shown]]] = field(default_factory=dict)


class Tables:
    def __init__(self, engine: EngineClient, *, slots: int = ENGINE_SLOTS) -> None:
        self.engine = engine
        self.slots = asyncio.Semaphore(slots)
        self._latest: dict[str, dict[int, Shown]] = {}
        self._batches: dict[str, _Batch] = {}

    async def shown(self, game_id: str, user_id: int, at_least: int | None = None) -> Shown:
        """``user_id``'s view of the game, at ``at_least`` or later (None: as the engine
        has it now). Raises the engine's errors (``NotFound``: the game is gone)."""
        if at_least is not None:
            kept = self._latest.get(game_id, {}).get(user_id)
            if kept is not None and kept.version >= at_least:
                return kept
        batch = self._batches.get(game_id)
        if batch is None:
            batch = self._batches[game_id] = _Batch()
            asyncio.get_running_loop().call_soon(self._send, game_id)
        waiting: asyncio.Future[Shown] = asyncio.get_running_loop().create_future()
        batch.people.setdefault(user_id, []).append(waiting)
        return await waiting

    def forget(self, game_id: str) -> None:
        """Nobody on this replica watches the game any more: its views need not be kept."""
        self._latest.pop(game_id, None)

    def _send(self, game_id: str) -> None:
        batch = self._batches.pop(game_id)
        task = asyncio.create_task(self._fetch(game_id, batch))
        task.add_done_callback(_log_failure)

    async def _fetch(self, game_id: str, batch: _Batch) -> None:
        try:
            async with self.slots:
                VIEW_REQUESTS.inc()
                answer = await self.engine.views_json(game_id, list(batch.people))
        except BaseException as failed:
            for waiting in (w for ws in batch.people.values() for w in ws):
                if not waiting.done():
                    waiting.set_exception(failed)
            if not isinstance(failed, Exception):
                raise
            return
        game = answer["game"]
        version = int(game["version"])
        game_json = orjson.Fragment(orjson.dumps(game))
        info = GameInfo.model_validate(game)
        by_view: dict[int | None, tuple[orjson.Fragment, EngineView | None]] = {}
        latest = self._latest.setdefault(game_id, {})
        if len(self._latest) > KEPT_UNWATCHED + len(self._batches):
            self._latest.pop(next(iter(self._latest)))
        for one in answer["views"]:
            seat = one["seat"]
            both = by_view.get(seat)
            if both is None:
                raw = one["view"]
                both = by_view[seat] = (
                    orjson.Fragment(orjson.dumps(raw)),
                    None if raw is None else EngineView.model_validate(raw),
                )
            shown = Shown(version, seat, game_json, both[0], info, both[1])
            kept = latest.get(one["user_id"])
            if kept is None or kept.version <= version:
                latest[one["user_id"]] = shown
            for waiting in batch.people.get(one["user_id"], []):
                if not waiting.done():
                    waiting.set_result(shown)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a batch of table views failed", exc_info=task.exception())
