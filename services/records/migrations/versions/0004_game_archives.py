"""Finished games' archives (each round's seed and every move) and who sat in their seats.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_archives",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("history", sa.LargeBinary(), nullable=False),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_game_archives_archived_at", "game_archives", ["archived_at"])
    op.create_table(
        "archived_seats",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(length=128), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("ix_archived_seats_user_id", "archived_seats", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_archived_seats_user_id", table_name="archived_seats")
    op.drop_table("archived_seats")
    op.drop_index("ix_game_archives_archived_at", table_name="game_archives")
    op.drop_table("game_archives")
