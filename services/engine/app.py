"""The engine service: a stateless HTTP API (FastAPI, /v1) over game state in Redis.

The bot and the worker never touch game state; they call these routes (through client.py).
Every route but /healthz, /readyz and the API description (/openapi.json, /docs) needs the
service token (``UNO_ENGINE_TOKEN``) as a bearer token. Status codes: 400 malformed request,
401 bad token, 403 not your seat or not the host, 404 unknown game, 409 stale version or a
lobby conflict (the body says which and carries the current version), 422 an action the
rules refuse (``reason`` is the engine's code). A hand leaves the service only inside a
player's own view.

Run: ``uvicorn services.engine.app:app`` (or ``--factory services.engine.app:create_app``).
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import fields
from functools import cache
from typing import Annotated, Any

import orjson
import redis.exceptions
from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import ValidationError
from redis.asyncio import BlockingConnectionPool, Redis
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.config import Settings, get_settings
from services.engine import lobby
from services.engine.games import Games, Outcome, Timing
from services.engine.lobby import GameError, GameRecord
from services.engine.metrics import CONTENT_TYPE_LATEST, MetricsMiddleware, ServiceMetrics
from services.engine.rules import Options, Setup, SetupError, options_to_json, view
from services.engine.schemas import (
    ActionRequest,
    ActionResult,
    AddAi,
    CloseUnoWindow,
    CreateGame,
    ErrorBody,
    EventsPage,
    FrozenMoved,
    GameInfo,
    Health,
    HostCommand,
    Join,
    PlayerOnly,
    PlayerView,
    SetOptions,
    StandInAction,
    StandInTurn,
    TestGame,
    UserId,
)
from services.engine.store import CorruptRecord, GameStore

log = logging.getLogger(__name__)

#: Redis connections per service process; requests beyond it wait their turn (5 s at most).
REDIS_POOL_SIZE = 64

GameId = Annotated[
    str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="Game id", examples=["abcDEF123_-x"])
]


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorBody} for code in (400, 401, *codes)}


def _json(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json")


def _error(status: int, error: str, message: str, **extra: Any) -> Response:
    return _json({"error": error, "message": message, **extra}, status)


# -- response bodies ---------------------------------------------------------------------


def game_info(record: GameRecord) -> dict[str, Any]:
    return {
        "game_id": record.id,
        "version": record.version,
        "status": record.status.value,
        "chat_id": record.chat_id,
        "topic_id": record.topic_id,
        "host": record.host,
        "variant": record.variant,
        "turn_seconds": record.turn_seconds,
        "rules": options_to_json(record.rules),
        "seats": [{"seat": i, **s.to_json()} for i, s in enumerate(record.seats)],
        "winner": record.state.winner if record.state is not None else None,
        "uno_opened": record.uno_opened,
    }


def player_view(record: GameRecord, seat: int | None) -> dict[str, Any] | None:
    """The only place a hand is serialised: the rules engine's view for ``seat``.

    Equal to ``View.to_json()`` once encoded, but leaves the nested dataclasses to orjson,
    which encodes them natively (``dataclasses.asdict`` was the costliest step of a move).
    """
    if record.state is None:
        return None
    seen = view(record.state, seat)
    out = {f.name: getattr(seen, f.name) for f in fields(seen)}
    out["legal"] = list(seen.legal_codes)
    return out


def visible(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Public events and those addressed to ``seat`` (the rules' ``events_for``, on JSON)."""
    return [e for e in events if "to" not in e or e["to"] == seat]


def action_result(outcome: Outcome) -> dict[str, Any]:
    """The answer to a move: what the actor may see of it, their view, and the view of the
    seat that owes the next decision when that is someone else.

    [decision] The owing seat's view rides along so that a move costs the bot one request:
    it prompts that player with their own hand and choices without asking again. The caller
    is the bot (service token), which may read any seat's view anyway and shows each one
    only to its owner; ``player_view`` stays the one place a hand is serialised."""
    record, seat = outcome.record, outcome.seat
    owing = record.owing
    return {
        "game_id": record.id,
        "version": outcome.version,
        "seat": seat,
        "duplicate": outcome.duplicate,
        "events": visible(outcome.events, seat),
        "view": player_view(record, seat) if seat is not None else None,
        "owing_seat": owing,
        "owing_view": player_view(record, owing) if owing is not None and owing != seat else None,
    }


