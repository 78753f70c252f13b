"""The tables of what outlasts a game: users, chat settings, games, rounds, results, ratings.

Live games are the engine's, in Redis, and expire; these rows are written from the engine's
event log by the worker (``writer.py``) and read by the bot (``queries.py``). The schema is
created and changed only by the Alembic migrations in ``migrations/`` (``python -m
services.records.migrate upgrade``); ``tests/records/test_migrations.py`` checks that the
migrations build exactly these models.

Identifiers are the outside world's: a user's Telegram id, a chat's Telegram id (and forum
topic, 0 for none), the engine's game id. [decision] AI players are rated too, so each AI
level is a row of ``users`` with a fixed negative id (``AI_USER_IDS``; Telegram's user ids
are positive): results, ratings and boards then treat every seat alike.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Index, LargeBinary, Table
from sqlmodel import Field, SQLModel

#: The rating subject of each AI level: a ``users`` row with this id, created on first use.
AI_USER_IDS: dict[str, int] = {"strong": -1, "random": -2, "first-legal": -3}
AI_LEVEL_OF: dict[int, str] = {user_id: level for level, user_id in AI_USER_IDS.items()}


def utcnow() -> datetime:
    return datetime.now(UTC)


def _when(**kwargs: Any) -> Any:
    return Field(default_factory=utcnow, sa_type=DateTime(timezone=True), **kwargs)


class User(SQLModel, table=True):
    """A Telegram user who finished a game, set a preference, or one AI level."""

    __tablename__ = "users"

    id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    name: str | None = Field(default=None, max_length=128)
    language: str | None = Field(default=None, max_length=16)
    is_ai: bool = False
    #: Left out of the global boards (set by /forgetme, which also deletes their records).
    hidden: bool = False
    forgotten_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    updated_at: datetime = _when()


class ChatSetting(SQLModel, table=True):
    """A chat's (``topic_id`` 0) or one forum topic's preferences; ``None`` inherits.

    A topic's row falls back to its chat's row, which falls back to the defaults
    (``queries.chat_settings``)."""

    __tablename__ = "chat_settings"

    chat_id: int = Field(
        sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False}
    )
    topic_id: int = Field(
        default=0, sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False}
    )
    variant: str | None = Field(default=None, max_length=32)
    turn_seconds: int | None = None
    uno_window_seconds: int | None = None
    #: The house rules that differ from the defaults, as the engine writes them
    #: (``rules.options_to_json``): scoring (``alternate_scoring``) and ``target_score`` too.
    rules: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    language: str | None = Field(default=None, max_length=16)
    #: The AI level that decides for a player whose time ran out (``None``: the worker's
    #: ``UNO_STAND_IN_POLICY``, ``strong`` by default).
    stand_in: str | None = Field(default=None, max_length=16)
    updated_at: datetime = _when()


class Game(SQLModel, table=True):
    """One game the engine ran: ``playing`` until its end is recorded, then ``over`` (won,
    with results and ratings) or ``ended`` (ended early or abandoned: no results)."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_chat_variant_finished", "chat_id", "variant", "finished_at"),)

    id: str = Field(primary_key=True, max_length=64)
    chat_id: int | None = Field(default=None, sa_type=BigInteger)
    topic_id: int = Field(default=0, sa_type=BigInteger)
    variant: str | None = Field(default=None, max_length=32)
    status: str = Field(default="playing", max_length=16)
    rounds: int = 0
    winner_seat: int | None = None
    #: The engine's version of the write that ended the game.
    final_version: int | None = None
    created_at: datetime = _when()
    finished_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))


class Round(SQLModel, table=True):
    """One scored round (the engine's ``round_ended``); per seat, in seat order."""

    __tablename__ = "rounds"

    game_id: str = Field(
        foreign_key="games.id", primary_key=True, max_length=64, ondelete="CASCADE"
    )
    number: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    winner_seat: int
    #: The points left in each seat's hand at the round's end.
    hand_points: list[int] = Field(sa_type=JSON)
    #: Each seat's game score after the round.
    scores: list[int] = Field(sa_type=JSON)
    version: int
    ended_at: datetime = _when()


