"""A records database emptied between tests, on SQLite or PostgreSQL alike."""

from __future__ import annotations

from sqlalchemy import Engine, text

from services.records.models import METADATA


def empty_tables(engine: Engine) -> None:
    """Every row of every records table gone; the schema stays."""
    names = [t.name for t in reversed(METADATA.sorted_tables)]
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text(f"TRUNCATE {', '.join(names)} CASCADE"))
        else:
            for name in names:
                connection.execute(text(f"DELETE FROM {name}"))
