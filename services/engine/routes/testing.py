"""Test-only: a game already in play from an explicit set-up (RULES.md §1 notation).
Included only with ``UNO_ENABLE_TEST_ENDPOINTS``. A set-up the rules cannot play on is 422
``bad_setup`` and nothing is stored (games.py ``check_playable``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from services.engine import game_record
from services.engine.context import Context
from services.engine.game_record import GameError
from services.engine.responses import game_info, json_response
from services.engine.routes import errors
from services.engine.rules import Options, Setup
from services.engine.wire.schemas import GameInfo, TestGame

router = APIRouter(tags=["test"])


@router.post("/v1/test/games", status_code=201, response_model=GameInfo, responses=errors(409, 422))
async def create_test_game(context: Context, body: TestGame) -> Response:
    """A game in play from an explicit set-up (RULES.md §1 notation); enabled only with
    UNO_ENABLE_TEST_ENDPOINTS."""
    seats = []
    for spec in body.seats:
        if (spec.user_id is None) == (spec.ai is None):
            raise GameError(422, "bad_setup", "each seat is a user_id or an ai level")
        seats.append(game_record.Seat(name=spec.name, user_id=spec.user_id, ai=spec.ai))
    users = [s.user_id for s in seats if s.user_id is not None]
    if len(users) != len(set(users)):
        raise GameError(422, "bad_setup", "a user can take only one seat")
    given = body.setup
    setup = Setup(
        hands=list(given.hands),
        variant=given.variant,
        names=list(given.names) if given.names is not None else None,
        draw_pile=given.draw_pile,
        discard=given.discard,
        dealer=given.dealer,
        current=given.current,
        direction=given.direction,
        color=given.color,
        side=given.side,
        scores=list(given.scores) if given.scores is not None else None,
        options=given.options.to_options() if given.options is not None else Options(),
        seed=given.seed,
        round=given.round,
    )
    record = await context.games.create_from_setup(
        body.chat_id,
        body.topic_id,
        tuple(seats),
        setup,
        body.turn_seconds or context.settings.turn_seconds,
        body.uno_window_seconds,
    )
    context.metrics.games_created.inc()
    return json_response(game_info(record), 201)
