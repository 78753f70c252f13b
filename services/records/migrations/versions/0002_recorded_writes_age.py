"""Index recorded_writes by recorded_at, so the keys old enough to go are found by index.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_recorded_writes_recorded_at", "recorded_writes", ["recorded_at"])


def downgrade() -> None:
    op.drop_index("ix_recorded_writes_recorded_at", table_name="recorded_writes")
