"""Alembic's environment for the records database (run by ``services.records.migrate``).

The URL comes from the Alembic config (``sqlalchemy.url``), which ``migrate.py`` sets from
``UNO_DATABASE_URL`` or its caller; a caller may hand over an open connection instead
(``config.attributes["connection"]``). SQLite changes tables in batch mode (it cannot alter
most of a table in place).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from services.records.database import make_engine
from services.records.models import METADATA

target_metadata = METADATA


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database URL: set sqlalchemy.url or UNO_DATABASE_URL")
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("offline (SQL script) migrations are not supported; run them online")
run_online()
