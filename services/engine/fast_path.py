"""The fast path of the requests of every move: a player's action, their view, the
spectator's view (the table every front renders after each write) and several people's
views at once (what a Mini App replica shows its viewers of a game after each write).

Why it exists: FastAPI's per-request machinery (routing through every route, dependency
solving, the request object, its own middleware stack) cost about a third of a move, and a
move is what the service does most. Requests that are well formed by the routes' own
schemas are answered here by the very functions the FastAPI routes call
(``routes.play.take_action``, ``show_view``, ``show_spectator_view`` and ``show_views``)
and the same error answers (errors.py); anything else (a missing or bad parameter, another method or
content type, a body ``ActionRequest`` refuses) goes on to FastAPI, which answers it as
documented. The routes stay declared there, so the API description does not change;
``scope["route"]`` is set to them for the metrics.
tests/engine/service/test_service_fast_path.py sends one table of good and bad requests
both ways and checks the answers are the same.

It sits behind the token and body-limit layers (layers.py), as FastAPI does.
"""

from __future__ import annotations

import re

import redis.exceptions
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from services.engine.context import EngineContext
from services.engine.errors import game_error_response, store_down_response, unhandled_response
from services.engine.game_record import GameError
from services.engine.routes import GAME_ID_PATTERN
from services.engine.routes.play import (
    MAX_VIEWS,
    show_spectator_view,
    show_view,
    show_views,
    take_action,
)
from services.engine.wire.schemas import USER_ID_MAX, ActionRequest
from services.http_limits import replay_body

_PATH = re.compile(rf"/v1/games/({GAME_ID_PATTERN})/(views|view|actions|spectator)")
#: A larger number than ``UserId`` takes (``USER_ID_MAX``) goes on to FastAPI, which refuses it.
_USER_QUERY = re.compile(rb"user_id=([1-9][0-9]{0,15})")
#: Several of them, ``&`` between: at most ``MAX_VIEWS``, or FastAPI refuses the request.
_USERS_QUERY = re.compile(
    rb"user_id=[1-9][0-9]{0,15}(?:&user_id=[1-9][0-9]{0,15}){0,%d}" % (MAX_VIEWS - 1)
)


class FastPath:
    def __init__(
        self,
        app: ASGIApp,
        context: EngineContext,
        *,
        view_route: APIRoute,
        action_route: APIRoute,
        spectator_route: APIRoute,
        views_route: APIRoute,
    ) -> None:
        self.app = app
        self.context = context
        self.view_route = view_route
        self.action_route = action_route
        self.spectator_route = spectator_route
        self.views_route = views_route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = _PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if match is None:
            await self.app(scope, receive, send)
            return
        game_id, kind = match.groups()
        if kind == "spectator":
            # No parameters: one with a query string goes on to FastAPI, as it is.
            if scope["method"] != "GET" or scope["query_string"]:
                await self.app(scope, receive, send)
                return
            scope["route"] = self.spectator_route
            await self.answer(scope, receive, send, game_id, None)
            return
        if kind == "views":
            query = scope["query_string"]
            if scope["method"] != "GET" or _USERS_QUERY.fullmatch(query) is None:
                await self.app(scope, receive, send)
                return
            users = [int(part[8:]) for part in query.split(b"&")]
            if max(users) > USER_ID_MAX:
                await self.app(scope, receive, send)
                return
            scope["route"] = self.views_route
            await self.answer(scope, receive, send, game_id, users)
            return
        if kind == "view":
            user = _USER_QUERY.fullmatch(scope["query_string"])
            if scope["method"] != "GET" or user is None or int(user[1]) > USER_ID_MAX:
                await self.app(scope, receive, send)
                return
            scope["route"] = self.view_route
            await self.answer(scope, receive, send, game_id, int(user[1]))
            return
        content_type = next((v for k, v in scope["headers"] if k == b"content-type"), b"")
        if scope["method"] != "POST" or content_type != b"application/json":
            await self.app(scope, receive, send)
            return
        # The body-limit layer in front has read the body whole: it comes as one message.
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            return
        body = message.get("body", b"")
        try:
            request = ActionRequest.model_validate_json(body)
        except ValidationError:
            await self.app(scope, replay_body(body, receive), send)  # answered 400 there
            return
        scope["route"] = self.action_route
        await self.answer(scope, receive, send, game_id, request)

    async def answer(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        game_id: str,
        request: int | list[int] | ActionRequest | None,
    ) -> None:
        """``request``: an action, the user id of a player's view, several people's user
        ids, or None: the spectator's."""
        response: Response
        try:
            if isinstance(request, ActionRequest):
                response = await take_action(self.context, game_id, request)
            elif request is None:
                response = await show_spectator_view(self.context, game_id)
            elif isinstance(request, list):
                response = await show_views(self.context, game_id, request)
            else:
                response = await show_view(self.context, game_id, request)
        except GameError as exc:
            response = game_error_response(self.context.metrics, exc)
        except redis.exceptions.RedisError as exc:
            response = store_down_response(exc)
        except Exception as exc:
            response = unhandled_response(exc)
        await response(scope, receive, send)
