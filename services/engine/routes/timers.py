"""The worker's timers (README "Timers"): the seat owing a decision at a version and its own
view, the stand-in's move for it, and the UNO window's close. Their action ids are the
service's own (``timer:…``), remembered apart from every player's."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from services.engine.context import Context
from services.engine.responses import answer_action, json_response, player_view
from services.engine.routes import GameId, errors
from services.engine.wire.schemas import ActionResult, CloseUnoWindow, StandInAction, StandInTurn

router = APIRouter(tags=["timers"])


@router.get("/v1/games/{game_id}/stand-in", response_model=StandInTurn, responses=errors(404, 409))
async def get_stand_in(
    context: Context, game_id: GameId, version: Annotated[int, Query(ge=0, le=2**53)]
) -> Response:
    """The seat owing the decision at ``version`` and its own view (README "Timers");
    409 when the game is no longer at that version."""
    record, seat = await context.games.stand_in_turn(game_id, version)
    s = record.seats[seat]
    return json_response(
        {
            "game_id": record.id,
            "version": record.version,
            "seat": seat,
            "ai": s.ai,
            "away": s.away,
            "missed": s.missed,
            "view": player_view(record, seat),
        }
    )


@router.post(
    "/v1/games/{game_id}/stand-in", response_model=ActionResult, responses=errors(404, 409, 422)
)
async def post_stand_in(context: Context, game_id: GameId, body: StandInAction) -> Response:
    """The stand-in's move for the seat owing the decision at ``version``; for a human
    it counts as a missed deadline (two in a row: away)."""
    outcome = await context.games.stand_in_act(game_id, body.version, body.action, body.action_id)
    return answer_action(context.metrics, outcome, "stand_in")


@router.post(
    "/v1/games/{game_id}/uno-window/close",
    response_model=ActionResult,
    responses=errors(404, 409, 422),
)
async def close_uno_window(context: Context, game_id: GameId, body: CloseUnoWindow) -> Response:
    """Close the UNO window iff the one opened at ``opened_version`` is still open."""
    outcome = await context.games.close_uno_window(game_id, body.opened_version, body.action_id)
    return answer_action(context.metrics, outcome, "system")
