"""The results recorder against a real engine service, a real Redis event log and a real
(SQLite) records database: a game's end is recorded once, whoever reads the log, however
often it is read, and whatever dies in between. The writer's own tests (both databases)
are in tests/records."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from pydantic import SecretStr
from sqlalchemy import Engine, insert, select

from harness.processes import ServiceProcess
from harness.services import ENGINE_TOKEN
from services.config import Settings
from services.engine.client import log_keys
from services.engine.game_export import replay
from services.records import queries
from services.records.database import make_engine
from services.records.migrate import upgrade
from services.records.models import (
    AI_USER_IDS,
    GAMES,
    PLAYERS,
    RATINGS,
    RECORDED_WRITES,
    STANDINGS,
)
from services.worker.engine_loop import EngineLoop
from services.worker.records import GROUP, EngineFacts, ResultsRecorder
from tests.helpers.records_db import empty_tables
from tests.helpers.timer_table import Table
from tests.helpers.waiting import wait_for

SHARDS = 16
WINNING_TABLE = {
    "hands": ["R5", "B1 B2 B3", "G1 G2 Y7"],
    "discard": "R3",
    "current": 0,
    "draw_pile": "G3 G4 G5 G6 G7 G8 G9",
    "options": {"target_score": 1},
}
SEATS = [
    {"name": "U1", "user_id": 1},
    {"name": "U2", "user_id": 2},
    {"name": "AI", "ai": "strong"},
]


@pytest.fixture
def table(engine_url: str, redis_url: str) -> Iterator[Table]:
    t = Table(engine_url, redis_url)
    yield t
    t.close()


@pytest.fixture
def records_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'records.db'}"
    upgrade(url)
    return url


@pytest.fixture
def records_db(records_url: str) -> Iterator[Engine]:
    engine = make_engine(records_url)
    yield engine
    engine.dispose()


@pytest.fixture
def facts(engine_url: str, redis_url: str) -> Iterator[EngineFacts]:
    settings = Settings(
        engine_url=engine_url, engine_token=SecretStr(ENGINE_TOKEN), redis_url=redis_url
    )
    engine = EngineLoop(settings)
    yield EngineFacts(engine)
    engine.close()


@pytest.fixture
def raw_redis(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


def recorder(
    raw_redis: redis.Redis, db: Engine, facts: Callable[[str], Any], name: str, **kw: Any
) -> ResultsRecorder:
    r = ResultsRecorder(raw_redis, db, facts, shards=SHARDS, consumer=name, **kw)
    r.join_group()
    return r


def won_game(table: Table) -> str:
    """A three-seat game (two people and a strong AI) that user 1 wins with one card."""
    body = {"chat_id": -4242, "seats": SEATS, "setup": WINNING_TABLE}
    gid = str(table._ok(table.http.post("/v1/test/games", json=body))["game_id"])
    table.act_at(gid, 1, "p.R5", table.version(gid))
    assert table.info(gid)["status"] == "over"
    return gid


def rows(db: Engine) -> dict[str, list[Any]]:
    with db.connect() as connection:
        return {
            t.name: sorted(
                tuple(r)
                for r in connection.execute(select(*[c for c in t.c if not c.name.endswith("_at")]))
            )
            for t in (GAMES, PLAYERS, RATINGS, STANDINGS)
        }


def pending(raw_redis: redis.Redis) -> int:
    return sum(int(raw_redis.xpending(key, GROUP)["pending"]) for key in log_keys(SHARDS))


def test_a_won_game_is_recorded_with_its_players_and_ratings(
    table: Table, raw_redis: redis.Redis, records_db: Engine, facts: EngineFacts
) -> None:
    gid = won_game(table)
    reader = recorder(raw_redis, records_db, facts, "r1")

    reader.record_once(0.1)

    with records_db.connect() as connection:
        game = connection.execute(select(GAMES)).one()
        seats = connection.execute(select(PLAYERS).order_by(PLAYERS.c.seat)).all()
    assert (game.id, game.status, game.chat_id, game.winner_seat) == (gid, "over", -4242, 0)
    strong = AI_USER_IDS["strong"]
    assert [(s.user_id, s.ai, s.place, s.won) for s in seats] == [
        (1, None, 1, True),
        (2, None, 2, False),
        (strong, "strong", 2, False),
    ]
    board = queries.leaderboard(records_db, "classic", chat_id=-4242)
    assert board[0].user_id == 1 and {e.user_id for e in board} == {1, 2, strong}
    assert pending(raw_redis) == 0


def test_a_replayed_event_log_counts_nothing_twice(
    table: Table, raw_redis: redis.Redis, records_db: Engine, facts: EngineFacts
) -> None:
    won_game(table)
    recorder(raw_redis, records_db, facts, "r1").record_once(0.1)
    once = rows(records_db)

    # The group is lost (a new Redis deployment, say) and the log is read from its start.
    for key in log_keys(SHARDS):
        raw_redis.xgroup_destroy(key, GROUP)
    recorder(raw_redis, records_db, facts, "r2").record_once(0.1)

    assert rows(records_db) == once


def test_keys_still_guarding_entries_in_the_log_are_not_pruned(
    table: Table, raw_redis: redis.Redis, records_db: Engine, facts: EngineFacts
) -> None:
    """A month on, the game's entries still sit in their shards (a shard is trimmed only
    when it is written to): their keys are kept, and a replay still counts nothing twice."""
    won_game(table)
    r1 = recorder(raw_redis, records_db, facts, "r1")
    r1.record_once(0.1)
    once = rows(records_db)
    keys = recorded_keys(records_db)
    assert keys

    assert r1.prune_once(datetime.now(UTC) + timedelta(days=30)) == 0
    assert recorded_keys(records_db) == keys
    for key in log_keys(SHARDS):
        raw_redis.xgroup_destroy(key, GROUP)
    recorder(raw_redis, records_db, facts, "r2").record_once(0.1)
    assert rows(records_db) == once


def test_keys_older_than_the_log_and_a_week_are_pruned(
    raw_redis: redis.Redis, records_db: Engine, facts: EngineFacts
) -> None:
    now = datetime.now(UTC)
    with records_db.begin() as connection:
        connection.execute(
            insert(RECORDED_WRITES),
            [
                {"game_id": name, "version": 1, "recorded_at": now - timedelta(days=days)}
                for name, days in (("25 days", 25), ("10 days", 10), ("1 day", 1))
            ],
        )
    # An idle shard still holds an entry written 20 days ago.
    shard = log_keys(SHARDS)[3]
    written = int((now - timedelta(days=20)).timestamp() * 1000)
    raw_redis.xadd(shard, {"g": "idle", "v": "1", "e": "x"}, id=f"{written}-0")
    r = ResultsRecorder(raw_redis, records_db, facts, shards=SHARDS, consumer="r")
    assert r.prune_once(now) == 1
    assert recorded_keys(records_db) == [("1 day", 1), ("10 days", 1)]
    raw_redis.xdel(shard, f"{written}-0")
    assert r.prune_once(now) == 1
    assert recorded_keys(records_db) == [("1 day", 1)]


def recorded_keys(db: Engine) -> list[tuple[str, int]]:
    with db.connect() as connection:
        found = connection.execute(select(RECORDED_WRITES.c.game_id, RECORDED_WRITES.c.version))
        return sorted((row[0], row[1]) for row in found)


def test_a_running_recorder_joins_again_when_its_group_is_lost(
    table: Table, raw_redis: redis.Redis, records_db: Engine, facts: EngineFacts
) -> None:
    """Redis restarted without its data (or the group deleted) under a running recorder: it
    creates the group again and goes on recording, with no worker restart."""
    running = recorder(raw_redis, records_db, facts, "r1")
    running.start()
    try:
        for key in log_keys(SHARDS):
            raw_redis.xgroup_destroy(key, GROUP)
        gid = won_game(table)
        wait_for(
            lambda: [g[0] for g in rows(records_db)["games"]] == [gid],
            30,
            "the game to be recorded after the group was lost",
        )
    finally:
        running.stop()
    assert not running.running  # stop waits for the thread to end


def test_what_a_dead_recorder_held_is_recorded_by_another(
    table: Table, raw_redis: redis.Redis, records_db: Engine, facts: EngineFacts
) -> None:
    gid = won_game(table)
    recorder(raw_redis, records_db, facts, "dead")
    # The dead one read every entry and died before recording any: all pending on it.
    raw_redis.xreadgroup(GROUP, "dead", dict.fromkeys(log_keys(SHARDS), ">"), count=1000)
    assert pending(raw_redis) > 0

    other = recorder(raw_redis, records_db, facts, "alive", reclaim_idle_seconds=0.2)
    other.record_once(0.05)
    assert rows(records_db)["games"] == []  # not yet: the dead one's entries are fresh
    time.sleep(0.3)
    other.record_once(0.05)

    assert [g[0] for g in rows(records_db)["games"]] == [gid]
    assert pending(raw_redis) == 0


def test_an_entry_is_left_pending_while_the_engine_cannot_answer(
    table: Table, raw_redis: redis.Redis, records_db: Engine, facts: EngineFacts
) -> None:
    won_game(table)

    def unreachable(game_id: str) -> None:
        raise ConnectionError("the engine is down")

    recorder(raw_redis, records_db, unreachable, "r1").record_once(0.1)
    assert pending(raw_redis) == 1  # the game's end; everything else was acknowledged
    assert rows(records_db)["ratings"] == []

    time.sleep(0.3)
    recorder(raw_redis, records_db, facts, "r1", reclaim_idle_seconds=0.2).record_once(0.05)
    assert len(rows(records_db)["ratings"]) == 3
    assert pending(raw_redis) == 0


@pytest.mark.slow
def test_the_worker_records_a_game_as_it_ends(
    table: Table, worker_factory: Callable[..., ServiceProcess], tmp_path: Path
) -> None:
    """The real worker process: its recorder migrates its SQLite file, reads the log and
    records the game."""
    url = f"sqlite:///{tmp_path / 'worker-records.db'}"
    worker_factory(UNO_DATABASE_URL=url)
    won_game(table)
    db = make_engine(url)
    try:
        wait_for(lambda: len(rows(db)["ratings"]) == 3, 30, "the game's ratings")
        stats = queries.user_stats(db, 1)
        assert stats is not None and (stats.games, stats.wins) == (1, 1)
    finally:
        db.dispose()


@pytest.mark.slow
def test_the_worker_archives_a_finished_game_in_postgresql(
    table: Table,
    worker_factory: Callable[..., ServiceProcess],
    database_url: str,
) -> None:
    """The real worker process, recording into the real PostgreSQL: a game dealt by the
    lobby (two people and a strong AI, which the worker plays) is archived as it ends, and
    its export, written out again from the archive, verifies (docs/EXPORT.md)."""
    upgrade(database_url)
    db = make_engine(database_url)
    empty_tables(db)
    try:
        worker_factory(UNO_DATABASE_URL=database_url)
        body = {"chat_id": -4646, "user_id": 1, "name": "U1", "turn_seconds": 5}
        gid = str(table._ok(table.http.post("/v1/games", json=body))["game_id"])
        table._ok(table.http.post(f"/v1/games/{gid}/join", json={"user_id": 2, "name": "U2"}))
        table._ok(table.http.post(f"/v1/games/{gid}/ai", json={"user_id": 1, "level": "strong"}))
        rules = {"target_score": 1}
        table._ok(table.http.post(f"/v1/games/{gid}/options", json={"user_id": 1, "rules": rules}))
        table._ok(table.http.post(f"/v1/games/{gid}/start", json={"user_id": 1}))

        def played_on() -> bool:
            if table.info(gid)["status"] != "playing":
                return True
            owing = table.owing_seat(gid)
            if owing in (0, 1):
                with contextlib.suppress(AssertionError):  # the AI or a timer moved first
                    table.act(gid, owing + 1)
            return False

        wait_for(played_on, 120, "the game's end")
        wait_for(lambda: queries.game_export(db, gid) is not None, 30, "the game's archive")
        export = queries.game_export(db, gid)
        assert export is not None
        assert [s["name"] for s in export["seats"]][:2] == ["U1", "U2"]
        assert export["seats"][2]["ai"] == "strong"
        replayed = replay(export)
        assert replayed.state.winner is not None and replayed.state.winner == export["winner"]
        ai_moves = [m for r in export["rounds"] for m in r["moves"] if m["seat"] == 2]
        assert ai_moves and all(m["by"] == "player" for m in ai_moves)
    finally:
        empty_tables(db)
        db.dispose()
