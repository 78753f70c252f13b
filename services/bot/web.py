"""The bot's HTTP side (Starlette under uvicorn, in the bot's own event loop): the webhook
Telegram posts updates to, the liveness and readiness probes and the metrics.

- ``POST /telegram`` — an update; refused (403) without the secret token
  (``UNO_BOT_WEBHOOK_SECRET``), and an ``update_id`` another replica already took is
  answered 200 and dropped (Telegram redelivers an update it did not see answered, and a
  load balancer may send it to another replica).
- ``GET /healthz`` — 200 while the event loop runs (liveness).
- ``GET /readyz`` — 200 when Redis and the engine answer (readiness).
- ``GET /metrics`` — Prometheus.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram.ext import Application

from services.bot.context import SERVICES_KEY, BotServices
from services.bot.metrics import UPDATES

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: How long an update id is remembered across replicas (Telegram redelivers for up to a day,
#: but within minutes in practice).
SEEN_UPDATE_SECONDS = 3600


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

    async def metrics(request: Request) -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    return Starlette(
        routes=[
            Route("/telegram", telegram, methods=["POST"]),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Route("/metrics", metrics),
        ]
    )
