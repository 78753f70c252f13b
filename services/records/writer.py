"""Recording one write of the engine's event log: tallies, rounds, results and ratings.

The engine's event log (services/engine/README.md "Events") holds one entry per write of a
game: its game id, the version the write produced, and that write's events. The worker
hands each entry that matters here to :func:`record_write`:

- ``stand_in`` {seat}: a stand-in moved for a human who missed a deadline (a tally);
- ``knocked_out`` {player}: No Mercy's mercy rule put a seat out of the round (a tally);
- ``round_ended`` {round, winner, points, scores}: one row of ``rounds``;
- ``game_over`` {winner, scores}: the game's result, each seat's score and place, the
  ratings of the variant and the chat's standings;
- ``game_ended`` {reason}: the game was ended early or abandoned: no result, no rating.

Who sat in each seat (a Telegram user or an AI level), the chat and the variant are not in
these events: the caller reads them from the engine (``GameFacts.from_game_info``).

**Once, whatever the delivery.** Everything an entry changes is written in one
transaction that starts by inserting its key, ``(game id, version)``, into
``recorded_writes``. A replayed or redelivered entry finds the key and changes nothing; two
workers recording the same entry at once both try the insert and the database lets one
through (the other waits for it, then finds the key): a unique key, not luck. A crash
before the commit leaves nothing, so the entry is recorded whole when it comes again.
Entries of one game may be recorded out of order (two workers share the log): a tally is an
increment and a round a row of its own, so the order does not matter.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import cache
from typing import Any

from sqlalchemy import Engine, bindparam, case, delete, select, tuple_, update
from sqlalchemy.orm import Session

from services.engine.game_export import compact
from services.engine.wire.schemas import GameInfo
from services.records.database import dialect_insert, rowcount, transaction
from services.records.database import insert_for as _insert
from services.records.models import (
    AI_USER_IDS,
    ARCHIVED_SEATS,
    ARCHIVES,
    GAMES,
    PLAYERS,
    RATINGS,
    RECORDED_WRITES,
    ROUNDS,
    STANDINGS,
    USERS,
    utcnow,
)
from services.records.ratings import NEW_PLAYER, Skill, places, rate

log = logging.getLogger(__name__)

#: The events this module records; an entry with none of them is of no interest here.
RECORDED_EVENTS = frozenset({"stand_in", "knocked_out", "round_ended", "game_over", "game_ended"})
#: The events whose recording needs the game's seats, chat and variant (``GameFacts``).
FACT_EVENTS = frozenset({"game_over", "game_ended"})


class MalformedEntry(ValueError):
    """An entry whose events lack what they should carry: recording it again cannot help."""


class WriteOutcome(StrEnum):
    RECORDED = "recorded"
    DUPLICATE = "duplicate"  # recorded before: nothing changed
    IGNORED = "ignored"  # nothing in it is recorded here


@dataclass(frozen=True, slots=True)
class SeatFacts:
    name: str
    user_id: int | None = None
    ai: str | None = None

    @property
    def subject(self) -> int | None:
        """The ``users`` id rated for this seat: the Telegram user, or the AI level's row."""
        if self.user_id is not None:
            return self.user_id
        return AI_USER_IDS.get(self.ai) if self.ai is not None else None


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the event log does not say about a game: its chat, variant, scoring and seats."""

    chat_id: int
    topic_id: int
    variant: str
    seats: tuple[SeatFacts, ...]
    lowest_wins: bool = False  # alternate scoring: the lowest total wins
    # The game's export (docs/EXPORT.md), archived with its end; None: the engine has none
    # (a game made from a test set-up).
    export: Mapping[str, Any] | None = None

    @staticmethod
    def from_game_info(info: GameInfo, export: Mapping[str, Any] | None = None) -> GameFacts:
        return GameFacts(
            export=export,
            chat_id=info.chat_id,
            topic_id=info.topic_id,
            variant=info.variant,
            seats=tuple(
                SeatFacts(name=s.name, user_id=s.user_id, ai=s.ai)
                for s in sorted(info.seats, key=lambda s: s.seat)
            ),
            lowest_wins=bool(info.rules.get("alternate_scoring", False)),
        )


def is_recorded(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether an entry with these events changes anything here."""
    return any(e.get("type") in RECORDED_EVENTS for e in events)


