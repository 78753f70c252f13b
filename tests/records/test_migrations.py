"""The migrations: every one up and down, on SQLite and on PostgreSQL, and the models they
build are exactly the ones the code uses."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

from services.records import migrate, prepare
from services.records.database import make_engine
from services.records.models import METADATA

TABLES = {t.name for t in METADATA.sorted_tables}


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_url(request: pytest.FixtureRequest, tmp_path: Path, database_url: str) -> str:
    """A database to migrate: a new SQLite file, or the test PostgreSQL taken down to
    nothing first (and left at the newest revision afterwards, as the other tests need)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'migrations.db'}"
    migrate.downgrade(database_url, "base")
    request.addfinalizer(lambda: migrate.upgrade(database_url))
    return database_url


def tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def current(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_every_migration_goes_up_and_down(bare_url: str) -> None:
    engine = make_engine(bare_url)
    try:
        assert tables(engine) == set()
        revisions = migrate.revisions()
        assert revisions, "no migrations found in the package"
        for revision in revisions:
            migrate.upgrade(bare_url, revision)
            assert current(engine) == revision
        assert tables(engine) == TABLES
        for previous in [*reversed(revisions[:-1]), "base"]:
            migrate.downgrade(bare_url, previous)
            assert current(engine) == (None if previous == "base" else previous)
        assert tables(engine) == set()
        migrate.upgrade(bare_url)  # and up again from nothing
        assert tables(engine) == TABLES
    finally:
        engine.dispose()


def test_the_migrations_build_the_models(bare_url: str) -> None:
    migrate.upgrade(bare_url)
    engine = make_engine(bare_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, METADATA) == []
    finally:
        engine.dispose()


def test_the_command_line_migrates(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    assert migrate.main(["--url", url, "upgrade"]) == 0
    engine = make_engine(url)
    try:
        assert tables(engine) == TABLES
        assert migrate.main(["--url", url, "downgrade", "base"]) == 0
        assert tables(engine) == set()
    finally:
        engine.dispose()


def test_the_newest_revision_read_without_alembic_is_alembics_head(tmp_path: Path) -> None:
    """services/records/prepare.py reads the head from the migrations' own lines, so that a
    service opening an up-to-date SQLite file need not load Alembic: the same head as
    Alembic's, and a file is up to date after an upgrade and only then."""
    script = ScriptDirectory.from_config(migrate.alembic_config())
    assert prepare.newest_revision() == script.get_current_head()
    url = f"sqlite:///{tmp_path / 'records.db'}"
    assert not prepare.is_up_to_date(url)  # no file yet
    migrate.upgrade(url, migrate.revisions()[0])
    assert prepare.sqlite_revision(url) == migrate.revisions()[0]
    assert not prepare.is_up_to_date(url)  # behind: the oldest revision only
    prepare.prepare_database(url)
    assert prepare.is_up_to_date(url)