class TokenMiddleware:
    """Every route but the health checks needs the service token as a bearer token.

    A pure ASGI check before routing: cheaper than a FastAPI dependency on every route, and
    a request without the token never reaches a handler. The OpenAPI document declares the
    scheme (``with_bearer_security``)."""

    def __init__(self, app: ASGIApp, token: bytes) -> None:
        self.app = app
        self.expected = b"Bearer " + token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _needs_token(scope["path"]):
            given = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
            if not hmac.compare_digest(given, self.expected):
                response = _error(401, "unauthorized", "a valid service token is required")
                response.headers["WWW-Authenticate"] = "Bearer"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


VIEW_ROUTE = "/v1/games/{game_id}/view"
ACTION_ROUTE = "/v1/games/{game_id}/actions"
_HOT_PATH = re.compile(r"/v1/games/([A-Za-z0-9_-]{1,32})/(view|actions)")
_USER_QUERY = re.compile(rb"user_id=([1-9][0-9]{0,15})")


class HotRoutes:
    """The two requests of every move, a player's view and their action, served past
    FastAPI's per-request machinery (routing, dependency solving, the request object),
    which cost about a third of a move.

    Only a request that is well formed by the routes' own schemas takes this path, answered
    by the very functions the FastAPI routes call; anything else (a missing or bad
    parameter, another content type, a body ``ActionRequest`` refuses) goes on to the
    FastAPI route, which answers it as documented. The routes stay declared there, so the
    API description does not change; ``scope["route"]`` is set to them for the metrics.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        view: tuple[APIRoute, Callable[[str, int], Awaitable[Response]]],
        action: tuple[APIRoute, Callable[[str, ActionRequest], Awaitable[Response]]],
        on_game_error: Callable[[GameError], Response],
        on_store_down: Callable[[redis.exceptions.RedisError], Response],
    ) -> None:
        self.app = app
        self.view_route, self.view = view
        self.action_route, self.action = action
        self.on_game_error = on_game_error
        self.on_store_down = on_store_down

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = _HOT_PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if match is None:
            await self.app(scope, receive, send)
            return
        game_id, kind = match.groups()
        if kind == "view":
            user = _USER_QUERY.fullmatch(scope["query_string"])
            if scope["method"] != "GET" or user is None or int(user[1]) > 2**53:
                await self.app(scope, receive, send)
                return
            scope["route"] = self.view_route
            await self.answer(scope, receive, send, self.view(game_id, int(user[1])))
            return
        content_type = next((v for k, v in scope["headers"] if k == b"content-type"), b"")
        if scope["method"] != "POST" or content_type != b"application/json":
            await self.app(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
        try:
            request = ActionRequest.model_validate_json(body)
        except ValidationError:
            await self.app(scope, _replay(body), send)  # answered 400 there, as documented
            return
        scope["route"] = self.action_route
        await self.answer(scope, receive, send, self.action(game_id, request))

    async def answer(
        self, scope: Scope, receive: Receive, send: Send, handling: Awaitable[Response]
    ) -> None:
        try:
            response = await handling
        except GameError as exc:
            response = self.on_game_error(exc)
        except redis.exceptions.RedisError as exc:
            response = self.on_store_down(exc)
        except Exception as exc:
            # Outside FastAPI's stack nothing else turns a fault into an answer.
            response = unhandled_response(exc)
        await response(scope, receive, send)


def unhandled_response(exc: Exception) -> Response:
    """A fault that is not the caller's: 500 with a JSON body like every other error. A
    write is one script, all or nothing, so the game is never half-written; sending the
    same action id again tells whether the action was applied."""
    if isinstance(exc, CorruptRecord):
        log.error("unreadable game record: %s", exc)
        return _error(500, "corrupt_game", "this game's stored record is unreadable")
    log.error("unhandled error", exc_info=exc)
    return _error(
        500,
        "internal_error",
        "the engine failed; send the same action id again to see if it applied",
    )


class EngineAPI(FastAPI):
    """FastAPI with the service's own pure ASGI layers (metrics, token, hot routes) outside
    it, rather than among its middleware: the two requests of every move then skip the
    framework's per-request layers (its error and body-limit middleware, its telemetry
    check) as well as routing. Every other request goes on through FastAPI unchanged."""

    outer: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.outer is None:
            await super().__call__(scope, receive, send)
        else:
            await self.outer(scope, receive, send)

    async def framework(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)


def _replay(body: bytes) -> Receive:
    """A ``receive`` that hands over a body already read, once."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


