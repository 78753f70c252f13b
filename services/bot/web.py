"""The bot's HTTP side (Starlette under uvicorn, in the bot's own event loop): the webhook
Telegram posts updates to and the liveness and readiness probes. Prometheus's ``/metrics``
is served on a port of its own (``__main__.py``): this one is reached by Telegram's
webhook calls through the ingress.

- ``POST /telegram`` — an update; refused (403) without the secret token
  (``UNO_BOT_WEBHOOK_SECRET``), and an ``update_id`` another replica already took is
  answered 200 and dropped (Telegram redelivers an update it did not see answered, and a
  load balancer may send it to another replica). A body over ``MAX_UPDATE_BYTES`` is
  refused 413 unread, and a head over ``services.http_limits.MAX_HEAD_BYTES`` 431.
- ``GET /healthz`` — 200 while the event loop runs (liveness).
- ``GET /readyz`` — 200 when Redis and the engine answer (readiness).
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram.ext import Application

from services.bot.context import SERVICES_KEY, BotServices
from services.bot.metrics import UPDATES
from services.http_limits import BodyLimit

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: How long an update id is remembered across replicas (Telegram redelivers for up to a day,
#: but within minutes in practice).
SEEN_UPDATE_SECONDS = 3600
#: The largest body read: an update, a message of 4,096 characters with its entities and
#: the message it replies to, is some tens of KB at most.
MAX_UPDATE_BYTES = 1024 * 1024


def web_app(
    application: Application[Any, Any, Any, Any, Any, Any], secret: str | None
) -> Starlette:
    def services() -> BotServices | None:
        found = application.bot_data.get(SERVICES_KEY)
        return found if isinstance(found, BotServices) else None

    async def telegram(request: Request) -> Response:
        given = request.headers.get(SECRET_HEADER, "")
        if secret is None or not hmac.compare_digest(given.encode(), secret.encode()):
            return JSONResponse({"error": "forbidden"}, status_code=403)
        try:
            data = await request.json()
            update = Update.de_json(data, application.bot)
        except Exception:
            return JSONResponse({"error": "bad_update"}, status_code=400)
        uno = services()
        if uno is None:
            return JSONResponse({"error": "starting"}, status_code=503)
        if not await uno.memory.first_update(update.update_id, SEEN_UPDATE_SECONDS):
            UPDATES.labels("duplicate").inc()
            return JSONResponse({"ok": True, "duplicate": True})
        await application.update_queue.put(update)
        return JSONResponse({"ok": True})

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        uno = services()
        ready = False
        if uno is not None:
            try:
                ready = bool(await uno.memory.redis.ping()) and await uno.engine.ready()
            except Exception:
                ready = False
        return JSONResponse(
            {"status": "ready" if ready else "not ready"}, status_code=200 if ready else 503
        )

    return Starlette(
        middleware=[Middleware(BodyLimit, limit=MAX_UPDATE_BYTES)],
        routes=[
            Route("/telegram", telegram, methods=["POST"]),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
        ],
    )
