"""Each seat's rating change in the game, written with the ratings it moved.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("game_players", sa.Column("rating_change", sa.Float(), nullable=True))


def downgrade() -> None:
    op.drop_column("game_players", "rating_change")
