"""The bot's door to the records: statistics, boards, forgetting a user, chat settings.

Every function takes the SQLAlchemy ``Engine`` (``database.engine_for(settings.database_url)``)
and returns frozen values; none keeps a session open. [decision] The functions are
synchronous: the worker (Celery threads) and the migration command are synchronous, the
default SQLite database has no asynchronous driver without another dependency, and each
call is one to three indexed queries (a few milliseconds, ``bench/stats_load.py``). The bot
calls them in a thread, a hop that is small beside the query::

    stats = await asyncio.to_thread(queries.user_stats, engine, user_id, chat_id=chat_id)

Commands they serve (README.md "The bot's API"): /stats (``user_stats``), /top
(``leaderboard``), /forgetme (``forget_user``), /new and /settings (``chat_settings``,
``save_chat_settings``), and a user's language (``user_language``, ``save_user_language``).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sqlalchemy import Engine, delete, select, update
from sqlalchemy.orm import Session

from services.engine.game_export import expand
from services.engine.rules import DEFAULT_VARIANT, VARIANTS, Options, options_to_json
from services.engine.wire.schemas import TURN_SECONDS_RANGE, UNO_WINDOW_SECONDS_RANGE
from services.records.database import insert_for as _insert
from services.records.database import rowcount, transaction
from services.records.models import (
    ARCHIVED_SEATS,
    ARCHIVES,
    CHAT_SETTINGS,
    GAMES,
    PLAYERS,
    RATINGS,
    STANDINGS,
    USERS,
    User,
    utcnow,
)
from services.records.ratings import NEW_PLAYER

#: Most rows a board returns.
MAX_BOARD = 50
#: The AI levels a chat may have decide for a player whose time ran out (the engine's
#: ``AiLevel`` names; the bot offers ``strong`` and ``hard``).
STAND_IN_LEVELS = ("strong", "hard", "random", "first-legal")
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")


class InvalidSetting(ValueError):
    """A setting out of bounds; ``setting`` names it. Nothing was written."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


# -- /stats -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VariantRecord:
    """A player's record in one variant: globally (with the rating) or in one chat."""

    variant: str
    games: int
    wins: int
    points: int
    #: The conservative rating (mu - 3 sigma) boards sort by; ``mu``/``sigma`` behind it.
    rating: float
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class UserStats:
    user_id: int
    name: str | None
    is_ai: bool
    hidden: bool
    #: Every variant played, most games first, with the rating.
    variants: tuple[VariantRecord, ...]
    #: The same in the chat asked about (``chat_id``), with the player's global rating.
    in_chat: tuple[VariantRecord, ...] = ()

    @property
    def games(self) -> int:
        return sum(v.games for v in self.variants)

    @property
    def wins(self) -> int:
        return sum(v.wins for v in self.variants)


def user_stats(engine: Engine, user_id: int, *, chat_id: int | None = None) -> UserStats | None:
    """A player's record per variant (and in ``chat_id``), or ``None`` for a user with no
    record at all (never finished a game, or forgotten and not played since)."""
    with Session(engine) as session:
        user = session.get(User, user_id)
        if user is None:
            return None
        skill = {
            row.variant: row
            for row in session.execute(select(RATINGS).where(RATINGS.c.user_id == user_id))
        }
        variants = _by_games(
            VariantRecord(r.variant, r.games, r.wins, r.points, r.ordinal, r.mu, r.sigma)
            for r in skill.values()
        )
        in_chat: tuple[VariantRecord, ...] = ()
        if chat_id is not None:
            standings = session.execute(
                select(STANDINGS).where(
                    STANDINGS.c.chat_id == chat_id, STANDINGS.c.user_id == user_id
                )
            )
            records = []
            for s in standings:
                # The player's rating row (it holds its ordinal), else a newcomer's.
                r = skill.get(s.variant)
                rated = r if r is not None else NEW_PLAYER
                records.append(
                    VariantRecord(
                        s.variant, s.games, s.wins, s.points, rated.ordinal, rated.mu, rated.sigma
                    )
                )
            in_chat = _by_games(records)
        if not variants and not in_chat and user.forgotten_at is not None:
            return None
        return UserStats(user.id, user.name, user.is_ai, user.hidden, variants, in_chat)


def _by_games(records: Iterable[VariantRecord]) -> tuple[VariantRecord, ...]:
    return tuple(sorted(records, key=lambda v: (-v.games, v.variant)))


# -- /top ---------------------------------------------------------------------------------


class BoardOrder(StrEnum):
    RATING = "rating"  # the conservative rating, highest first
    WINS = "wins"  # games won, highest first (fewer games played first on a tie)


