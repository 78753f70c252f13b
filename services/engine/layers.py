"""The service's own ASGI layers, outside FastAPI: the token and the fault barrier
(metrics.py has the third; the body limit is every service's, ``services.http_limits``).
Pure ASGI, so each costs a request one function call, and the fast path (fast_path.py) is
behind them as FastAPI is.
"""

from __future__ import annotations

import hmac
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.engine.errors import unhandled_response
from services.engine.responses import error_response

log = logging.getLogger(__name__)

#: [decision] The largest request body the service reads. Its largest honest body, a
#: test-only set-up of a full No Mercy table, is under 2 KB; a move is about 100 bytes.
MAX_BODY_BYTES = 16 * 1024


def needs_token(path: str) -> bool:
    """Every route but the health checks and the API's own description."""
    return path.startswith("/v1/") or path == "/metrics"


class TokenLayer:
    """Every route but the health checks needs the service token as a bearer token.

    Checked before routing and before a body is read: a request without the token never
    reaches a handler. The OpenAPI document declares the scheme (app.py)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        if not token:
            raise ValueError("an empty token would let anyone in")
        self.app = app
        self.expected = b"Bearer " + token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and needs_token(scope["path"]):
            given = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
            if not hmac.compare_digest(given, self.expected):
                response = error_response(401, "unauthorized", "a valid service token is required")
                response.headers["WWW-Authenticate"] = "Bearer"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class FaultBarrier:
    """No fault escapes to the server. Starlette answers a fault 500 and then raises it
    again (for the server's log), and uvicorn closes the connection on any exception, so
    the caller's next request on that keep-alive connection failed. Here a fault after the
    answer began is dropped (it was logged when answered), and one before is answered 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def noting_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, noting_send)
        except Exception as exc:
            if started:
                log.debug("fault after the answer began", exc_info=exc)
                return
            await unhandled_response(exc)(scope, receive, send)
