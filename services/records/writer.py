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

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Engine, case, select, update
from sqlalchemy.orm import Session

from services.engine.schemas import GameInfo
from services.records.database import insert_for as _insert
from services.records.database import transaction
from services.records.models import (
    AI_USER_IDS,
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

    @staticmethod
    def from_game_info(info: GameInfo) -> GameFacts:
        return GameFacts(
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
    and nobody is rated. Raises what the database raises; nothing is written then."""
    if not is_recorded(events):
        return WriteOutcome.IGNORED
    with transaction(engine) as session:
        claimed = session.execute(
            _insert(session, RECORDED_WRITES)
            .values(game_id=game_id, version=version, recorded_at=utcnow())
            .on_conflict_do_nothing(index_elements=["game_id", "version"])
            .returning(RECORDED_WRITES.c.version)
        ).first()
        if claimed is None:  # the key is taken: recorded before (or just now, by another)
            return WriteOutcome.DUPLICATE
        session.execute(
            _insert(session, GAMES)
            .values(id=game_id, topic_id=0, status="playing", rounds=0, created_at=utcnow())
            .on_conflict_do_nothing(index_elements=["id"])
        )
        for event in events:
            kind = event.get("type")
            if kind == "stand_in":
                _tally(session, game_id, int(event["seat"]), "stand_in_moves")
            elif kind == "knocked_out":
                _tally(session, game_id, int(event["player"]), "knocked_out")
            elif kind == "round_ended":
                _round(session, game_id, version, event)
            elif kind == "game_over":
                _game_over(session, game_id, version, event, facts)
            elif kind == "game_ended":
                _game_ended(session, game_id, version, facts)
    return WriteOutcome.RECORDED


# -- one event each ----------------------------------------------------------------------


_NEW_SEAT = {"won": False, "knocked_out": 0, "stand_in_moves": 0}


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


def _game_ended(session: Session, game_id: str, version: int, facts: GameFacts | None) -> None:
    session.execute(
        update(GAMES)
        .where(GAMES.c.id == game_id, GAMES.c.status == "playing")
        .values(
            status="ended", final_version=version, finished_at=utcnow(), **_describe_game(facts)
        )
    )


def _game_over(
    session: Session,
    game_id: str,
    version: int,
    event: Mapping[str, Any],
    facts: GameFacts | None,
) -> None:
    scores = [int(s) for s in event["scores"]]
    winner = int(event["winner"])
    seat_places = places(scores, winner, lowest_wins=facts.lowest_wins if facts else False)
    session.execute(
        update(GAMES)
        .where(GAMES.c.id == game_id)
        .values(
            status="over",
            winner_seat=winner,
            final_version=version,
            finished_at=utcnow(),
            **_describe_game(facts),
        )
    )
    seats = facts.seats if facts is not None and len(facts.seats) == len(scores) else None
    if seats is None:
        if facts is not None:
            log.error("game %s: %d seats but %d scores", game_id, len(facts.seats), len(scores))
        else:
            log.warning("game %s: over, but the engine no longer knows who played", game_id)
    _save_users(session, seats or ())
    for seat, score in enumerate(scores):
        who: dict[str, Any] = {}
        if seats is not None:
            who = {"user_id": seats[seat].subject, "name": seats[seat].name, "ai": seats[seat].ai}
        result = {"score": score, "place": seat_places[seat], "won": seat == winner, **who}
        session.execute(
            _insert(session, PLAYERS)
            .values(game_id=game_id, seat=seat, knocked_out=0, stand_in_moves=0, **result)
            .on_conflict_do_update(index_elements=["game_id", "seat"], set_=result)
        )
    if seats is None or facts is None:
        return
    subjects = [s.subject for s in seats]
    if any(s is None for s in subjects) or len(set(subjects)) < 2:
        log.warning("game %s: not rated (a seat without a player, or one player)", game_id)
        return
    rated = [s for s in subjects if s is not None]
    _rate(session, facts.variant, rated, seat_places, scores, winner)
    _stand(session, facts.chat_id, facts.variant, rated, scores, winner)


def _save_users(session: Session, seats: Sequence[SeatFacts]) -> None:
    """Make sure each seat's ``users`` row exists, in id order (two transactions then take
    their row locks in the same order and cannot deadlock)."""
    rows: dict[int, dict[str, Any]] = {}
    for seat in seats:
        subject = seat.subject
        if subject is None:
            continue
        is_ai = seat.user_id is None
        name = f"AI ({seat.ai})" if is_ai else seat.name
        rows[subject] = {"id": subject, "name": name, "is_ai": is_ai, "updated_at": utcnow()}
    for subject in sorted(rows):
        row = rows[subject]
        session.execute(
            _insert(session, USERS)
            .values(hidden=False, **row)
            .on_conflict_do_update(
                index_elements=["id"], set_={"name": row["name"], "updated_at": row["updated_at"]}
            )
        )


def _rate(
    session: Session,
    variant: str,
    subjects: Sequence[int],
    seat_places: Sequence[int],
    scores: Sequence[int],
    winner: int,
) -> None:
    """Update each subject's rating and totals in the variant. The rows are locked (on
    PostgreSQL) before they are read, so two games finishing at once with a player in
    common update that player one after the other, never from the same old rating."""
    ordered = sorted(set(subjects))
    for subject in ordered:
        session.execute(
            _insert(session, RATINGS)
            .values(
                user_id=subject,
                variant=variant,
                mu=NEW_PLAYER.mu,
                sigma=NEW_PLAYER.sigma,
                ordinal=NEW_PLAYER.ordinal,
                games=0,
                wins=0,
                points=0,
                updated_at=utcnow(),
            )
            .on_conflict_do_nothing(index_elements=["user_id", "variant"])
        )
    current = {
        row.user_id: Skill(mu=row.mu, sigma=row.sigma)
        for row in session.execute(
            select(RATINGS.c.user_id, RATINGS.c.mu, RATINGS.c.sigma)
            .where(RATINGS.c.variant == variant, RATINGS.c.user_id.in_(ordered))
            .order_by(RATINGS.c.user_id)
            .with_for_update()
        )
    }
    new = rate(subjects, seat_places, current)
    for subject in ordered:
        seats = [seat for seat, s in enumerate(subjects) if s == subject]
        skill = new[subject]
        session.execute(
            update(RATINGS)
            .where(RATINGS.c.user_id == subject, RATINGS.c.variant == variant)
            .values(
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                games=RATINGS.c.games + len(seats),
                wins=RATINGS.c.wins + sum(1 for seat in seats if seat == winner),
                points=RATINGS.c.points + sum(scores[seat] for seat in seats),
                updated_at=utcnow(),
            )
        )


def _stand(
    session: Session,
    chat_id: int,
    variant: str,
    subjects: Sequence[int],
    scores: Sequence[int],
    winner: int,
) -> None:
    for subject in sorted(set(subjects)):
        seats = [seat for seat, s in enumerate(subjects) if s == subject]
        totals = {
            "games": len(seats),
            "wins": sum(1 for seat in seats if seat == winner),
            "points": sum(scores[seat] for seat in seats),
        }
        session.execute(
            _insert(session, STANDINGS)
            .values(chat_id=chat_id, variant=variant, user_id=subject, **totals)
            .on_conflict_do_update(
                index_elements=["chat_id", "variant", "user_id"],
                set_={k: STANDINGS.c[k] + v for k, v in totals.items()},
            )
        )