class GamePlayer(SQLModel, table=True):
    """One seat's record in one game. Tallies (stand-in moves, knock-outs) grow while the
    game runs; the result (score, place, who sat there) is filled in when it is won.
    ``user_id`` is cleared when that user asks to be forgotten."""

    __tablename__ = "game_players"
    __table_args__ = (Index("ix_game_players_user", "user_id"),)

    game_id: str = Field(
        foreign_key="games.id", primary_key=True, max_length=64, ondelete="CASCADE"
    )
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int | None = Field(
        default=None, sa_type=BigInteger, foreign_key="users.id", ondelete="SET NULL"
    )
    name: str | None = Field(default=None, max_length=128)
    #: The AI level of an AI seat; ``None`` for a human.
    ai: str | None = Field(default=None, max_length=16)
    score: int | None = None
    place: int | None = None
    won: bool = False
    #: Rounds in which this seat was knocked out (No Mercy's mercy rule).
    knocked_out: int = 0
    #: Moves a stand-in made for this (human) seat after a missed deadline.
    stand_in_moves: int = 0
    #: How much this game moved the seat's player's rating (its ordinal) in the variant;
    #: ``None``: the game was not rated. What the Mini App's end shows each person.
    rating_change: float | None = None


class RecordedWrite(SQLModel, table=True):
    """The engine writes (game, version) whose events are in these tables already.

    Inserted in the same transaction as their effects: a replayed or redelivered entry of
    the event log finds its key taken and changes nothing, and of two workers writing one
    entry at once, the second waits for the first and then finds the key. Keys older than
    the event log can hold are deleted (``writer.prune_recorded_writes``), by
    ``recorded_at``."""

    __tablename__ = "recorded_writes"
    __table_args__ = (Index("ix_recorded_writes_recorded_at", "recorded_at"),)

    game_id: str = Field(primary_key=True, max_length=64)
    version: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    recorded_at: datetime = _when()


class Rating(SQLModel, table=True):
    """A player's Weng-Lin rating in one variant, with their totals there.

    ``ordinal`` (mu - 3 sigma, what the boards sort by) is stored so an index can serve
    "the best rated in this variant"."""

    __tablename__ = "ratings"
    __table_args__ = (
        Index("ix_ratings_variant_ordinal", "variant", "ordinal"),
        Index("ix_ratings_variant_wins", "variant", "wins"),
    )

    user_id: int = Field(
        sa_type=BigInteger, foreign_key="users.id", primary_key=True, ondelete="CASCADE"
    )
    variant: str = Field(primary_key=True, max_length=32)
    mu: float
    sigma: float
    ordinal: float
    games: int = 0
    wins: int = 0
    points: int = 0
    updated_at: datetime = _when()


class ChatStanding(SQLModel, table=True):
    """A player's totals in one chat and variant (all its topics): the chat's boards."""

    __tablename__ = "chat_standings"
    __table_args__ = (
        Index("ix_chat_standings_board", "chat_id", "variant", "wins"),
        Index("ix_chat_standings_user", "user_id"),
    )

    chat_id: int = Field(
        sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False}
    )
    variant: str = Field(primary_key=True, max_length=32)
    user_id: int = Field(
        sa_type=BigInteger, foreign_key="users.id", primary_key=True, ondelete="CASCADE"
    )
    games: int = 0
    wins: int = 0
    points: int = 0


class GameArchive(SQLModel, table=True):
    """A finished game's history, for its export (docs/EXPORT.md): each round's seed and
    every move (``game_export.compact``: no names), JSON deflated by zlib. Kept
    ``UNO_ARCHIVE_DAYS`` from ``archived_at``, then purged by the worker."""

    __tablename__ = "game_archives"
    __table_args__ = (Index("ix_game_archives_archived_at", "archived_at"),)

    game_id: str = Field(primary_key=True, max_length=64)
    format: int
    rounds: int
    history: bytes = Field(sa_type=LargeBinary)
    archived_at: datetime = _when()


class ArchivedSeat(SQLModel, table=True):
    """Who sat in a seat of an archived game: the user (None: an AI, or forgotten by
    /forgetme) and the name shown; the game stays, the seat anonymous once forgotten."""

    __tablename__ = "archived_seats"
    __table_args__ = (Index("ix_archived_seats_user_id", "user_id"),)

    game_id: str = Field(primary_key=True, max_length=64)
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int | None = Field(default=None, sa_type=BigInteger)
    name: str | None = Field(default=None, max_length=128)


def table_of(model: type[SQLModel]) -> Table:
    """The Core table behind a model, for statements that need its columns (``.c``)."""
    table = model.__table__  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


USERS = table_of(User)
CHAT_SETTINGS = table_of(ChatSetting)
GAMES = table_of(Game)
ROUNDS = table_of(Round)
PLAYERS = table_of(GamePlayer)
RECORDED_WRITES = table_of(RecordedWrite)
RATINGS = table_of(Rating)
STANDINGS = table_of(ChatStanding)
ARCHIVES = table_of(GameArchive)
ARCHIVED_SEATS = table_of(ArchivedSeat)

#: Every table above: what the migrations must build (Alembic's ``target_metadata``).
METADATA = SQLModel.metadata