@dataclass(frozen=True, slots=True)
class BoardEntry:
    place: int  # 1-based
    user_id: int
    name: str | None
    is_ai: bool
    games: int
    wins: int
    points: int
    rating: float


def leaderboard(
    engine: Engine,
    variant: str,
    *,
    by: BoardOrder = BoardOrder.RATING,
    chat_id: int | None = None,
    limit: int = 10,
) -> list[BoardEntry]:
    """The best players of a variant: in one chat (every game played there, all its topics)
    or, without ``chat_id``, everywhere (users who asked to be hidden left out). AI levels
    are ranked beside people. Wins and games are the chat's own on a chat board; the
    rating is always the player's one rating in the variant."""
    limit = max(1, min(limit, MAX_BOARD))
    if chat_id is None:
        board = (
            select(
                RATINGS.c.user_id,
                RATINGS.c.games,
                RATINGS.c.wins,
                RATINGS.c.points,
                RATINGS.c.ordinal,
            )
            .join_from(RATINGS, USERS, USERS.c.id == RATINGS.c.user_id)
            .where(RATINGS.c.variant == variant, USERS.c.hidden.is_(False))
        )
    else:
        # [decision] The chat's players first (its standings, by index), then their ratings
        # by key: a chat has at most some thousands of players. Left to itself, PostgreSQL
        # walks the whole variant's rating index looking for the chat's players instead.
        members = (
            select(STANDINGS.c.user_id, STANDINGS.c.games, STANDINGS.c.wins, STANDINGS.c.points)
            .where(STANDINGS.c.chat_id == chat_id, STANDINGS.c.variant == variant)
            .cte("members")
            .prefix_with("MATERIALIZED")
        )
        board = select(
            members.c.user_id,
            members.c.games,
            members.c.wins,
            members.c.points,
            RATINGS.c.ordinal,
        ).join_from(
            members,
            RATINGS,
            (RATINGS.c.user_id == members.c.user_id) & (RATINGS.c.variant == variant),
        )
    top = board.order_by(*_board_order(board.selected_columns, by)).limit(limit).subquery()
    # Names only for the rows shown.
    query = (
        select(
            USERS.c.id,
            USERS.c.name,
            USERS.c.is_ai,
            top.c.games,
            top.c.wins,
            top.c.points,
            top.c.ordinal,
        )
        .join_from(top, USERS, USERS.c.id == top.c.user_id)
        .order_by(*_board_order(top.c, by))
    )
    with Session(engine) as session:
        rows = session.execute(query).all()
    return [
        BoardEntry(place, row[0], row[1], row[2], row[3], row[4], row[5], row[6])
        for place, row in enumerate(rows, start=1)
    ]


def last_variant(engine: Engine, chat_id: int) -> str | None:
    """The variant of the chat's last game won (its boards' newest news); None before any."""
    query = (
        select(GAMES.c.variant)
        .where(GAMES.c.chat_id == chat_id, GAMES.c.status == "over", GAMES.c.variant.is_not(None))
        .order_by(GAMES.c.finished_at.desc())
        .limit(1)
    )
    with Session(engine) as session:
        variant = session.execute(query).scalar_one_or_none()
    return str(variant) if variant is not None else None


def _board_order(columns: Any, by: BoardOrder) -> list[Any]:
    if by is BoardOrder.RATING:
        return [columns.ordinal.desc(), columns.user_id]
    return [columns.wins.desc(), columns.games, columns.user_id]


# -- /forgetme ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What ``forget_user`` removed."""

    results: int  # game results no longer linked to the user
    ratings: int  # ratings deleted (one per variant)
    standings: int  # chat standings deleted
    archived_seats: int = 0  # seats of archived games made anonymous


def forget_user(engine: Engine, user_id: int) -> Forgotten:
    """Delete what the records say about a user and hide them from the global boards.

    Their ratings, chat standings, name and language go; their seats in past games stay
    (the other players' results need them) but no longer say who sat there. Games they
    finish later are recorded again, still hidden from the global boards. All or nothing."""
    with transaction(engine) as session:
        results = rowcount(
            session.execute(
                update(PLAYERS).where(PLAYERS.c.user_id == user_id).values(user_id=None, name=None)
            )
        )
        # The archived games stay (the other players' replays need them); the seat no
        # longer says who sat there, nor under which name.
        archived = rowcount(
            session.execute(
                update(ARCHIVED_SEATS)
                .where(ARCHIVED_SEATS.c.user_id == user_id)
                .values(user_id=None, name=None)
            )
        )
        ratings = rowcount(session.execute(delete(RATINGS).where(RATINGS.c.user_id == user_id)))
        standings = rowcount(
            session.execute(delete(STANDINGS).where(STANDINGS.c.user_id == user_id))
        )
        now = utcnow()
        session.execute(
            _insert(session, USERS)
            .values(id=user_id, is_ai=False, hidden=True, forgotten_at=now, updated_at=now)
            .on_conflict_do_update(
                index_elements=["id"],
                set_={
                    "name": None,
                    "language": None,
                    "hidden": True,
                    "forgotten_at": now,
                    "updated_at": now,
                },
            )
        )
    return Forgotten(results=results, ratings=ratings, standings=standings, archived_seats=archived)


