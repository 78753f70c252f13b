"""Users, chat settings, games, rounds, per-player results, ratings and chat standings.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=128), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("is_ai", sa.Boolean(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        _when("forgotten_at", nullable=True),
        _when("updated_at"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "chat_settings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("topic_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=True),
        sa.Column("turn_seconds", sa.Integer(), nullable=True),
        sa.Column("uno_window_seconds", sa.Integer(), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=True),
        _when("updated_at"),
        sa.PrimaryKeyConstraint("chat_id", "topic_id"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=True),
        sa.Column("topic_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("winner_seat", sa.Integer(), nullable=True),
        sa.Column("final_version", sa.Integer(), nullable=True),
        _when("created_at"),
        _when("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_games_chat_variant_finished", "games", ["chat_id", "variant", "finished_at"]
    )
    op.create_table(
        "rounds",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("winner_seat", sa.Integer(), nullable=False),
        sa.Column("hand_points", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _when("ended_at"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "number"),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(length=128), nullable=True),
        sa.Column("ai", sa.String(length=16), nullable=True),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("knocked_out", sa.Integer(), nullable=False),
        sa.Column("stand_in_moves", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("ix_game_players_user", "game_players", ["user_id"])
    op.create_table(
        "recorded_writes",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), autoincrement=False, nullable=False),
        _when("recorded_at"),
        sa.PrimaryKeyConstraint("game_id", "version"),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        _when("updated_at"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "variant"),
    )
    op.create_index("ix_ratings_variant_ordinal", "ratings", ["variant", "ordinal"])
    op.create_index("ix_ratings_variant_wins", "ratings", ["variant", "wins"])
    op.create_table(
        "chat_standings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("chat_id", "variant", "user_id"),
    )
    op.create_index("ix_chat_standings_board", "chat_standings", ["chat_id", "variant", "wins"])
    op.create_index("ix_chat_standings_user", "chat_standings", ["user_id"])


def downgrade() -> None:
    # Dropping a table drops its indexes; children before their parents.
    for table in (
        "chat_standings",
        "ratings",
        "recorded_writes",
        "game_players",
        "rounds",
        "games",
        "chat_settings",
        "users",
    ):
        op.drop_table(table)
