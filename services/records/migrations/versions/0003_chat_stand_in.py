"""A chat's own AI level for the stand-in that decides for a player whose time ran out.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("chat_settings", sa.Column("stand_in", sa.String(length=16), nullable=True))


def downgrade() -> None:
    op.drop_column("chat_settings", "stand_in")
