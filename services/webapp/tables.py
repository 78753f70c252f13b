"""What each viewer of a game is shown, asked of the engine once per game and version.

A write wakes every connection watching its game at once (log_follower.py). Each one
asks here for its viewer's view at (at least) the version the log brought; the asks of
one game made in the same turn of the event loop go to the engine as one request for
all their people (``GET /v1/games/{id}/views``), which answers each person's own seat or,
for those without one, the spectator's view, computed once. The answer is kept per game
until a newer version comes, so a second tab of the same person, or a viewer reconnecting,
costs nothing more. The game's facts and each seat's view are kept once, as the engine's
JSON sent as it is, however many connections show them, and so are the words of each
seat's view in each language: a connection holds nothing of them but a reference.

[decision] Batching by event-loop turn rather than by a timer: the connections a write
wakes all run in the next turn, so they meet without any added wait.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from services.engine.client import EngineClient, EngineView, GameInfo
from services.presentation.screens.table import FINGERPRINT_DIGITS
from services.webapp.metrics import VIEW_REQUESTS
from services.webapp.words import view_words

log = logging.getLogger(__name__)

#: Engine requests of this replica's table views in flight at once. [decision] A few
#: dozen keep the engine busy; more only queue inside the HTTP client's pool, whose
#: bookkeeping grows with its queue (it was most of the replica's time under load).
ENGINE_SLOTS = 32
#: Games whose latest views a replica keeps when nobody watches them any more.
KEPT_UNWATCHED = 1024


@dataclass(slots=True)
class SeatView:
    """One seat's view at one version (the spectator's: seat ``None``), as the engine's
    JSON, and the table's words for it in each language asked so far: computed once for
    every viewer of that seat who reads that language."""

    json: bytes
    _words: dict[str, dict[str, Any]] = field(default_factory=dict)
    _fingerprint: str | None = None

    def fingerprint(self) -> str:
        """The short fingerprint of the round's commitment to its shuffle, as the chat's
        table shows it (RULES.md §2 "Checking a deal"); "" before a deal."""
        if self._fingerprint is None:
            view = orjson.loads(self.json)
            commitment = view.get("deal_commitment", "") if isinstance(view, dict) else ""
            self._fingerprint = str(commitment)[:FINGERPRINT_DIGITS]
        return self._fingerprint

    def words(self, locale: str, game: GameInfo) -> dict[str, Any]:
        said = self._words.get(locale)
        if said is None:
            view = EngineView.model_validate_json(self.json) if self.json != b"null" else None
            said = self._words[locale] = view_words(locale, game, view)
        return said


@dataclass(slots=True)
class Version:
    """What a replica keeps of a game at one version: its facts (JSON and parsed, for the
    words), when the decision owed at it times out (``turn_due``: unix seconds by this
    replica's clock; ``None``: nothing timed), each seat's view asked so far, and whose seat
    each asker has. One per game, so the viewers of a game share it whenever they asked."""

    number: int
    game_json: bytes
    game: GameInfo
    turn_due: float | None = None
    seats: dict[int | None, SeatView] = field(default_factory=dict)
    people: dict[int, int | None] = field(default_factory=dict)
    #: askers out of the game (kicked, gone from its chat): why, as the engine says
    removed: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Shown:
    """One person's view at one version (``removed``: they are out of the game, and why;
    their view is then the spectator's)."""

    at: Version
    seat: int | None
    removed: str | None = None

    @property
    def version(self) -> int:
        return self.at.number

    @property
    def game(self) -> orjson.Fragment:
        return orjson.Fragment(self.at.game_json)

    @property
    def view(self) -> orjson.Fragment:
        return orjson.Fragment(self.at.seats[self.seat].json)

    @property
    def commitment_fingerprint(self) -> str:
        return self.at.seats[self.seat].fingerprint()

    def words(self, locale: str) -> dict[str, Any]:
        """The words of the view alone (not of the moves): see ``words.view_words``."""
        return self.at.seats[self.seat].words(locale, self.at.game)


@dataclass(slots=True)
class _Batch:
    people: dict[int, list[asyncio.Future[Shown]]] = field(default_factory=dict)


class Tables:
    def __init__(self, engine: EngineClient, *, slots: int = ENGINE_SLOTS) -> None:
        self.engine = engine
        self.slots = asyncio.Semaphore(slots)
        self._latest: dict[str, Version] = {}
        self._batches: dict[str, _Batch] = {}

    async def shown(self, game_id: str, user_id: int, at_least: int | None = None) -> Shown:
        """``user_id``'s view of the game, at ``at_least`` or later (None: as the engine
        has it now). Raises the engine's errors (``NotFound``: the game is gone)."""
        if at_least is not None:
            kept = self._latest.get(game_id)
            if kept is not None and kept.number >= at_least and user_id in kept.people:
                return Shown(kept, kept.people[user_id], kept.removed.get(user_id))
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
        at = self._version_of(game_id, answer["game"], answer.get("turn_left"))
        for one in answer["views"]:
            seat = one["seat"]
            if seat not in at.seats:
                at.seats[seat] = SeatView(orjson.dumps(one["view"]))
            at.people[one["user_id"]] = seat
            removed = one.get("removed")
            if removed is not None:
                at.removed[one["user_id"]] = removed
            shown = Shown(at, seat, removed)
            for waiting in batch.people.get(one["user_id"], []):
                if not waiting.done():
                    waiting.set_result(shown)

    def _version_of(self, game_id: str, game: dict[str, Any], turn_left: float | None) -> Version:
        """The kept version the engine's answer is at, the one kept if it is the same (a
        second person opening the game costs no second copy), else a new one, kept if it is
        newer than what was kept (an answer that crossed a newer one is used, not kept).
        ``turn_left`` (the engine's seconds to the deadline as it answered) becomes a time
        on this replica's clock, which the page is told with each table."""
        number = int(game["version"])
        kept = self._latest.get(game_id)
        if kept is not None and kept.number == number:
            return kept
        due = None if turn_left is None else time.time() + float(turn_left)
        at = Version(number, orjson.dumps(game), GameInfo.model_validate(game), due)
        if kept is None or kept.number < number:
            if kept is None and len(self._latest) > KEPT_UNWATCHED + len(self._batches):
                self._latest.pop(next(iter(self._latest)))
            self._latest[game_id] = at
        return at


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a batch of table views failed", exc_info=task.exception())
