"""Create or change the records database's schema: the deployment's migration step.

    python -m services.records.migrate upgrade [REV]     # to REV, default: the newest (head)
    python -m services.records.migrate downgrade REV     # back to REV (``base``: nothing)
    python -m services.records.migrate current           # the revision the database is at
    python -m services.records.migrate revision -m "what changes" [--autogenerate]
                                                         # a new migration (developers)

The database is ``UNO_DATABASE_URL`` unless ``--url`` names another. The migrations live in
this package (``migrations/``), so an installed image carries them and needs no
``alembic.ini``.
"""

from __future__ import annotations

import argparse
import logging
import sys

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from services.config import get_settings
from services.logs import configure_logging

SCRIPT_LOCATION = "services.records:migrations"

log = logging.getLogger(__name__)


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    """Alembic's configuration for this package's migrations, on ``url`` or an open
    ``connection``."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if url is not None:
        # ConfigParser reads "%" as interpolation; a password may hold one.
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m services.records.migrate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--url", help="database URL (default: UNO_DATABASE_URL)")
    sub = parser.add_subparsers(dest="action", required=True)
    up = sub.add_parser("upgrade", help="migrate up to REV (default: head)")
    up.add_argument("revision", nargs="?", default="head")
    down = sub.add_parser("downgrade", help="migrate down to REV (base: drop everything)")
    down.add_argument("revision")
    sub.add_parser("current", help="print the revision the database is at")
    new = sub.add_parser("revision", help="write a new migration into migrations/versions/")
    new.add_argument("-m", "--message", required=True)
    new.add_argument(
        "--autogenerate",
        action="store_true",
        help="fill it with the difference between models.py and the database (at head)",
    )
    args = parser.parse_args(argv)

    configure_logging("migrate")
    url = args.url or get_settings().database_url
    if args.action == "upgrade":
        upgrade(url, args.revision)
    elif args.action == "downgrade":
        downgrade(url, args.revision)
    elif args.action == "revision":
        command.revision(alembic_config(url), message=args.message, autogenerate=args.autogenerate)
    else:
        command.current(alembic_config(url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
