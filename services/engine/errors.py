"""How the service answers what goes wrong: one JSON body (``ErrorBody``) for every error.

400 malformed request, 401 token, 403/404/409/422 the game's own refusals (``GameError``),
413 a body over the limit, 503 Redis did not answer, 500 a fault of the service. The same
functions answer for FastAPI's routes (``install``) and for the fast path (fast_path.py).
"""

from __future__ import annotations

import logging
import re
from functools import cache

import redis.exceptions
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path

from services.engine.game_record import GameError
from services.engine.metrics import ServiceMetrics
from services.engine.responses import error_response
from services.engine.store import CorruptRecord

log = logging.getLogger(__name__)


def game_error_response(metrics: ServiceMetrics, exc: GameError) -> Response:
    if exc.error == "stale_version":
        metrics.stale.inc()
    elif exc.error == "illegal_action":
        metrics.rejected.labels(exc.extra.get("reason", "")).inc()
    return error_response(exc.status, exc.error, exc.message, **exc.extra)


def store_down_response(exc: redis.exceptions.RedisError) -> Response:
    """503: Redis did not answer. [decision] A write whose answer was lost may have been
    applied all the same (the script runs whole or not at all), so the message says how to
    find out: the same action id again answers the first result, or applies it once."""
    log.error("Redis error: %r", exc)
    return error_response(
        503,
        "store_unavailable",
        "the game store did not answer; a write may have been applied: send the same action "
        "id again (or the same lobby request) to find out",
    )


def unhandled_response(exc: Exception) -> Response:
    """A fault that is not the caller's: 500 with a JSON body like every other error. A
    write is one script, all or nothing, so the game is never half-written; sending the
    same action id again tells whether the action was applied."""
    if isinstance(exc, CorruptRecord):
        log.error("unreadable game record: %s", exc)
        return error_response(500, "corrupt_game", "this game's stored record is unreadable")
    log.error("unhandled error", exc_info=exc)
    return error_response(
        500,
        "internal_error",
        "the engine failed; send the same action id again to see if it applied",
    )


def bad_request_response(exc: RequestValidationError) -> Response:
    problems = []
    for err in exc.errors()[:5]:
        where = ".".join(str(part) for part in err.get("loc", ()))
        problems.append(f"{where}: {err.get('msg', 'invalid')}")
    return error_response(400, "bad_request", "; ".join(problems) or "malformed request")


def install(app: FastAPI, metrics: ServiceMetrics) -> None:
    """Register the handlers that turn every exception into its documented answer."""

    @cache
    def allowed_methods() -> list[tuple[re.Pattern[str], set[str]]]:
        table = []
        for template, operations in app.openapi()["paths"].items():
            regex, _, _ = compile_path(template)
            table.append((regex, {method.upper() for method in operations}))
        return table

    async def on_game_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, GameError)
        return game_error_response(metrics, exc)

    async def on_bad_request(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return bad_request_response(exc)

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        response = error_response(exc.status_code, "http_error", str(exc.detail))
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

    async def on_store_down(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, redis.exceptions.RedisError)
        return store_down_response(exc)

    async def on_unhandled(_: Request, exc: Exception) -> Response:
        return unhandled_response(exc)

    app.add_exception_handler(GameError, on_game_error)
    app.add_exception_handler(RequestValidationError, on_bad_request)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
    app.add_exception_handler(redis.exceptions.RedisError, on_store_down)
    app.add_exception_handler(Exception, on_unhandled)
