"""Connecting to the records database: one SQLAlchemy engine per process and URL.

``UNO_DATABASE_URL`` names it: a SQLite file by default (``sqlite:///./uno.db``), PostgreSQL
in production (``postgresql+psycopg://user@host:5432/uno``). The schema comes from the
migrations (``migrate.py``), never from ``create_all``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, cast

from sqlalchemy import CursorResult, Engine, Result, Table, create_engine, event
from sqlalchemy.orm import Session

#: How long a SQLite writer waits for another one's transaction before giving up.
SQLITE_BUSY_SECONDS = 30.0


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str, **kwargs: Any) -> Engine:
    """A new engine for ``url``. SQLite gets foreign keys switched on and WAL journaling
    (readers do not wait for the writer); PostgreSQL a pool that checks its connections."""
    if is_sqlite(url):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS},
            **kwargs,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


@cache
def engine_for(url: str) -> Engine:
    """The process-wide engine for ``url`` (engines hold the connection pool)."""
    return make_engine(url)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work is committed when the block ends, or rolled back entirely when
    it raises: nothing is ever half-written."""
    with Session(engine) as session, session.begin():
        yield session


def dialect_insert(dialect: str) -> Callable[[Table], Any]:
    """The INSERT of a dialect (by name), which has ON CONFLICT (SQLite's and PostgreSQL's
    both do; SQLAlchemy's generic one does not). The dialect's module is the one the
    engine has loaded already: a SQLite process never loads PostgreSQL's, a good part of
    SQLAlchemy's import time."""
    name = "postgresql" if dialect == "postgresql" else "sqlite"
    insert: Callable[[Table], Any] = importlib.import_module(f"sqlalchemy.dialects.{name}").insert
    return insert


def insert_for(session: Session, table: Table) -> Any:
    """The INSERT of the session's dialect (``dialect_insert``)."""
    return dialect_insert(session.get_bind().dialect.name)(table)


def rowcount(result: Result[Any]) -> int:
    """Rows an INSERT, UPDATE or DELETE touched."""
    return cast(CursorResult[Any], result).rowcount