def needs_facts(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether recording these events needs ``GameFacts`` (fetch them from the engine)."""
    return any(e.get("type") in FACT_EVENTS for e in events)


def record_write(
    engine: Engine,
    game_id: str,
    version: int,
    events: Sequence[Mapping[str, Any]],
    facts: GameFacts | None = None,
) -> WriteOutcome:
    """Record one event log entry, once (module docstring). ``facts`` may be ``None`` when
    the engine no longer knows the game: its result is then kept without who sat where,
    and nobody is rated. Raises ``MalformedEntry`` for events without the data they should
    carry, and what the database raises; nothing is written then."""
    if not is_recorded(events):
        return WriteOutcome.IGNORED
    try:
        return _record(engine, game_id, version, events, facts)
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedEntry(f"game {game_id} version {version}: {exc!r}") from exc


def _record(
    engine: Engine,
    game_id: str,
    version: int,
    events: Sequence[Mapping[str, Any]],
    facts: GameFacts | None,
) -> WriteOutcome:
    with transaction(engine) as session:
        claimed = session.execute(
            _insert(session, RECORDED_WRITES)
            .values(game_id=game_id, version=version, recorded_at=utcnow())
            .on_conflict_do_nothing(index_elements=["game_id", "version"])
            .returning(RECORDED_WRITES.c.version)
        ).first()
        if claimed is None:  # the key is taken: recorded before (or just now, by another)
            return WriteOutcome.DUPLICATE
        _save_game(session, game_id, version, events, facts)
        for event in events:
            kind = event.get("type")
            if kind == "stand_in":
                _tally(session, game_id, int(event["seat"]), "stand_in_moves")
            elif kind == "knocked_out":
                _tally(session, game_id, int(event["player"]), "knocked_out")
            elif kind == "round_ended":
                _round(session, game_id, version, event)
            elif kind == "game_over":
                _game_over(session, game_id, event, facts)
        if facts is not None and facts.export is not None and needs_facts(events):
            _archive(session, game_id, facts.export, facts.seats)
    return WriteOutcome.RECORDED


# -- archives ------------------------------------------------------------------------------


def _archive(
    session: Session, game_id: str, export: Mapping[str, Any], seats: Sequence[SeatFacts]
) -> None:
    """Keep a finished game's history (``game_export.compact``) and who sat where; names
    and users live in ``archived_seats`` alone, so /forgetme can anonymise a seat."""
    kept = compact(export)
    history = zlib.compress(json.dumps(kept, separators=(",", ":")).encode(), 9)
    inserted = session.execute(
        _insert(session, ARCHIVES)
        .values(
            game_id=game_id,
            format=kept["format"],
            rounds=len(kept["seeds"]),
            history=history,
            archived_at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=["game_id"])
        .returning(ARCHIVES.c.game_id)
    ).first()
    if inserted is None or not seats:
        return
    session.execute(
        _insert(session, ARCHIVED_SEATS).values(
            [
                {"game_id": game_id, "seat": i, "user_id": s.user_id, "name": s.name}
                for i, s in enumerate(seats)
            ]
        )
    )


#: Archived games purged per transaction (a game's archive is one row and a row per seat).
ARCHIVE_PRUNE_BATCH = 1000


def prune_archives(engine: Engine, before: datetime, *, batch: int = ARCHIVE_PRUNE_BATCH) -> int:
    """Delete the archives of games archived before ``before`` (``UNO_ARCHIVE_DAYS``) and
    their seats, ``batch`` games per transaction; returns how many games went."""
    total = 0
    while True:
        with transaction(engine) as session:
            old = list(
                session.execute(
                    select(ARCHIVES.c.game_id).where(ARCHIVES.c.archived_at < before).limit(batch)
                ).scalars()
            )
            if old:
                session.execute(delete(ARCHIVED_SEATS).where(ARCHIVED_SEATS.c.game_id.in_(old)))
                session.execute(delete(ARCHIVES).where(ARCHIVES.c.game_id.in_(old)))
        total += len(old)
        if len(old) < batch:
            return total


# -- forgetting old keys -----------------------------------------------------------------

#: [decision] How long the key of a recorded write is kept at least: seven days. A key only
#: guards against the same entry of the event log being recorded again, and the log keeps
#: about two minutes of writes (``UNO_EVENT_LOG_SECONDS``); but it trims a shard only when
#: that shard is written to, so an idle shard can hold older entries, which a consumer
#: group created anew (Redis lost it) reads again. The worker therefore also never prunes
#: a key recorded after the oldest entry the log still holds (services/worker/records.py);
#: seven days is the margin beyond that for clocks, outages and restores, at a cost of one
#: small row per recorded write (a busy deployment's few hundred thousand a week).
KEEP_RECORDED_WRITES = timedelta(days=7)
#: Keys deleted per transaction: short transactions, never a long lock on the table.
PRUNE_BATCH = 5000


def prune_recorded_writes(engine: Engine, before: datetime, *, batch: int = PRUNE_BATCH) -> int:
    """Delete the keys of writes recorded before ``before``, ``batch`` at a time (each batch
    its own transaction, found by the ``recorded_at`` index); returns how many went. Two
    workers pruning at once delete each row once: the second finds it gone."""
    keys = tuple_(RECORDED_WRITES.c.game_id, RECORDED_WRITES.c.version)
    total = 0
    while True:
        oldest = (
            select(RECORDED_WRITES.c.game_id, RECORDED_WRITES.c.version)
            .where(RECORDED_WRITES.c.recorded_at < before)
            .limit(batch)
        )
        with transaction(engine) as session:
            deleted = rowcount(session.execute(delete(RECORDED_WRITES).where(keys.in_(oldest))))
        total += deleted
        if deleted < batch:
            return total


# -- one event each ----------------------------------------------------------------------


_NEW_SEAT = {"won": False, "knocked_out": 0, "stand_in_moves": 0}
#: A subject's (games, wins, points) in one game.
Totals = tuple[int, int, int]


def _tally(session: Session, game_id: str, seat: int, column: str) -> None:
    session.execute(
        _insert(session, PLAYERS)
        .values({**_NEW_SEAT, "game_id": game_id, "seat": seat, column: 1})
        .on_conflict_do_update(
            index_elements=["game_id", "seat"], set_={column: PLAYERS.c[column] + 1}
        )
    )


def _round(session: Session, game_id: str, version: int, event: Mapping[str, Any]) -> None:
    number = int(event["round"])
    session.execute(
        _insert(session, ROUNDS)
        .values(
            game_id=game_id,
            number=number,
            winner_seat=int(event["winner"]),
            hand_points=[int(p) for p in event.get("points", [])],
            scores=[int(s) for s in event.get("scores", [])],
            version=version,
            ended_at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=["game_id", "number"])
    )
    session.execute(
        update(GAMES)
        .where(GAMES.c.id == game_id)
        .values(rounds=case((GAMES.c.rounds < number, number), else_=GAMES.c.rounds))
    )


def _describe_game(facts: GameFacts | None) -> dict[str, Any]:
    if facts is None:
        return {}
    return {"chat_id": facts.chat_id, "topic_id": facts.topic_id, "variant": facts.variant}


def _save_game(
    session: Session,
    game_id: str,
    version: int,
    events: Sequence[Mapping[str, Any]],
    facts: GameFacts | None,
) -> None:
    """Create the game's row if it is new; an entry that ends the game also says how, in
    the same statement (an early end only while the game is still playing)."""
    ending: dict[str, Any] = {}
    for event in events:
        kind = event.get("type")
        if kind == "game_over":
            ending = {"status": "over", "winner_seat": int(event["winner"])}
        elif kind == "game_ended" and not ending:
            ending = {"status": "ended"}
    row = {"id": game_id, "topic_id": 0, "status": "playing", "rounds": 0, "created_at": utcnow()}
    insert = _insert(session, GAMES)
    if not ending:
        session.execute(insert.values(row).on_conflict_do_nothing(index_elements=["id"]))
        return
    ending |= {"final_version": version, "finished_at": utcnow(), **_describe_game(facts)}
    insert = insert.values({**row, **ending})
    session.execute(
        insert.on_conflict_do_update(
            index_elements=["id"],
            set_=ending,
            where=GAMES.c.status == "playing" if ending["status"] == "ended" else None,
        )
    )


def _game_over(
    session: Session, game_id: str, event: Mapping[str, Any], facts: GameFacts | None
) -> None:
    """The seats' results, the users, the ratings and the chat's standings: one statement
    each (``_statements``); the game's row is ``_save_game``'s."""
    scores = [int(s) for s in event["scores"]]
    winner = int(event["winner"])
    seat_places = places(scores, winner, lowest_wins=facts.lowest_wins if facts else False)
    seats = facts.seats if facts is not None and len(facts.seats) == len(scores) else None
    if seats is None:
        if facts is not None:
            log.error("game %s: %d seats but %d scores", game_id, len(facts.seats), len(scores))
        else:
            log.warning("game %s: over, but the engine no longer knows who played", game_id)
    _save_users(session, seats or ())
    results = []
    for seat, score in enumerate(scores):
        who = seats[seat] if seats is not None else SeatFacts(name="")
        results.append(
            {
                **_NEW_SEAT,
                "game_id": game_id,
                "seat": seat,
                "user_id": who.subject,
                "name": who.name or None,
                "ai": who.ai,
                "score": score,
                "place": seat_places[seat],
                "won": seat == winner,
            }
        )
    session.execute(_statement(session, "results"), results)
    if seats is None or facts is None:
        return
    subjects = [s.subject for s in seats]
    if any(s is None for s in subjects) or len(set(subjects)) < 2:
        log.warning("game %s: not rated (a seat without a player, or one player)", game_id)
        return
    rated = [s for s in subjects if s is not None]
    totals = _totals(rated, scores, winner)
    changes = _rate(session, facts.variant, rated, seat_places, totals)
    session.execute(
        update(PLAYERS)
        .where(PLAYERS.c.game_id == bindparam("g"), PLAYERS.c.seat == bindparam("s"))
        .values(rating_change=bindparam("change")),
        [{"g": game_id, "s": seat, "change": changes[who]} for seat, who in enumerate(rated)],
    )
    _stand(session, facts.chat_id, facts.variant, totals)


def _save_users(session: Session, seats: Sequence[SeatFacts]) -> None:
    """Make sure each seat's ``users`` row exists, with the name it played under."""
    rows: dict[int, dict[str, Any]] = {}
    now = utcnow()
    for seat in seats:
        subject = seat.subject
        if subject is None:
            continue
        is_ai = seat.user_id is None
        name = f"AI ({seat.ai})" if is_ai else seat.name
        rows[subject] = {
            "id": subject,
            "name": name,
            "is_ai": is_ai,
            "hidden": False,
            "updated_at": now,
        }
    if rows:
        session.execute(_statement(session, "users"), [rows[s] for s in sorted(rows)])


def _totals(subjects: Sequence[int], scores: Sequence[int], winner: int) -> dict[int, Totals]:
    """Each subject's games, wins and points in this game (an AI level may hold two seats),
    in id order."""
    totals: dict[int, Totals] = {}
    for seat, subject in enumerate(subjects):
        games, wins, points = totals.get(subject, (0, 0, 0))
        totals[subject] = (games + 1, wins + (seat == winner), points + scores[seat])
    return dict(sorted(totals.items()))


def _rate(
    session: Session,
    variant: str,
    subjects: Sequence[int],
    seat_places: Sequence[int],
    totals: Mapping[int, Totals],
) -> dict[int, float]:
    """Update each subject's rating and totals in the variant, reading the ratings under
    lock (``_statements``: ``lock_ratings``); how much each one's ordinal moved."""
    now = utcnow()
    current = {
        row.user_id: Skill(mu=row.mu, sigma=row.sigma)
        for row in session.execute(
            _statement(session, "lock_ratings"),
            [
                {
                    "user_id": subject,
                    "variant": variant,
                    "mu": NEW_PLAYER.mu,
                    "sigma": NEW_PLAYER.sigma,
                    "ordinal": NEW_PLAYER.ordinal,
                    "games": 0,
                    "wins": 0,
                    "points": 0,
                    "updated_at": now,
                }
                for subject in totals
            ],
        )
    }
    new = rate(subjects, seat_places, current)
    session.execute(
        _statement(session, "ratings"),
        [
            {
                "user_id": subject,
                "variant": variant,
                "mu": new[subject].mu,
                "sigma": new[subject].sigma,
                "ordinal": new[subject].ordinal,
                "games": games,
                "wins": wins,
                "points": points,
                "updated_at": now,
            }
            for subject, (games, wins, points) in totals.items()
        ],
    )
    return {
        subject: new[subject].ordinal - current.get(subject, NEW_PLAYER).ordinal
        for subject in totals
    }


def _stand(session: Session, chat_id: int, variant: str, totals: Mapping[int, Totals]) -> None:
    session.execute(
        _statement(session, "standings"),
        [
            {
                "chat_id": chat_id,
                "variant": variant,
                "user_id": subject,
                "games": games,
                "wins": wins,
                "points": points,
            }
            for subject, (games, wins, points) in totals.items()
        ],
    )


def _statement(session: Session, name: str) -> Any:
    """The game end's upserts, built once per dialect. [decision] Each runs once with a
    list of rows, which SQLAlchemy sends as one multi-row statement ("insertmanyvalues",
    which it uses for statements with RETURNING: without it each row would be its own
    statement on the server), in id order: two
    transactions then lock shared rows in the same order and cannot deadlock, and a game's
    end costs some eight round trips to the database whatever the number of seats."""
    return _statements(session.get_bind().dialect.name)[name]


@cache
def _statements(dialect: str) -> dict[str, Any]:
    insert = dialect_insert(dialect)
    results = insert(PLAYERS)
    users = insert(USERS)
    fresh = insert(RATINGS)
    ratings = insert(RATINGS)
    standings = insert(STANDINGS)
    return {
        "results": results.on_conflict_do_update(
            index_elements=["game_id", "seat"],
            set_={
                c: results.excluded[c] for c in ("user_id", "name", "ai", "score", "place", "won")
            },
        ).returning(PLAYERS.c.seat),
        "users": users.on_conflict_do_update(
            index_elements=["id"],
            set_={"name": users.excluded.name, "updated_at": users.excluded.updated_at},
        ).returning(USERS.c.id),
        # Creates the missing rows, and locks and reads them all: an upsert whose update
        # changes nothing still locks the row (PostgreSQL; SQLite has one writer at a time),
        # so two games ending at once with a player in common update that player one after
        # the other, never both from the same old rating.
        "lock_ratings": fresh.on_conflict_do_update(
            index_elements=["user_id", "variant"], set_={"user_id": fresh.excluded.user_id}
        ).returning(RATINGS.c.user_id, RATINGS.c.mu, RATINGS.c.sigma),
        "ratings": ratings.on_conflict_do_update(
            index_elements=["user_id", "variant"],
            set_={
                "mu": ratings.excluded.mu,
                "sigma": ratings.excluded.sigma,
                "ordinal": ratings.excluded.ordinal,
                "games": RATINGS.c.games + ratings.excluded.games,
                "wins": RATINGS.c.wins + ratings.excluded.wins,
                "points": RATINGS.c.points + ratings.excluded.points,
                "updated_at": ratings.excluded.updated_at,
            },
        ).returning(RATINGS.c.user_id),
        "standings": standings.on_conflict_do_update(
            index_elements=["chat_id", "variant", "user_id"],
            set_={k: STANDINGS.c[k] + standings.excluded[k] for k in ("games", "wins", "points")},
        ).returning(STANDINGS.c.user_id),
    }
