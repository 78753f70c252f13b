"""The records database as a service opens it at start (the worker, the bot).

[decision] A SQLite file (the local default) is migrated here, so a playground needs no
step; any other database is migrated by the deployment (``python -m
services.records.migrate upgrade``) before the services start. A SQLite file already at the
newest revision is opened as it is: its revision and the newest one are read without
loading Alembic, which would cost every start a few tenths of a second of CPU (``make
play`` starts five processes at once on two cores) to find nothing to do.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path

from sqlalchemy import Engine, make_url

from services.records.database import engine_for, is_sqlite

#: Where the migrations are (services/records/migrations/versions).
VERSIONS = Path(__file__).with_name("migrations") / "versions"
_REVISION = re.compile(r'^revision: str = "([^"]+)"$', re.MULTILINE)
_DOWN_REVISION = re.compile(r'^down_revision: str \| None = "([^"]+)"$', re.MULTILINE)

log = logging.getLogger(__name__)


def newest_revision(versions: Path = VERSIONS) -> str | None:
    """The head revision, read from the migrations' own ``revision``/``down_revision``
    lines: the one no other revises. None when that is not one revision (a branch, or a
    file written otherwise): then only Alembic can tell."""
    revisions: set[str] = set()
    revised: set[str] = set()
    for script in versions.glob("*.py"):
        text = script.read_text()
        revisions.update(_REVISION.findall(text))
        revised.update(_DOWN_REVISION.findall(text))
    heads = revisions - revised
    return heads.pop() if len(heads) == 1 else None


def sqlite_revision(url: str) -> str | None:
    """The revision a SQLite file is at (Alembic's ``alembic_version`` table); None when
    there is no such file or table yet."""
    database = make_url(url).database
    if not database or database == ":memory:" or not Path(database).is_file():
        return None
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
            rows = connection.execute("select version_num from alembic_version").fetchall()
    except sqlite3.Error:
        return None
    return str(rows[0][0]) if len(rows) == 1 else None


def is_up_to_date(url: str) -> bool:
    """Is the SQLite file at ``url`` at the newest revision already?"""
    newest = newest_revision()
    return newest is not None and sqlite_revision(url) == newest


def prepare_database(url: str) -> Engine:
    """The records database for a service that reads or writes it; a SQLite file behind
    the newest revision is migrated first (see the module's decision)."""
    if is_sqlite(url) and not is_up_to_date(url):
        # Alembic is loaded only when there is something to migrate.
        from services.records.migrate import upgrade

        try:
            upgrade(url)
        except Exception:
            log.exception("could not migrate the records database %s", url)
    return engine_for(url)