# -- replays ------------------------------------------------------------------------------


def last_finished_game(engine: Engine, chat_id: int, topic_id: int = 0) -> str | None:
    """The id of the chat's (forum topic's) last game that was dealt and finished, won or
    ended early, and archived (``/replay``: a game ended in its lobby, or made from a test
    set-up, has nothing to replay); None before any."""
    query = (
        select(GAMES.c.id)
        .where(
            GAMES.c.chat_id == chat_id,
            GAMES.c.topic_id == topic_id,
            GAMES.c.status.in_(("over", "ended")),
            GAMES.c.finished_at.is_not(None),
            GAMES.c.id.in_(select(ARCHIVES.c.game_id)),
        )
        .order_by(GAMES.c.finished_at.desc())
        .limit(1)
    )
    with Session(engine) as session:
        found = session.execute(query).scalar_one_or_none()
    return str(found) if found is not None else None


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """What the records know of an archived game besides its history: its chat (whose
    members may watch its replay), how it ended, and who sat where (``user_ids`` None for
    an AI or a forgotten person, ``names`` None for a forgotten one)."""

    game_id: str
    chat_id: int
    topic_id: int
    variant: str
    status: str
    user_ids: tuple[int | None, ...]
    names: tuple[str | None, ...]


def archived_game(engine: Engine, game_id: str) -> ArchivedGame | None:
    """The archived game ``game_id`` (a replay of a game the engine no longer holds), or
    None: never finished, not archived, or purged."""
    with Session(engine) as session:
        found = session.execute(
            select(GAMES.c.chat_id, GAMES.c.topic_id, GAMES.c.variant, GAMES.c.status).where(
                GAMES.c.id == game_id, GAMES.c.id.in_(select(ARCHIVES.c.game_id))
            )
        ).first()
        if found is None or found.chat_id is None:
            return None
        seats = session.execute(
            select(ARCHIVED_SEATS.c.seat, ARCHIVED_SEATS.c.user_id, ARCHIVED_SEATS.c.name)
            .where(ARCHIVED_SEATS.c.game_id == game_id)
            .order_by(ARCHIVED_SEATS.c.seat)
        ).all()
    return ArchivedGame(
        game_id=game_id,
        chat_id=int(found.chat_id),
        topic_id=int(found.topic_id),
        variant=str(found.variant),
        status=str(found.status),
        user_ids=tuple(s.user_id for s in seats),
        names=tuple(s.name for s in seats),
    )


def game_export(engine: Engine, game_id: str) -> dict[str, Any] | None:
    """The export of an archived game (docs/EXPORT.md), written out again from its archive
    with its seats' names (None for a forgotten one); None when the game is not archived
    (never finished, made from a test set-up, or purged after ``UNO_ARCHIVE_DAYS``)."""
    with Session(engine) as session:
        history = session.execute(
            select(ARCHIVES.c.history).where(ARCHIVES.c.game_id == game_id)
        ).scalar_one_or_none()
        if history is None:
            return None
        names = dict(
            session.execute(
                select(ARCHIVED_SEATS.c.seat, ARCHIVED_SEATS.c.name).where(
                    ARCHIVED_SEATS.c.game_id == game_id
                )
            ).all()
        )
    kept = json.loads(zlib.decompress(history))
    return expand(game_id, kept, [names.get(i) for i in range(len(kept["ai"]))])


def rating_changes(engine: Engine, game_id: str) -> dict[int, float]:
    """How much the game moved each seat's player's rating (ordinal), by seat: empty until
    its end is recorded, or when it was not rated."""
    with Session(engine) as session:
        rows = session.execute(
            select(PLAYERS.c.seat, PLAYERS.c.rating_change).where(
                PLAYERS.c.game_id == game_id, PLAYERS.c.rating_change.is_not(None)
            )
        ).all()
    return {int(r.seat): float(r.rating_change) for r in rows}


# -- users' language ----------------------------------------------------------------------


def user_language(engine: Engine, user_id: int) -> str | None:
    with Session(engine) as session:
        user = session.get(User, user_id)
        return user.language if user is not None else None