def _needs_token(path: str) -> bool:
    return path.startswith("/v1/") or path == "/metrics"


def with_bearer_security(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` that also documents the bearer token on the routes that need it."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title, version=app.version, summary=app.summary, routes=app.routes
            )
            schema.setdefault("components", {})["securitySchemes"] = {
                "serviceToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The service token (UNO_ENGINE_TOKEN)",
                }
            }
            for path, operations in schema["paths"].items():
                if _needs_token(path):
                    for operation in operations.values():
                        operation["security"] = [{"serviceToken": []}]
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi


# -- the app -----------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> EngineAPI:
    settings = settings or get_settings()
    if settings.engine_token_is_default:
        log.warning("the engine runs with the development token; set UNO_ENGINE_TOKEN")
    # A bounded pool that waits for a free connection under bursts instead of failing.
    redis_client = Redis(
        connection_pool=BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=REDIS_POOL_SIZE, timeout=5
        )
    )
    store = GameStore(
        redis_client,
        ttl_seconds=settings.game_ttl_seconds,
        event_shards=settings.event_shards,
        event_log_maxlen=settings.event_log_maxlen,
        event_log_seconds=settings.event_log_seconds,
    )
    games = Games(
        store,
        Timing(
            away_pause_seconds=settings.away_pause_seconds,
            uno_window_seconds=float(settings.uno_window_seconds),
        ),
    )
    metrics = ServiceMetrics()
    token = settings.engine_token.get_secret_value().encode()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await redis_client.aclose()

    app = EngineAPI(
        title="UNO engine",
        version="1",
        summary="Game state and rules for the UNO bot: lobby, actions, views, timers.",
        lifespan=lifespan,
    )
    app.state.games = games
    app.state.metrics = metrics
    app.openapi = with_bearer_security(app)  # type: ignore[method-assign]

    # -- errors -------------------------------------------------------------------------

    def game_error_response(exc: GameError) -> Response:
        if exc.error == "stale_version":
            metrics.stale.inc()
        elif exc.error == "illegal_action":
            metrics.rejected.labels(exc.extra.get("reason", "")).inc()
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        response = _error(exc.status, exc.error, exc.message, **exc.extra)
        if headers:
            response.headers.update(headers)
        return response

    def store_down_response(exc: redis.exceptions.RedisError) -> Response:
        log.error("Redis error: %r", exc)
        return _error(503, "store_unavailable", "the game store is unreachable; try again")

    @app.exception_handler(GameError)
    async def on_game_error(_: Request, exc: GameError) -> Response:
        return game_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def on_bad_request(_: Request, exc: RequestValidationError) -> Response:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(part) for part in err.get("loc", ()))
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
        return _error(400, "bad_request", "; ".join(problems) or "malformed request")

    @cache
    def allowed_methods() -> list[tuple[re.Pattern[str], set[str]]]:
        table = []
        for template, operations in app.openapi()["paths"].items():
            regex, _, _ = compile_path(template)
            table.append((regex, {method.upper() for method in operations}))
        return table

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, exc: StarletteHTTPException) -> Response:
        response = _error(exc.status_code, "http_error", str(exc.detail))
        if exc.headers:
            response.headers.update(exc.headers)
        if exc.status_code == 405:
            # Starlette names only the first route on the path; list every method it has.
            path = request.scope["path"]
            allowed = {
                m for regex, methods in allowed_methods() for m in methods if regex.match(path)
            }
            if allowed:
                response.headers["Allow"] = ", ".join(sorted(allowed))
        return response

    @app.exception_handler(redis.exceptions.RedisError)
    async def on_store_down(_: Request, exc: redis.exceptions.RedisError) -> Response:
        return store_down_response(exc)

    @app.exception_handler(Exception)
    async def on_unhandled(_: Request, exc: Exception) -> Response:
        return unhandled_response(exc)

    # -- health (no token) --------------------------------------------------------------

    @app.get("/healthz", response_model=Health, tags=["health"])
    async def healthz() -> Response:
        """The process is alive."""
        return _json({"status": "ok"})

    @app.get(
        "/readyz", response_model=Health, tags=["health"], responses={503: {"model": ErrorBody}}
    )
    async def readyz() -> Response:
        """Redis answers."""
        try:
            await store.ping()
        except redis.exceptions.RedisError:
            return _error(503, "store_unavailable", "Redis does not answer")
        return _json({"status": "ready"})

    @app.get(
        "/metrics",
        tags=["health"],
        responses={
            200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
            401: {"model": ErrorBody},
        },
    )
    async def prometheus_metrics() -> Response:
        """Prometheus exposition (needs the service token, like every other route)."""
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    def answer(outcome: Outcome, by: str) -> Response:
        """The answer of every route that takes an action: counted by who took it
        (``player``, ``stand_in``, ``system``), then ``action_result``."""
        if outcome.duplicate:
            metrics.duplicates.inc()
        else:
            metrics.actions.labels(by).inc()
        return _json(action_result(outcome))

    # Hot routes first: Starlette tries routes in order.
    # -- play ---------------------------------------------------------------------------

    @app.post(
        ACTION_ROUTE,
        response_model=ActionResult,
        tags=["play"],
        responses=_errors(403, 404, 409, 422),
    )
    async def post_action(game_id: GameId, body: ActionRequest) -> Response:
        """A player's action at the version they saw. 409: stale version (current one in
        the body); 422: the rules refuse it (``reason``); a repeated ``action_id``: the
        first result again, applied once."""
        return await act(game_id, body)

    async def act(game_id: str, body: ActionRequest) -> Response:
        outcome = await games.act(game_id, body.user_id, body.action, body.version, body.action_id)
        return answer(outcome, "player")

    @app.get(
        VIEW_ROUTE,
        response_model=PlayerView,
        tags=["play"],
        responses=_errors(403, 404),
    )
    async def get_player_view(game_id: GameId, user_id: Annotated[UserId, Query()]) -> Response:
        """A player's view: their hand, what they may do now, the public table."""
        return await players_view(game_id, user_id)

    async def players_view(game_id: str, user_id: int) -> Response:
        record = await games.get(game_id)
        seat = record.require_seat(user_id)
        return _json({"game": game_info(record), "seat": seat, "view": player_view(record, seat)})

    @app.get(
        "/v1/games/{game_id}/spectator",
        response_model=PlayerView,
        tags=["play"],
        responses=_errors(404),
    )
    async def get_spectator_view(game_id: GameId) -> Response:
        """What anyone in the chat may see: the public table, no hand."""
        record = await games.get(game_id)
        return _json({"game": game_info(record), "seat": None, "view": player_view(record, None)})

    @app.get(
        "/v1/games/{game_id}/events",
        response_model=EventsPage,
        tags=["play"],
        responses=_errors(403, 404),
    )
    async def get_events(
        game_id: GameId,
        after: Annotated[str, Query(pattern=r"^\d{1,19}-\d{1,19}$")] = "0-0",
        user_id: Annotated[UserId | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 200,
    ) -> Response:
        """The game's events after an event id, as ``user_id`` (or a spectator) may see
        them, of those the event log still holds. The bot may instead read the log's Redis
        streams directly (README "Events")."""
        record = await games.get(game_id)
        seat = record.require_seat(user_id) if user_id is not None else None
        rows = await store.events(game_id, after, limit)
        out = [
            {"id": r.id, "version": r.version, "event": r.event}
            for r in rows
            if "to" not in r.event or r.event["to"] == seat
        ]
        return _json({"events": out, "last_id": rows[-1].id if rows else after})

    # -- lobby --------------------------------------------------------------------------

    @app.post(
        "/v1/games",
        status_code=201,
        response_model=GameInfo,
        tags=["lobby"],
        responses=_errors(409, 422),
    )
    async def create_game(body: CreateGame) -> Response:
        """Create a game in a chat (and forum topic); at most one live game in each."""
        record = await games.create(
            body.chat_id,
            body.topic_id,
            body.user_id,
            body.name,
            body.variant,
            body.turn_seconds or settings.turn_seconds,
            body.rules.to_options() if body.rules is not None else Options(),
        )
        metrics.games_created.inc()
        return _json(game_info(record), 201)

    @app.get("/v1/games/{game_id}", response_model=GameInfo, tags=["lobby"], responses=_errors(404))
    async def get_game(game_id: GameId) -> Response:
        """The public facts of a game (no cards)."""
        return _json(game_info(await games.get(game_id)))

    @app.get(
        "/v1/chats/{chat_id}/game", response_model=GameInfo, tags=["lobby"], responses=_errors(404)
    )
    async def chat_game(
        chat_id: Annotated[int, Path(ge=-(2**53), le=2**53)],
        topic_id: Annotated[int, Query(ge=0, le=2**31)] = 0,
    ) -> Response:
        """The live game of a chat (and forum topic), if any."""
        return _json(game_info(await games.live_game(chat_id, topic_id)))

    def lobby_route(
        path: str,
        summary: str,
        decide: Callable[
            [Any], Callable[[GameRecord], tuple[GameRecord, list[dict[str, Any]]] | None]
        ],
        body_type: type[Any],
    ) -> None:
        async def route(game_id: GameId, body: Any) -> Response:
            record = await games.change(game_id, decide(body))
            return _json(game_info(record))

        route.__annotations__ = {"game_id": GameId, "body": body_type, "return": Response}
        route.__name__ = "lobby_" + path.strip("/").replace("-", "_")
        app.post(
            "/v1/games/{game_id}" + path,
            response_model=GameInfo,
            tags=["lobby"],
            summary=summary,
            responses=_errors(403, 404, 409, 422),
        )(route)

    lobby_route("/join", "Take a seat", lambda b: lambda r: lobby.join(r, b.user_id, b.name), Join)
    lobby_route(
        "/leave",
        "Leave the lobby, or the game (the stand-in plays on)",
        lambda b: lambda r: lobby.leave(r, b.user_id),
        PlayerOnly,
    )
    lobby_route(
        "/ai",
        "Add an AI seat (host or admin, before the start)",
        lambda b: lambda r: lobby.add_ai(r, b.user_id, b.admin, b.level, b.name),
        AddAi,
    )
    lobby_route(
        "/options",
        "Set the variant, turn time and house rules (host or admin, before the start)",
        lambda b: (
            lambda r: lobby.set_options(
                r,
                b.user_id,
                b.admin,
                b.variant,
                b.turn_seconds,
                b.rules.to_options() if b.rules is not None else None,
            )
        ),
        SetOptions,
    )
    lobby_route(
        "/start",
        "Deal and start (host or admin)",
        lambda b: lambda r: lobby.start(r, b.user_id, b.admin),
        HostCommand,
    )
    lobby_route(
        "/end",
        "End the game now (host or admin)",
        lambda b: lambda r: lobby.end(r, b.user_id, b.admin),
        HostCommand,
    )
    lobby_route(
        "/back",
        "I'm back: clear away (RULES.md §7)",
        lambda b: lambda r: lobby.come_back(r, b.user_id),
        PlayerOnly,
    )

    # -- timers (the worker) ------------------------------------------------------------

    @app.get(
        "/v1/games/{game_id}/stand-in",
        response_model=StandInTurn,
        tags=["timers"],
        responses=_errors(404, 409),
    )
    async def get_stand_in(
        game_id: GameId, version: Annotated[int, Query(ge=0, le=2**53)]
    ) -> Response:
        """The seat owing the decision at ``version`` and its own view (README "Timers");
        409 when the game is no longer at that version."""
        record, seat = await games.stand_in_turn(game_id, version)
        s = record.seats[seat]
        return _json(
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

    @app.post(
        "/v1/games/{game_id}/stand-in",
        response_model=ActionResult,
        tags=["timers"],
        responses=_errors(404, 409, 422),
    )
    async def post_stand_in(game_id: GameId, body: StandInAction) -> Response:
        """The stand-in's move for the seat owing the decision at ``version``; for a human
        it counts as a missed deadline (two in a row: away)."""
        outcome = await games.stand_in_act(game_id, body.version, body.action, body.action_id)
        return answer(outcome, "stand_in")

    @app.post(
        "/v1/games/{game_id}/uno-window/close",
        response_model=ActionResult,
        tags=["timers"],
        responses=_errors(404, 409, 422),
    )
    async def close_uno_window(game_id: GameId, body: CloseUnoWindow) -> Response:
        """Close the UNO window iff the one opened at ``opened_version`` is still open."""
        outcome = await games.close_uno_window(game_id, body.opened_version, body.action_id)
        return answer(outcome, "system")

    @app.post(
        "/v1/games/{game_id}/frozen-moved",
        response_model=ActionResult,
        tags=["play"],
        responses=_errors(404, 409, 422),
    )
    async def post_frozen_moved(game_id: GameId, body: FrozenMoved) -> Response:
        """The bot saw the frozen player move (RULES.md §6, Minions' Dumb Fu): the rules
        charge them if they are frozen, else 422 ``not_frozen``."""
        outcome = await games.frozen_moved(game_id, body.version, body.seat, body.action_id)
        return answer(outcome, "system")

    hot = {
        (route.path, method): route
        for route in app.routes
        if isinstance(route, APIRoute)
        for method in route.methods or ()
    }
    # The token is checked before the hot routes, and the metrics, outermost, count
    # requests refused for their token too.
    app.outer = MetricsMiddleware(
        TokenMiddleware(
            HotRoutes(
                app.framework,
                view=(hot[VIEW_ROUTE, "GET"], players_view),
                action=(hot[ACTION_ROUTE, "POST"], act),
                on_game_error=game_error_response,
                on_store_down=store_down_response,
            ),
            token=token,
        ),
        metrics=metrics,
    )

    # -- test-only ----------------------------------------------------------------------

    if settings.enable_test_endpoints:

        @app.post(
            "/v1/test/games",
            status_code=201,
            response_model=GameInfo,
            tags=["test"],
            responses=_errors(409, 422),
        )
        async def create_test_game(body: TestGame) -> Response:
            """A game in play from an explicit set-up (RULES.md §1 notation); enabled only
            with UNO_ENABLE_TEST_ENDPOINTS."""
            seats = []
            for spec in body.seats:
                if (spec.user_id is None) == (spec.ai is None):
                    raise GameError(422, "bad_setup", "each seat is a user_id or an ai level")
                seats.append(lobby.Seat(name=spec.name, user_id=spec.user_id, ai=spec.ai))
            users = [s.user_id for s in seats if s.user_id is not None]
            if len(users) != len(set(users)):
                raise GameError(422, "bad_setup", "a user can take only one seat")
            try:
                setup = Setup.from_dict(body.setup)
                record = await games.create_from_setup(
                    body.chat_id,
                    body.topic_id,
                    tuple(seats),
                    setup,
                    body.turn_seconds or settings.turn_seconds,
                )
            except (SetupError, ValueError, KeyError, TypeError, AttributeError) as e:
                raise GameError(422, "bad_setup", f"bad set-up: {e}") from None
            metrics.games_created.inc()
            return _json(game_info(record), 201)

    return app


app: FastAPI  # built on first access, below


def __getattr__(name: str) -> Any:
    """``services.engine.app:app`` for uvicorn, built from the environment on first use."""
    if name == "app":
        global app
        app = create_app()
        return app
    raise AttributeError(name)
