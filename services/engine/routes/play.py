"""Play: a player's action and view, the public table, the event log over HTTP, and the
frozen player's move the bot reports (RULES.md §6).

``take_action`` and ``show_view`` answer the two requests of every move; the fast path
(fast_path.py) calls them too, so both ways share one definition of what they answer.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from services.engine.context import Context, EngineContext
from services.engine.responses import (
    answer_action,
    game_info,
    json_response,
    player_view,
    table_view,
)
from services.engine.routes import GameId, errors
from services.engine.rules import numbered_events_for
from services.engine.wire.schemas import (
    ActionRequest,
    ActionResult,
    EventsPage,
    FrozenMoved,
    PlayerView,
    UserId,
    ViewsOf,
)

ACTION_ROUTE = "/v1/games/{game_id}/actions"
VIEW_ROUTE = "/v1/games/{game_id}/view"
SPECTATOR_ROUTE = "/v1/games/{game_id}/spectator"
VIEWS_ROUTE = "/v1/games/{game_id}/views"

router = APIRouter(tags=["play"])


async def take_action(context: EngineContext, game_id: str, body: ActionRequest) -> Response:
    outcome = await context.games.act(
        game_id, body.user_id, body.action, body.version, body.action_id
    )
    return answer_action(context.metrics, outcome, "player")


async def show_view(context: EngineContext, game_id: str, user_id: int) -> Response:
    record = await context.games.get(game_id)
    return json_response(table_view(record, record.require_seat(user_id)))


@router.post(ACTION_ROUTE, response_model=ActionResult, responses=errors(403, 404, 409, 422))
async def post_action(context: Context, game_id: GameId, body: ActionRequest) -> Response:
    """A player's action at the version they saw. 409: stale version (current one in
    the body); 422: the rules refuse it (``reason``); a repeated ``action_id`` of the same
    player: the first result again, applied once."""
    return await take_action(context, game_id, body)


@router.get(VIEW_ROUTE, response_model=PlayerView, responses=errors(403, 404))
async def get_player_view(
    context: Context, game_id: GameId, user_id: Annotated[UserId, Query()]
) -> Response:
    """A player's view: their hand, what they may do now, the public table."""
    return await show_view(context, game_id, user_id)


#: Most people one request for several views names.
MAX_VIEWS = 64


@router.get(VIEWS_ROUTE, response_model=ViewsOf, responses=errors(404))
async def get_views(
    context: Context,
    game_id: GameId,
    user_id: Annotated[list[UserId], Query(min_length=1, max_length=MAX_VIEWS)],
    spectator: Annotated[bool, Query()] = False,
) -> Response:
    """Several people's views at one version: each one's own seat's (their hand), or the
    spectator's for one without a seat; with ``spectator``, the spectator's view besides.
    [decision] What a Mini App replica shows everyone watching a game after a write, and
    what the bot shows a group's table and its players' private hands, for one request and
    one read of the game instead of one per viewer; the views are the same ``player_view``
    as the single view's, so hidden cards still pass through one door."""
    return await show_views(context, game_id, user_id, with_spectator=spectator)


async def show_views(
    context: EngineContext, game_id: str, user_ids: list[int], *, with_spectator: bool = False
) -> Response:
    record = await context.games.get(game_id)
    spectator: dict[str, object] = {}
    if with_spectator:
        spectator["view"] = player_view(record, None)
    views = []
    for person in dict.fromkeys(user_ids):
        # A person out of the game (kicked, gone from its chat) sees what a spectator sees:
        # the seat they played is no longer theirs to look into.
        removal = record.removal_of(person)
        seat = record.seat_of(person) if removal is None else None
        if seat is None:
            if "view" not in spectator:  # computed once however many spectators
                spectator["view"] = player_view(record, None)
            shown = spectator["view"]
        else:
            shown = player_view(record, seat)
        one = {"user_id": person, "seat": seat, "view": shown}
        if removal is not None:
            one["removed"] = removal.reason.value
        views.append(one)
    turn_left = await context.store.turn_left(game_id, record.version)
    answer: dict[str, object] = {"game": game_info(record), "views": views, "turn_left": turn_left}
    if with_spectator:
        answer["spectator"] = spectator["view"]
    return json_response(answer)


async def show_spectator_view(context: EngineContext, game_id: str) -> Response:
    return json_response(table_view(await context.games.get(game_id), None))


@router.get(SPECTATOR_ROUTE, response_model=PlayerView, responses=errors(404))
async def get_spectator_view(context: Context, game_id: GameId) -> Response:
    """What anyone in the chat may see: the public table, no hand."""
    return await show_spectator_view(context, game_id)


@router.get("/v1/games/{game_id}/events", response_model=EventsPage, responses=errors(403, 404))
async def get_events(
    context: Context,
    game_id: GameId,
    after: Annotated[str, Query(pattern=r"^\d{1,19}-\d{1,19}$")] = "0-0",
    user_id: Annotated[UserId | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> Response:
    """The game's events after an event id, as ``user_id`` (or a spectator) may see
    them, of those the event log still holds. The bot may instead read the log's Redis
    streams directly (README "Events")."""
    record = await context.games.get(game_id)
    seat = record.require_seat(user_id) if user_id is not None else None
    rows = await context.store.events(game_id, after, limit)
    seen = numbered_events_for([r.event for r in rows], seat)
    out = [{"id": rows[n].id, "version": rows[n].version, "event": event} for n, event in seen]
    return json_response({"events": out, "last_id": rows[-1].id if rows else after})


@router.post(
    "/v1/games/{game_id}/frozen-moved",
    response_model=ActionResult,
    responses=errors(404, 409, 422),
)
async def post_frozen_moved(context: Context, game_id: GameId, body: FrozenMoved) -> Response:
    """The bot saw the frozen player move (RULES.md §6, Minions' Dumb Fu): the rules
    charge them if they are frozen, else 422 ``not_frozen``."""
    outcome = await context.games.frozen_moved(game_id, body.version, body.seat, body.action_id)
    return answer_action(context.metrics, outcome, "system")
