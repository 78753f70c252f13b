"""Fixtures of the deployment tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql


@pytest.fixture
def fresh_database(database_url: str) -> Iterator[str]:
    """SQLAlchemy URL of a new, empty database on the test PostgreSQL, dropped afterwards."""
    admin_url = database_url.replace("postgresql+psycopg://", "postgresql://", 1)
    name = f"uno_deploy_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield database_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
