"""``python -m services.bot``: the Telegram bot.

Polls by default; with ``UNO_BOT_WEBHOOK_URL`` set it takes updates on ``POST /telegram``
instead (web.py). Either way the same HTTP server answers the probes; Prometheus's
``/metrics`` has a port of its own (``UNO_BOT_METRICS_PORT``), which the ingress does not
reach.
Registering the webhook with Telegram is a deploy step, run once and not by every replica:
``python -m services.deploy.set_webhook``.
"""

from __future__ import annotations

import logging

import uvicorn
import uvloop
from prometheus_client import start_http_server
from telegram import Update

from services.bot.app import build_application
from services.bot.web import web_app
from services.config import Settings, get_settings
from services.heap import freeze_startup_heap
from services.http_limits import server_options
from services.logs import configure_logging

log = logging.getLogger("services.bot")


async def serve(settings: Settings) -> None:
    webhook = bool(settings.bot_webhook_url)
    secret = settings.bot_webhook_secret.get_secret_value() if settings.bot_webhook_secret else None
    if webhook and not secret:
        raise SystemExit("UNO_BOT_WEBHOOK_SECRET is required with a webhook")
    application = build_application(settings)
    config = uvicorn.Config(
        web_app(application, secret if webhook else None),
        host=settings.bot_http_host,
        port=settings.bot_http_port,
        log_level="warning",
        access_log=False,
        **server_options(),
    )
    server = uvicorn.Server(config)
    metrics = (
        start_http_server(settings.bot_metrics_port, addr=settings.bot_http_host)[0]
        if settings.bot_metrics_port
        else None
    )
    async with application:
        # run_polling would call these; this loop also serves HTTP, so it calls them itself.
        if application.post_init is not None:
            await application.post_init(application)
        await application.start()
        if not webhook:
            assert application.updater is not None
            await application.updater.start_polling(
                allowed_updates=Update.ALL_TYPES, poll_interval=0.0, timeout=10
            )
        freeze_startup_heap()
        log.info(
            "bot @%s running (%s)", application.bot.username, "webhook" if webhook else "polling"
        )
        await server.serve()  # until SIGTERM or SIGINT
        if not webhook and application.updater is not None:
            await application.updater.stop()
        await application.stop()
        if application.post_shutdown is not None:
            await application.post_shutdown(application)
    if metrics is not None:
        metrics.shutdown()


def main() -> None:
    configure_logging("bot")
    settings = get_settings()
    # uvloop, as uvicorn runs the engine: the bot's one event loop carries every chat's
    # updates and renders, and uvloop schedules them for less CPU than asyncio's own loop.
    uvloop.run(serve(settings))


if __name__ == "__main__":
    main()
