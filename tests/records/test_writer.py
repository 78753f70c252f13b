"""Recording the engine's event log: results, tallies, rounds and ratings, each once.

Every test runs on SQLite and on the real PostgreSQL (``records_db``)."""

from __future__ import annotations

import multiprocessing
import random
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, insert, select

from services.records import queries, writer
from services.records.database import make_engine
from services.records.models import (
    AI_USER_IDS,
    GAMES,
    PLAYERS,
    RATINGS,
    RECORDED_WRITES,
    ROUNDS,
    STANDINGS,
    USERS,
)
from services.records.ratings import NEW_PLAYER
from services.records.writer import WriteOutcome, record_write
from tests.helpers.game_log import ANA, BO, CHAT, CY, FACTS, finished_game

STRONG = AI_USER_IDS["strong"]
SNAPSHOT_SKIPS = {"updated_at", "created_at", "finished_at", "ended_at", "recorded_at"}


def record_log(db: Engine, game_id: str, entries: list[Any]) -> list[WriteOutcome]:
    return [
        record_write(db, game_id, version, events, FACTS if writer.needs_facts(events) else None)
        for version, events in entries
    ]


def snapshot(db: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, timestamps left out, in a stable order."""
    out = {}
    with db.connect() as connection:
        for table in (USERS, GAMES, ROUNDS, PLAYERS, RATINGS, STANDINGS, RECORDED_WRITES):
            columns = [c for c in table.c if c.name not in SNAPSHOT_SKIPS]
            rows = connection.execute(select(*columns)).all()
            out[table.name] = sorted((tuple(r) for r in rows), key=repr)
    return out


def rating(db: Engine, user_id: int, variant: str = "classic") -> Any:
    with db.connect() as connection:
        return connection.execute(
            select(RATINGS).where(RATINGS.c.user_id == user_id, RATINGS.c.variant == variant)
        ).one_or_none()


def test_a_finished_game_is_recorded_whole(records_db: Engine) -> None:
    outcomes = record_log(records_db, "g1", finished_game(winner=0))

    assert outcomes.count(WriteOutcome.IGNORED) == 2  # lobby and deal only
    with records_db.connect() as connection:
        game = connection.execute(select(GAMES)).one()
        assert (game.status, game.chat_id, game.variant, game.rounds, game.winner_seat) == (
            "over",
            CHAT,
            "classic",
            2,
            0,
        )
        assert game.final_version == 31
        rounds = connection.execute(select(ROUNDS).order_by(ROUNDS.c.number)).all()
        assert [(r.number, r.winner_seat, r.scores) for r in rounds] == [
            (1, 0, [40, 0, 0, 0]),
            (2, 0, [520, 40, 10, 0]),
        ]
        seats = connection.execute(select(PLAYERS).order_by(PLAYERS.c.seat)).all()
    assert [(s.user_id, s.ai, s.score, s.place, s.won) for s in seats] == [
        (ANA, None, 520, 1, True),
        (BO, None, 40, 2, False),
        (STRONG, "strong", 10, 3, False),
        (CY, None, 0, 4, False),
    ]
    assert [s.stand_in_moves for s in seats] == [0, 2, 0, 0]
    assert [s.knocked_out for s in seats] == [0, 0, 1, 0]


def test_ratings_follow_the_places_and_rate_the_ai(records_db: Engine) -> None:
    record_log(records_db, "g1", finished_game(winner=2))  # the strong AI wins

    ai, ana = rating(records_db, STRONG), rating(records_db, ANA)
    assert ai.mu > NEW_PLAYER.mu > ana.mu
    assert ai.sigma < NEW_PLAYER.sigma
    assert (ai.games, ai.wins, ai.points) == (1, 1, 520)
    assert (ana.games, ana.wins) == (1, 0)
    with records_db.connect() as connection:
        users = {u.id: u for u in connection.execute(select(USERS))}
        standings = connection.execute(select(STANDINGS).where(STANDINGS.c.chat_id == CHAT)).all()
    assert users[STRONG].is_ai and users[STRONG].name == "AI (strong)"
    assert users[ANA].name == "Ana" and not users[ANA].is_ai
    assert sorted((s.user_id, s.games, s.wins) for s in standings) == [
        (STRONG, 1, 1),
        (ANA, 1, 0),
        (BO, 1, 0),
        (CY, 1, 0),
    ]


def test_each_seats_rating_change_in_the_game_is_kept_with_its_result(
    records_db: Engine,
) -> None:
    """What the Mini App's end shows each person: how much this game moved their rating
    (its ordinal), by seat; a second game's change is its own, from the rating before it."""
    record_log(records_db, "g1", finished_game(winner=2))
    first = queries.rating_changes(records_db, "g1")
    assert sorted(first) == [0, 1, 2, 3] and first[2] > 0  # the strong AI won
    assert first[0] == pytest.approx(rating(records_db, ANA).ordinal - NEW_PLAYER.ordinal)
    before = rating(records_db, ANA).ordinal
    record_log(records_db, "g2", finished_game(winner=2))
    second = queries.rating_changes(records_db, "g2")
    assert second[0] == pytest.approx(rating(records_db, ANA).ordinal - before)
    assert queries.rating_changes(records_db, "nothing") == {}


def test_a_replayed_event_log_counts_nothing_twice(records_db: Engine) -> None:
    entries = finished_game()
    record_log(records_db, "g1", entries)
    once = snapshot(records_db)

    replayed = record_log(records_db, "g1", entries)

    assert set(replayed) <= {WriteOutcome.DUPLICATE, WriteOutcome.IGNORED}
    assert snapshot(records_db) == once


def test_entries_recorded_out_of_order_give_the_same_records(records_db: Engine) -> None:
    entries = finished_game()
    record_log(records_db, "g1", entries)
    in_order = snapshot(records_db)
    for table in (STANDINGS, RATINGS, PLAYERS, ROUNDS, GAMES, USERS, RECORDED_WRITES):
        with records_db.begin() as connection:
            connection.execute(table.delete())

    shuffled = entries[:]
    random.Random(7).shuffle(shuffled)
    record_log(records_db, "g1", shuffled)

    assert snapshot(records_db) == in_order


def test_concurrent_writers_of_one_entry_record_it_once(records_db: Engine) -> None:
    version, events = finished_game()[-1]
    start = threading.Barrier(6)
    outcomes: list[WriteOutcome] = []

    def write() -> None:
        start.wait()
        outcomes.append(record_write(records_db, "g1", version, events, FACTS))

    threads = [threading.Thread(target=write) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert sorted(outcomes) == sorted([WriteOutcome.RECORDED] + [WriteOutcome.DUPLICATE] * 5)
    assert (rating(records_db, ANA).games, rating(records_db, ANA).wins) == (1, 1)
    with records_db.connect() as connection:
        assert connection.execute(select(STANDINGS.c.games)).scalars().all() == [1] * 4


def write_game_end_in_a_process(url: str, start: Any, outcomes: Any) -> None:
    """In another process: record the finished game's last entry as soon as all are ready."""
    db = make_engine(url)
    version, events = finished_game()[-1]
    start.wait()
    outcomes.put(record_write(db, "g1", version, events, FACTS).value)
    db.dispose()


def test_two_processes_writing_one_game_end_write_it_once(records_db: Engine) -> None:
    context = multiprocessing.get_context("spawn")
    start, outcomes = context.Barrier(2), context.Queue()
    url = records_db.url.render_as_string(hide_password=False)
    workers = [
        context.Process(target=write_game_end_in_a_process, args=(url, start, outcomes))
        for _ in range(2)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)

    assert sorted(outcomes.get(timeout=5) for _ in workers) == ["duplicate", "recorded"]
    assert (rating(records_db, ANA).games, rating(records_db, ANA).wins) == (1, 1)


def test_games_finishing_at_once_with_a_player_in_common_both_count(records_db: Engine) -> None:
    """Two workers finish two games with the same players at the same time: each rating
    update starts from the other's result, none is lost."""
    start = threading.Barrier(2)

    def write(game_id: str) -> None:
        version, events = finished_game()[-1]
        start.wait()
        record_write(records_db, game_id, version, events, FACTS)

    threads = [threading.Thread(target=write, args=(g,)) for g in ("g1", "g2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert (rating(records_db, ANA).games, rating(records_db, ANA).wins) == (2, 2)
    assert rating(records_db, STRONG).games == 2


def test_a_crash_between_two_writes_loses_nothing(
    records_db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's end is many writes (game, seats, users, ratings, standings): a failure
    after some of them leaves none, and the entry recorded again is recorded whole."""
    version, events = finished_game()[-1]

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the worker died here")

    monkeypatch.setattr(writer, "_stand", crash)  # after the results and the ratings
    with pytest.raises(RuntimeError):
        record_write(records_db, "g1", version, events, FACTS)
    assert all(rows == [] for rows in snapshot(records_db).values())

    monkeypatch.undo()
    assert record_write(records_db, "g1", version, events, FACTS) is WriteOutcome.RECORDED
    assert rating(records_db, ANA).games == 1
    with records_db.connect() as connection:
        assert len(connection.execute(select(STANDINGS)).all()) == 4


def test_an_ended_game_is_kept_without_results_or_ratings(records_db: Engine) -> None:
    entries = [*finished_game()[:4], (15, [{"type": "game_ended", "reason": "host", "by": ANA}])]
    record_log(records_db, "g1", entries)

    with records_db.connect() as connection:
        game = connection.execute(select(GAMES)).one()
        assert (game.status, game.chat_id, game.final_version) == ("ended", CHAT, 15)
        assert connection.execute(select(RATINGS)).all() == []
        assert connection.execute(select(STANDINGS)).all() == []


def test_a_game_the_engine_forgot_keeps_its_scores_unrated(records_db: Engine) -> None:
    version, events = finished_game()[-1]

    assert record_write(records_db, "g1", version, events, None) is WriteOutcome.RECORDED

    with records_db.connect() as connection:
        seats = connection.execute(select(PLAYERS).order_by(PLAYERS.c.seat)).all()
        assert [(s.user_id, s.score, s.place) for s in seats] == [
            (None, 520, 1),
            (None, 40, 2),
            (None, 10, 3),
            (None, 0, 4),
        ]
        assert connection.execute(select(RATINGS)).all() == []


@pytest.mark.parametrize(
    "events",
    [
        [{"type": "stand_in"}],
        [{"type": "round_ended", "round": 1}],
        [{"type": "game_over", "winner": 0, "scores": ["lots"]}],
    ],
)
def test_a_malformed_entry_is_refused_and_writes_nothing(
    records_db: Engine, events: list[dict[str, Any]]
) -> None:
    with pytest.raises(writer.MalformedEntry):
        record_write(records_db, "g1", 9, events, FACTS)
    assert all(rows == [] for rows in snapshot(records_db).values())


def test_old_keys_are_pruned_in_batches_and_recent_ones_kept(records_db: Engine) -> None:
    """``recorded_writes`` does not grow for ever: keys recorded before the cutoff go, a few
    per transaction; keys after it stay and still make a replay count nothing twice."""
    now = datetime.now(UTC)
    old = [("old", v, now - timedelta(days=8, minutes=v)) for v in range(1, 8)]
    recent = [("new", v, now - timedelta(days=6)) for v in range(1, 4)]
    with records_db.begin() as connection:
        connection.execute(
            insert(RECORDED_WRITES),
            [{"game_id": g, "version": v, "recorded_at": t} for g, v, t in old + recent],
        )
    version, events = finished_game()[-1]
    assert record_write(records_db, "g1", version, events, FACTS) is WriteOutcome.RECORDED

    cutoff = now - writer.KEEP_RECORDED_WRITES
    assert writer.prune_recorded_writes(records_db, cutoff, batch=3) == len(old)
    with records_db.connect() as connection:
        left = connection.execute(select(RECORDED_WRITES.c.game_id, RECORDED_WRITES.c.version))
        assert sorted(tuple(r) for r in left) == [("g1", version), *(k[:2] for k in recent)]
    assert writer.prune_recorded_writes(records_db, cutoff) == 0
    before = snapshot(records_db)
    assert record_write(records_db, "g1", version, events, FACTS) is WriteOutcome.DUPLICATE
    assert snapshot(records_db) == before
