"""A finished game's export (docs/EXPORT.md): each round's seed and commitment, its deal and
every move, for anyone to replay and check with ``python -m services.engine.verify``."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from services.engine import game_export
from services.engine.context import Context
from services.engine.game_record import GameError, GameRecord, GameStatus
from services.engine.responses import json_response
from services.engine.routes import GameId, errors

router = APIRouter(tags=["export"])


def export_of(record: GameRecord) -> dict[str, Any]:
    """The export of a finished game; 409 while it is still in its lobby or in play (its
    hidden cards and the seed of the round in play must stay hidden), or when it has no
    history to replay (a game made from a test set-up)."""
    if record.status in (GameStatus.LOBBY, GameStatus.PLAYING):
        raise GameError(
            409,
            "game_in_progress",
            "only a finished game can be exported",
            current_version=record.version,
        )
    if not record.seeds:
        raise GameError(409, "not_replayable", "this game was not dealt by the service")
    return game_export.build(
        record.id,
        record.variant,
        record.rules,
        [game_export.ExportSeat(s.name, s.ai) for s in record.seats],
        record.seeds,
        [game_export.Move.from_stored(m) for m in record.moves.split()],
        ended_early=record.status is GameStatus.ENDED,
    )


@router.get("/v1/games/{game_id}/export", responses=errors(404, 409))
async def get_export(context: Context, game_id: GameId) -> Response:
    """The export of a finished (won or ended) game. 409 ``game_in_progress`` while it is
    played; 404 for an unknown or expired game."""
    record = await context.games.get(game_id)
    # Writing an export out replays the whole game (some 20 ms of CPU, more for a long
    # one): in a thread, so the moves of other games are served meanwhile.
    return json_response(await asyncio.to_thread(export_of, record))
