"""The lobby: create a game in a chat, take and leave seats, AI seats, options, start, end,
"I'm back" (RULES.md §7); who is out of a game (/kick, leaving the chat and coming back
to it); and the public facts of a game (no cards).

Every change is a pure decision of game_record.py, written by ``Games.change`` (read, decide,
compare-and-set, retried on a lost race).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response
from fastapi.types import DecoratedCallable

from services.engine import game_record
from services.engine.context import Context
from services.engine.game_record import GameRecord
from services.engine.responses import game_info, json_response
from services.engine.routes import GameId, errors, testing
from services.engine.rules import Options
from services.engine.wire.schemas import (
    AddAi,
    CreateGame,
    GameInfo,
    HostCommand,
    Join,
    Kick,
    LeftGroup,
    PlayerOnly,
    RematchVote,
    SetOptions,
    UserGames,
)

router = APIRouter(tags=["lobby"])

Decision = Callable[[GameRecord], tuple[GameRecord, game_record.Events] | None]


async def _change(context: Context, game_id: str, decide: Decision) -> Response:
    return json_response(game_info(await context.games.change(game_id, decide)))


@router.post("/v1/games", status_code=201, response_model=GameInfo, responses=errors(409, 422))
async def create_game(context: Context, body: CreateGame) -> Response:
    """Create a game in a chat (and forum topic); at most one live game in each."""
    record = await context.games.create(
        body.chat_id,
        body.topic_id,
        body.user_id,
        body.name,
        body.variant,
        body.turn_seconds or context.settings.turn_seconds,
        body.rules.to_options() if body.rules is not None else Options(),
        body.uno_window_seconds,
    )
    context.metrics.games_created.inc()
    return json_response(game_info(record), 201)


@router.get("/v1/games/{game_id}", response_model=GameInfo, responses=errors(404))
async def get_game(context: Context, game_id: GameId) -> Response:
    """The public facts of a game (no cards)."""
    return json_response(game_info(await context.games.get(game_id)))


@router.get("/v1/chats/{chat_id}/game", response_model=GameInfo, responses=errors(404))
async def chat_game(
    context: Context,
    chat_id: Annotated[int, Path(ge=-(2**53), le=2**53)],
    topic_id: Annotated[int, Query(ge=0, le=2**31)] = 0,
) -> Response:
    """The live game of a chat (and forum topic), if any."""
    return json_response(game_info(await context.games.live_game(chat_id, topic_id)))


@router.get("/v1/users/{user_id}/games", response_model=UserGames, responses=errors())
async def user_games(context: Context, user_id: Annotated[int, Path(ge=1, le=2**53)]) -> Response:
    """The live games a person holds a seat in (one they have not left), oldest id first:
    their current games, as the Mini App's menu lists them."""
    records = await context.games.user_games(user_id)
    return json_response({"games": [game_info(r) for r in records]})


#: What a lobby change may answer besides the game's facts.
CHANGE_ERRORS = errors(403, 404, 409, 422)


def lobby_change(action: str, summary: str) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """The route of a lobby change: ``POST /v1/games/{game_id}/{action}``, answering the
    game's facts."""
    return router.post(
        f"/v1/games/{{game_id}}/{action}",
        summary=summary,
        response_model=GameInfo,
        responses=CHANGE_ERRORS,
    )


@lobby_change("join", "Take a seat")
async def join(context: Context, game_id: GameId, body: Join) -> Response:
    return await _change(context, game_id, lambda r: game_record.join(r, body.user_id, body.name))


@lobby_change("leave", "Leave the lobby, or the game (the stand-in plays on)")
async def leave(context: Context, game_id: GameId, body: PlayerOnly) -> Response:
    return await _change(context, game_id, lambda r: game_record.leave(r, body.user_id))


@lobby_change("ai", "Add an AI seat (host or admin, before the start)")
async def add_ai(context: Context, game_id: GameId, body: AddAi) -> Response:
    return await _change(
        context,
        game_id,
        lambda r: game_record.add_ai(r, body.user_id, body.admin, body.level, body.name),
    )


@lobby_change(
    "options", "Set the variant, turn time and house rules (host or admin, before the start)"
)
async def set_options(context: Context, game_id: GameId, body: SetOptions) -> Response:
    rules = body.rules.to_options() if body.rules is not None else None
    return await _change(
        context,
        game_id,
        lambda r: game_record.set_options(
            r, body.user_id, body.admin, body.variant, body.turn_seconds, rules
        ),
    )


@lobby_change("start", "Deal and start (host or admin)")
async def start(context: Context, game_id: GameId, body: HostCommand) -> Response:
    # A deployment always shuffles; with the test endpoints on, a deal fixed beforehand
    # (testing.py) lets a test play a lobby's game through its real Start.
    dealt = await testing.fixed_deal(context, game_id)
    return await _change(
        context, game_id, lambda r: game_record.start(r, body.user_id, body.admin, dealt=dealt)
    )


@lobby_change("end", "End the game now (host or admin)")
async def end(context: Context, game_id: GameId, body: HostCommand) -> Response:
    return await _change(context, game_id, lambda r: game_record.end(r, body.user_id, body.admin))


@lobby_change("back", "I'm back: clear away (RULES.md §7)")
async def come_back(context: Context, game_id: GameId, body: PlayerOnly) -> Response:
    return await _change(context, game_id, lambda r: game_record.come_back(r, body.user_id))


def _now() -> int:
    """The time a removal is written with (unix seconds): the service's clock, handed to
    the pure record, which reads none."""
    return int(time.time())


@lobby_change("kick", "Remove a player from the game for good (host or admin)")
async def kick(context: Context, game_id: GameId, body: Kick) -> Response:
    """The seat goes to the stand-in (in a lobby it goes); every move, hand view, join and
    "I'm back" of the player is refused 403 ``seat_removed`` with ``reason: kicked``."""
    at = _now()
    return await _change(
        context,
        game_id,
        lambda r: game_record.kick(r, body.user_id, body.admin, body.target, at),
    )


@lobby_change("left-group", "A player left the game's chat: out of the game until back")
async def left_group(context: Context, game_id: GameId, body: LeftGroup) -> Response:
    """As a kick, with ``reason: left_group``, until ``rejoined-group``; a person with no
    seat, or out already, changes nothing."""
    at = _now()
    return await _change(
        context, game_id, lambda r: game_record.left_group(r, body.user_id, at, body.by)
    )


@lobby_change("rejoined-group", "A player is back in the game's chat")
async def rejoined_group(context: Context, game_id: GameId, body: PlayerOnly) -> Response:
    """Leaving the chat no longer holds them out: "I'm back" or a move of theirs takes the
    seat back from the stand-in. A kick still holds."""
    return await _change(context, game_id, lambda r: game_record.rejoined_group(r, body.user_id))


@lobby_change("rematch", "Vote on playing a finished game again (RULES.md §7)")
async def rematch(context: Context, game_id: GameId, body: RematchVote) -> Response:
    """Every human still seated votes; once all have and somebody said yes, the game is
    played again in the same chat (``rematch.next_game_id``). 409 ``game_not_over``,
    ``already_voted``, ``rematch_started``, ``chat_busy``; 403 ``not_a_player``,
    ``seat_removed``."""
    record, created = await context.games.rematch(game_id, body.user_id, body.vote)
    if created:
        context.metrics.games_created.inc()
    return json_response(game_info(record))
