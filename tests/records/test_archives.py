"""Finished games' archives (services/records/README.md "Archives", docs/EXPORT.md): written
once with the game's end, written out again as the same export, a forgotten player's seat
made anonymous while the game stays, and purged after the configured time; on SQLite and
PostgreSQL."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, func, select

from services.engine.game_export import replay
from services.engine.rules import Options
from services.records import queries, writer
from services.records.models import ARCHIVED_SEATS, ARCHIVES
from services.records.writer import GameFacts, SeatFacts, WriteOutcome, record_write
from tests.helpers.replays import play

ANA, BO = 5101, 5102


def _finished(seed: int = 3) -> tuple[dict[str, object], GameFacts]:
    game = play("classic", 3, Options(target_score=50), random.Random(seed), 5000)
    assert game.state.pending is None
    export = game.export
    export["seats"] = [
        {"seat": 0, "name": "Ana", "ai": None},
        {"seat": 1, "name": "Bo", "ai": None},
        {"seat": 2, "name": "AI 1", "ai": "strong"},
    ]
    facts = GameFacts(
        chat_id=-1,
        topic_id=0,
        variant="classic",
        seats=(
            SeatFacts("Ana", user_id=ANA),
            SeatFacts("Bo", user_id=BO),
            SeatFacts("AI 1", ai="strong"),
        ),
        export=export,
    )
    return export, facts


def _game_over(export: dict[str, object]) -> list[dict[str, object]]:
    return [{"type": "game_over", "winner": export["winner"], "scores": export["scores"]}]


def test_a_finished_game_is_archived_once_and_exports_the_same(records_db: Engine) -> None:
    export, facts = _finished()
    assert record_write(records_db, "g1", 90, _game_over(export), facts) is WriteOutcome.RECORDED
    assert record_write(records_db, "g1", 90, _game_over(export), facts) is WriteOutcome.DUPLICATE
    again = queries.game_export(records_db, "g1")
    assert again is not None
    assert again == {**export, "game": "g1"}
    replay(again)
    assert queries.game_export(records_db, "unknown") is None


def test_forgetting_a_player_keeps_the_game_with_their_seat_anonymous(records_db: Engine) -> None:
    export, facts = _finished()
    record_write(records_db, "g2", 90, _game_over(export), facts)
    forgotten = queries.forget_user(records_db, ANA)
    assert forgotten.archived_seats == 1
    again = queries.game_export(records_db, "g2")
    assert again is not None
    assert [s["name"] for s in again["seats"]] == [None, "Bo", "AI 1"]
    replay(again)  # still the same game
    with records_db.connect() as c:
        users = c.execute(select(ARCHIVED_SEATS.c.user_id).order_by(ARCHIVED_SEATS.c.seat))
        assert list(users.scalars()) == [None, BO, None]


def test_an_ended_game_is_archived_too(records_db: Engine) -> None:
    _, facts = _finished()
    ended = {"type": "game_ended", "reason": "host", "by": ANA}
    record_write(records_db, "g3", 40, [ended], facts)
    assert queries.game_export(records_db, "g3") is not None


def test_old_archives_are_purged(records_db: Engine) -> None:
    export, facts = _finished()
    record_write(records_db, "old", 90, _game_over(export), facts)
    record_write(records_db, "new", 90, _game_over(export), facts)
    with records_db.begin() as c:
        c.execute(
            ARCHIVES.update()
            .where(ARCHIVES.c.game_id == "old")
            .values(archived_at=datetime.now(UTC) - timedelta(days=400))
        )
    cutoff = datetime.now(UTC) - timedelta(days=365)
    assert writer.prune_archives(records_db, cutoff, batch=1) == 1
    assert queries.game_export(records_db, "old") is None
    assert queries.game_export(records_db, "new") is not None
    with records_db.connect() as c:
        seats = c.execute(select(func.count()).select_from(ARCHIVED_SEATS)).scalar_one()
    assert seats == 3


def test_the_chats_last_finished_game_is_the_last_archived(records_db: Engine) -> None:
    """/replay's game: the chat's newest finished game with an archive, in its topic; a game
    recorded without one (ended in its lobby, a test set-up) is passed over."""
    chat = -7_000_000_000 - random.randrange(10**6)
    export, facts = _finished()
    first = dataclasses.replace(facts, chat_id=chat)
    assert queries.last_finished_game(records_db, chat) is None
    record_write(records_db, f"r1{chat}", 90, _game_over(export), first)
    record_write(records_db, f"r2{chat}", 90, _game_over(export), first)
    assert queries.last_finished_game(records_db, chat) == f"r2{chat}"
    bare = dataclasses.replace(first, export=None)
    record_write(records_db, f"r3{chat}", 90, _game_over(export), bare)
    assert queries.last_finished_game(records_db, chat) == f"r2{chat}"
    assert queries.last_finished_game(records_db, chat, topic_id=5) is None


def test_an_archived_game_names_its_chat_and_seats(records_db: Engine) -> None:
    """A replay of a game the engine has let go: its chat (whose members may watch it) and
    who sat where; a forgotten person's seat without them."""
    chat = -8_000_000_000 - random.randrange(10**6)
    export, facts = _finished()
    record_write(
        records_db, f"a1{chat}", 90, _game_over(export), dataclasses.replace(facts, chat_id=chat)
    )
    found = queries.archived_game(records_db, f"a1{chat}")
    assert found is not None
    assert (found.chat_id, found.variant, found.status) == (chat, "classic", "over")
    assert found.user_ids == (ANA, BO, None) and found.names == ("Ana", "Bo", "AI 1")
    queries.forget_user(records_db, BO)
    forgotten = queries.archived_game(records_db, f"a1{chat}")
    assert forgotten is not None and forgotten.user_ids[1] is None and forgotten.names[1] is None
    assert queries.archived_game(records_db, "never") is None
