"""Test-only: a game already in play from an explicit set-up (RULES.md §1 notation), and
a lobby's first round fixed before its Start. Included only with
``UNO_ENABLE_TEST_ENDPOINTS``. A set-up the rules cannot play on is 422 ``bad_setup`` and
nothing is stored (games.py ``check_playable``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from services.engine import game_record
from services.engine.context import Context, EngineContext
from services.engine.game_record import GameError, GameStatus
from services.engine.responses import game_info, json_response
from services.engine.routes import GameId, errors
from services.engine.rules import Options, Setup
from services.engine.wire.schemas import GameInfo, TestGame, TestSetup

router = APIRouter(tags=["test"])

#: Where a lobby's fixed first round waits for its Start; gone with the lobby's day.
FIXED_DEAL_KEY = "uno:test:deal:{}"
FIXED_DEAL_SECONDS = 86_400


def setup_of(given: TestSetup) -> Setup:
    return Setup(
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


async def fixed_deal(context: EngineContext, game_id: str) -> Setup | None:
    """The first round fixed for the lobby ``game_id`` before its Start, if the test
    endpoints are on and one was; None otherwise (a deployment always deals at random)."""
    if not context.settings.enable_test_endpoints:
        return None
    raw = await context.store.redis.get(FIXED_DEAL_KEY.format(game_id))
    return None if raw is None else setup_of(TestSetup.model_validate_json(raw))


@router.post("/v1/test/games/{game_id}/deal", status_code=204, responses=errors(404, 409))
async def fix_the_deal(context: Context, game_id: GameId, body: TestSetup) -> Response:
    """Fix the first round of a lobby: its Start deals these hands, piles, dealer and
    current player to the lobby's seats (under the lobby's own variant and rules; the
    set-up's variant, names and options are not used) instead of shuffling. Later rounds
    are dealt at random as ever. Enabled only with UNO_ENABLE_TEST_ENDPOINTS."""
    record = await context.games.get(game_id)
    record.require_status(GameStatus.LOBBY)
    await context.store.redis.set(
        FIXED_DEAL_KEY.format(game_id), body.model_dump_json(), ex=FIXED_DEAL_SECONDS
    )
    return Response(status_code=204)


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
    setup = setup_of(body.setup)
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