def save_user_language(engine: Engine, user_id: int, language: str | None) -> None:
    _check_language(language)
    now = utcnow()
    with transaction(engine) as session:
        session.execute(
            _insert(session, USERS)
            .values(id=user_id, language=language, is_ai=False, hidden=False, updated_at=now)
            .on_conflict_do_update(
                index_elements=["id"], set_={"language": language, "updated_at": now}
            )
        )


# -- /new and /settings -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat's (or topic's) preferences for new games, as the bot passes them to the
    engine: ``EngineClient.create_game(variant=s.variant, turn_seconds=s.turn_seconds,
    uno_window_seconds=s.uno_window_seconds, rules=s.rules)``. ``None`` means the service's
    own default (``UNO_TURN_SECONDS``, ``UNO_UNO_WINDOW_SECONDS``; the bot's default
    language)."""

    variant: str = DEFAULT_VARIANT
    turn_seconds: int | None = None
    uno_window_seconds: int | None = None
    #: House rules, the scoring (``alternate_scoring``) and the target score included.
    rules: Options = field(default_factory=Options)
    language: str | None = None
    #: The AI level of the stand-in for a player whose time ran out; None: the worker's own.
    stand_in: str | None = None

    def check(self) -> None:
        """Raise ``InvalidSetting`` for a value out of bounds."""
        if self.variant not in VARIANTS:
            known = ", ".join(sorted(VARIANTS))
            raise InvalidSetting("variant", f"no variant {self.variant!r} (known: {known})")
        # The bounds the engine takes (schemas.TurnSeconds, schemas.UnoWindowSeconds).
        _check_range("turn_seconds", self.turn_seconds, TURN_SECONDS_RANGE)
        _check_range("uno_window_seconds", self.uno_window_seconds, UNO_WINDOW_SECONDS_RANGE)
        target = self.rules.target_score
        if target is not None and not 1 <= target <= 1_000_000:
            raise InvalidSetting("target_score", "the target score must be 1 to 1,000,000")
        _check_language(self.language)
        if self.stand_in is not None and self.stand_in not in STAND_IN_LEVELS:
            known = ", ".join(STAND_IN_LEVELS)
            raise InvalidSetting("stand_in", f"no AI level {self.stand_in!r} (known: {known})")


def chat_settings(engine: Engine, chat_id: int, topic_id: int = 0) -> ChatSettings:
    """The settings a new game in this chat (forum topic) starts with: the topic's own,
    else the chat's, else the defaults, setting by setting."""
    with Session(engine) as session:
        rows = session.execute(
            select(CHAT_SETTINGS).where(
                CHAT_SETTINGS.c.chat_id == chat_id, CHAT_SETTINGS.c.topic_id.in_({0, topic_id})
            )
        )
        by_topic = {row.topic_id: row for row in rows}
    layers = [row for row in (by_topic.get(topic_id), by_topic.get(0)) if row is not None]

    def pick(name: str) -> Any:
        for row in layers:
            value = getattr(row, name)
            if value is not None:
                return value
        return None

    rules = pick("rules")
    return ChatSettings(
        variant=pick("variant") or DEFAULT_VARIANT,
        turn_seconds=pick("turn_seconds"),
        uno_window_seconds=pick("uno_window_seconds"),
        rules=_options(rules) if rules is not None else Options(),
        language=pick("language"),
        stand_in=pick("stand_in"),
    )


def save_chat_settings(
    engine: Engine, chat_id: int, settings: ChatSettings, topic_id: int = 0
) -> ChatSettings:
    """Store ``settings`` as the chat's (``topic_id`` 0) or the topic's own, whole. Raises
    ``InvalidSetting`` (and writes nothing) for a value out of bounds."""
    settings.check()
    values = {
        "variant": settings.variant,
        "turn_seconds": settings.turn_seconds,
        "uno_window_seconds": settings.uno_window_seconds,
        "rules": options_to_json(settings.rules),
        "language": settings.language,
        "stand_in": settings.stand_in,
        "updated_at": utcnow(),
    }
    with transaction(engine) as session:
        session.execute(
            _insert(session, CHAT_SETTINGS)
            .values(chat_id=chat_id, topic_id=topic_id, **values)
            .on_conflict_do_update(index_elements=["chat_id", "topic_id"], set_=values)
        )
    return settings


def _options(stored: dict[str, Any]) -> Options:
    known = {k: v for k, v in stored.items() if k in Options.__dataclass_fields__}
    return Options(**known)


def _check_range(name: str, value: int | None, bounds: tuple[int, int]) -> None:
    if value is not None and not bounds[0] <= value <= bounds[1]:
        raise InvalidSetting(name, f"{name} must be {bounds[0]} to {bounds[1]} seconds")


def _check_language(language: str | None) -> None:
    if language is not None and not _LANGUAGE.match(language):
        raise InvalidSetting("language", f"not a language tag: {language!r}")
