"""Fixtures for the records tests: a migrated database on SQLite (a file) and on the real
PostgreSQL (``UNO_TEST_DATABASE_URL``), emptied before each test.

``records_db`` runs a test once per backend. The schema comes from the migrations, once a
session per backend; each test starts from empty tables.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from services.records.database import make_engine
from services.records.migrate import upgrade
from tests.helpers.records_db import empty_tables

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("records") / "records.db"
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def backend_urls(sqlite_url: str, database_url: str) -> dict[str, str]:
    return {"sqlite": sqlite_url, "postgresql": database_url}


@pytest.fixture(scope="session")
def migrated_engines(backend_urls: dict[str, str]) -> Iterator[dict[str, Engine]]:
    engines: dict[str, Engine] = {}
    for name, url in backend_urls.items():
        upgrade(url)
        engines[name] = make_engine(url)
    yield engines
    for engine in engines.values():
        engine.dispose()


@pytest.fixture(params=BACKENDS)
def records_db(request: pytest.FixtureRequest, migrated_engines: dict[str, Engine]) -> Engine:
    """A migrated, empty records database: SQLite, then PostgreSQL."""
    engine = migrated_engines[request.param]
    empty_tables(engine)
    return engine
