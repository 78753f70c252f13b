"""The engine service: a stateless HTTP API (FastAPI, /v1) over game state in Redis.

The bot and the worker never touch game state; they call these routes (through client.py).
Every route but /healthz, /readyz and the API description (/openapi.json, /docs: served in
development mode only) needs the service token (``UNO_ENGINE_TOKEN``) as a bearer token.
Status codes: 400 malformed request, 401 bad token, 403 not your seat or not the host, 404
unknown game, 409 stale version or a lobby conflict (the body says which and carries the
current version), 413 a body over the limit, 422 an action the rules refuse (``reason`` is
the engine's code), 503 Redis did not answer. A hand leaves the service only inside a
player's own view.

``create_app`` wires the parts: the routers (routes/), the error answers (errors.py), and
in front of FastAPI the service's own ASGI layers (metrics, fault barrier, token, body
limit) and the fast path of a move (fast_path.py).

Run: ``uvicorn services.engine.app:app`` (or ``--factory services.engine.app:create_app``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from redis.asyncio import BlockingConnectionPool, Redis
from starlette.types import ASGIApp, Receive, Scope, Send

from services.config import Settings, get_settings
from services.engine import errors
from services.engine.context import EngineContext
from services.engine.fast_path import FastPath
from services.engine.games import Games, Timing
from services.engine.layers import MAX_BODY_BYTES, FaultBarrier, TokenLayer, needs_token
from services.engine.metrics import MetricsMiddleware, ServiceMetrics
from services.engine.routes import export, health, lobby, play, testing, timers, variants
from services.engine.store import GameStore
from services.heap import freeze_startup_heap
from services.http_limits import BodyLimit
from services.logs import configure_logging

log = logging.getLogger(__name__)

#: Redis connections per service process; requests beyond it wait their turn (5 s at most).
REDIS_POOL_SIZE = 64


class EngineAPI(FastAPI):
    """FastAPI with the service's own pure ASGI layers (metrics, fault barrier, token, body
    limit, fast path) outside it, rather than among its middleware: the two requests of
    every move then skip the framework's per-request layers as well as routing. Every other
    request goes on through FastAPI unchanged."""

    outer: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.outer is None:
            await super().__call__(scope, receive, send)
        else:
            await self.outer(scope, receive, send)

    async def framework(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)


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
                if needs_token(path):
                    for operation in operations.values():
                        operation["security"] = [{"serviceToken": []}]
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi


def create_app(settings: Settings | None = None, *, fast_path: bool = True) -> EngineAPI:
    """The service. Raises ``InsecureToken`` for an empty token, or the development token
    outside development mode (``UNO_DEV_MODE``). ``fast_path=False`` serves every request
    through FastAPI (the fast path's equivalence test compares the two)."""
    settings = settings or get_settings()
    token = settings.require_engine_token()
    if settings.engine_token_is_default:
        log.warning("development mode: the engine accepts the development token")
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
    timing = Timing(
        away_pause_seconds=settings.away_pause_seconds,
        uno_window_seconds=float(settings.uno_window_seconds),
        turn_nudge_seconds=settings.turn_nudge_seconds,
    )
    context = EngineContext(settings, store, Games(store, timing), ServiceMetrics())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        freeze_startup_heap()
        yield
        await redis_client.aclose()

    app = EngineAPI(
        title="UNO engine",
        version="1",
        summary="Game state and rules for the UNO bot: lobby, actions, views, timers.",
        lifespan=lifespan,
        # The API's map is for developers: a deployment publishes none.
        openapi_url="/openapi.json" if settings.dev_mode else None,
    )
    app.state.context = context
    app.openapi = with_bearer_security(app)  # type: ignore[method-assign]
    errors.install(app, context.metrics)
    # The move routes first: Starlette tries routes in order.
    for router in (
        play.router,
        health.router,
        lobby.router,
        timers.router,
        variants.router,
        export.router,
    ):
        app.include_router(router)
    if settings.enable_test_endpoints:
        app.include_router(testing.router)

    # The play router is included without a prefix: its routes' paths are the templates
    # the metrics name.
    routes = {
        (route.path, method): route
        for route in play.router.routes
        if isinstance(route, APIRoute)
        for method in route.methods or ()
    }
    inner: ASGIApp = app.framework
    if fast_path:
        inner = FastPath(
            inner,
            context,
            view_route=routes[play.VIEW_ROUTE, "GET"],
            action_route=routes[play.ACTION_ROUTE, "POST"],
            spectator_route=routes[play.SPECTATOR_ROUTE, "GET"],
            views_route=routes[play.VIEWS_ROUTE, "GET"],
        )
    # The token is checked before a body is read; the metrics, outermost, count requests
    # refused for their token or their size too, and every fault answered by the barrier.
    app.outer = MetricsMiddleware(
        FaultBarrier(TokenLayer(BodyLimit(inner, MAX_BODY_BYTES), token)), metrics=context.metrics
    )
    return app


app: FastAPI  # built on first access, below


def __getattr__(name: str) -> Any:
    """``services.engine.app:app`` for uvicorn, built from the environment on first use."""
    if name == "app":
        global app
        configure_logging("engine")
        app = create_app()
        return app
    raise AttributeError(name)
