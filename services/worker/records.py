"""The results recorder: reads the engine's event log and writes what outlasts a game to SQL.

Every worker process runs one recorder thread (a worker bootstep, ``RecorderStep``). It
reads every shard of the event log (``uno:eventlog:{shard}``, services/engine/README.md
"Events") as the Redis consumer group ``records``, so the group remembers in Redis what
has been read and each entry goes to one of the workers. For an entry that matters
(services/records/writer.py: stand-ins, knock-outs, rounds, a game's end), it asks the
engine who sat where when the game has ended (``GET /v1/games/{id}``), records the entry in
one transaction, and only then acknowledges it (``XACK``).

**Nothing lost, nothing twice.** An entry not acknowledged (the worker died, the database
or the engine did not answer) stays pending in the group; after ``RECLAIM_IDLE_SECONDS``
any recorder claims it again (``XAUTOCLAIM``) and records it then. An entry recorded but
not acknowledged (a crash between the commit and the XACK) comes back too, and finds its
key in ``recorded_writes``: nothing changes. The group starts at the oldest entry the log
holds, so a new deployment records what is still there, once.

[decision] The recorder writes from its own thread rather than through a Celery task per
entry: the consumer group already delivers each entry at least once and brings back what a
dead worker held, and one sequential reader per process needs no second queue. Entries of
one game may still reach two workers; the writer's tallies and rows do not depend on order.

[decision] The event log keeps the last two minutes of writes (``UNO_EVENT_LOG_SECONDS``):
a game whose end was written while no recorder could record it for longer than that is
not recorded. The pending entries are retried every ``RECLAIM_IDLE_SECONDS`` well within it.

**Old archives purged.** At the same pruning, the archives of finished games (their
seeds and moves, for their export: docs/EXPORT.md) older than ``UNO_ARCHIVE_DAYS`` go.

**Old keys pruned.** Every ``PRUNE_EVERY_SECONDS`` (and when it starts) a recorder deletes
the keys of ``recorded_writes`` that can no longer stop a replay: recorded more than
``writer.KEEP_RECORDED_WRITES`` (seven days) ago *and* before the oldest entry any shard of
the log still holds (less ``CLOCK_MARGIN``), since a shard is trimmed only when it is
written to and an idle one keeps older entries. Several workers pruning at once is
harmless: each row is deleted once.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import redis
from celery import bootsteps
from sqlalchemy import Engine

from services.config import get_settings
from services.engine.client import Conflict, NotFound, log_keys, stream_entry_events
from services.records.prepare import prepare_database
from services.records.writer import (
    KEEP_RECORDED_WRITES,
    GameFacts,
    MalformedEntry,
    WriteOutcome,
    is_recorded,
    needs_facts,
    prune_archives,
    prune_recorded_writes,
    record_write,
)
from services.worker.engine_loop import EngineLoop, engine_loop

log = logging.getLogger(__name__)

GROUP = "records"
#: An entry delivered this long ago and still not acknowledged is claimed again.
RECLAIM_IDLE_SECONDS = 20.0
#: How often a recorder looks for entries left pending too long (one call per shard).
RECLAIM_EVERY_SECONDS = 5.0
#: Entries read in one call, over all shards.
READ_BATCH = 200
#: Longest a read waits for new entries (also how soon the recorder notices a stop).
BLOCK_SECONDS = 1.0
#: Pause after a failure (database or engine down) before reading on.
RETRY_PAUSE_SECONDS = 2.0
#: How often a recorder deletes the keys of writes too old to be replayed.
PRUNE_EVERY_SECONDS = 3600.0
#: Between the Redis server's clock (the log's entry ids) and the worker's (``recorded_at``).
CLOCK_MARGIN = timedelta(hours=1)

FactsSource = Callable[[str], GameFacts | None]


class EngineFacts:
    """Who sat where in a game, asked of the engine (``GET /v1/games/{id}``) through the
    worker's engine loop, from the recorder's thread: ``None`` when the engine no longer
    knows the game. Other failures raise (the entry is retried)."""

    def __init__(self, engine: EngineLoop) -> None:
        self._engine = engine

    def __call__(self, game_id: str) -> GameFacts | None:
        try:
            info = self._engine.call(self._engine.client.game(game_id))
        except NotFound:
            return None
        export = None
        if info.status in ("over", "ended"):
            try:
                export = self._engine.call(self._engine.client.export(game_id))
            except Conflict:  # no history to replay (a game made from a test set-up)
                log.info("game %s has no export to archive", game_id)
            except NotFound:
                pass  # expired between the two calls: kept without its archive
        return GameFacts.from_game_info(info, export)


class ResultsRecorder:
    """Reads the event log as one consumer of the group ``records`` and records entries."""

    def __init__(
        self,
        client: redis.Redis,
        database: Engine,
        facts: FactsSource,
        *,
        shards: int,
        consumer: str | None = None,
        reclaim_idle_seconds: float = RECLAIM_IDLE_SECONDS,
        keep_archives: timedelta = timedelta(days=365),
    ) -> None:
        self._keep_archives = keep_archives
        self._redis = client
        self._db = database
        self._facts = facts
        self._keys = log_keys(shards)
        self.consumer = consumer or f"{socket.gethostname()}:{os.getpid()}"
        self._reclaim_idle_ms = int(reclaim_idle_seconds * 1000)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the group ------------------------------------------------------------------------

    def join_group(self) -> None:
        """Create the group on every shard, from the oldest entry the log holds, unless it
        is there already."""
        for key in self._keys:
            try:
                self._redis.xgroup_create(key, GROUP, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def record_once(self, block_seconds: float | None = None, *, reclaim: bool = True) -> int:
        """Claim what other (or this) consumers left pending too long (unless ``reclaim``
        is false), read what is new, record both; returns how many entries were
        acknowledged."""
        done = 0
        for shard_key in self._keys if reclaim else ():
            _, claimed, *_ = self._redis.xautoclaim(
                shard_key, GROUP, self.consumer, self._reclaim_idle_ms, "0-0", count=READ_BATCH
            )
            done += self._record(shard_key, claimed)
        block = None if block_seconds is None else int(block_seconds * 1000)
        answer = cast(
            list[tuple[bytes | str, list[Any]]] | None,
            self._redis.xreadgroup(
                GROUP, self.consumer, dict.fromkeys(self._keys, ">"), count=READ_BATCH, block=block
            ),
        )
        for stream, entries in answer or []:
            name = stream.decode() if isinstance(stream, bytes) else stream
            done += self._record(name, entries)
        return done

    def _record(self, key: str, entries: Sequence[Any]) -> int:
        done = []
        for entry_id, fields in entries:
            if fields is None:  # trimmed from the log while pending: nothing left to read
                done.append(entry_id)
                continue
            if self._record_entry(entry_id, fields):
                done.append(entry_id)
        if done:
            self._redis.xack(key, GROUP, *done)
        return len(done)

    def _record_entry(self, entry_id: Any, fields: Mapping[bytes, bytes]) -> bool:
        """Record one entry; ``False`` leaves it pending, to be claimed again later."""
        try:
            game_id, version, public = stream_entry_events(fields)
        except (zlib.error, ValueError, KeyError):
            log.error("event log entry %r is unreadable; skipped", entry_id)
            return True
        events = [e for _, e in public]  # what is recorded is public: scores, results
        if not is_recorded(events):
            return True
        try:
            facts = self._facts(game_id) if needs_facts(events) else None
            outcome = record_write(self._db, game_id, version, events, facts)
        except MalformedEntry:
            log.exception("event log entry %r cannot be recorded; skipped", entry_id)
            return True
        except Exception:
            log.exception("game %s version %d not recorded yet; will retry", game_id, version)
            return False
        if outcome is WriteOutcome.RECORDED:
            log.info("game %s version %d recorded", game_id, version)
        return True

    # -- pruning --------------------------------------------------------------------------

    def oldest_entry(self) -> datetime | None:
        """When the oldest entry the log still holds was written (None: the log is empty)."""
        oldest: int | None = None
        for key in self._keys:
            first = cast(list[tuple[bytes, Any]], self._redis.xrange(key, "-", "+", count=1))
            if first:
                millis = int(first[0][0].split(b"-")[0])
                oldest = millis if oldest is None else min(oldest, millis)
        return None if oldest is None else datetime.fromtimestamp(oldest / 1000, UTC)

    def prune_cutoff(self, now: datetime) -> datetime:
        """Keys recorded before this can guard against no replay (module docstring)."""
        cutoff = now - KEEP_RECORDED_WRITES
        oldest = self.oldest_entry()
        if oldest is not None:
            cutoff = min(cutoff, oldest - CLOCK_MARGIN)
        return cutoff

    def prune_once(self, now: datetime | None = None) -> int:
        """Delete the keys of ``recorded_writes`` old enough to go; returns how many."""
        now = now or datetime.now(UTC)
        pruned = prune_recorded_writes(self._db, self.prune_cutoff(now))
        if pruned:
            log.info("pruned %d keys of recorded writes", pruned)
        purged = prune_archives(self._db, now - self._keep_archives)
        if purged:
            log.info("purged the archives of %d games older than %s", purged, self._keep_archives)
        return pruned

    # -- the thread -----------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="uno-records", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        """Whether the recorder's thread is still alive (say, after a stop that timed out)."""
        return self._thread is not None and self._thread.is_alive()

    def run(self) -> None:
        joined = False
        last_reclaim = 0.0
        last_prune: float | None = None
        while not self._stop.is_set():
            try:
                if not joined:
                    self.join_group()
                    joined = True
                if last_prune is None or time.monotonic() - last_prune >= PRUNE_EVERY_SECONDS:
                    # Marked first: a failing database is not asked again every second.
                    last_prune = time.monotonic()
                    self.prune_once()
                reclaim = time.monotonic() - last_reclaim >= RECLAIM_EVERY_SECONDS
                if reclaim:
                    last_reclaim = time.monotonic()
                self.record_once(BLOCK_SECONDS, reclaim=reclaim)
            except redis.ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    log.exception("the results recorder failed; reading on shortly")
                    self._stop.wait(RETRY_PAUSE_SECONDS)
                    continue
                # Redis lost the group (restarted without its data, or it was deleted):
                # join again from the oldest entry the log holds; the writer's keys make
                # whatever is read a second time count once.
                log.warning("the event log's consumer group %r is gone; joining again", GROUP)
                joined = False
            except Exception:
                log.exception("the results recorder failed; reading on shortly")
                self._stop.wait(RETRY_PAUSE_SECONDS)


class RecorderStep(bootsteps.StartStopStep):  # type: ignore[misc]
    """Runs the results recorder beside the consumer for as long as the worker runs."""

    requires = ("celery.worker.components:Pool",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.recorder: ResultsRecorder | None = None

    def start(self, parent: Any) -> None:
        settings = get_settings()
        if not settings.record_results:
            log.info("results are not recorded by this worker (UNO_RECORD_RESULTS=false)")
            return
        self.recorder = ResultsRecorder(
            redis.Redis.from_url(settings.redis_url),
            prepare_database(settings.database_url),
            EngineFacts(engine_loop()),
            shards=settings.event_shards,
            keep_archives=timedelta(days=settings.archive_days),
        )
        self.recorder.start()

    def stop(self, parent: Any) -> None:
        if self.recorder is not None:
            # The engine loop is the process's, shared with the timer tasks: it stays.
            self.recorder.stop()
            if self.recorder.running:
                log.warning("the results recorder is still busy; the process's exit ends it")
            self.recorder = None
