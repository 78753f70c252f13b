"""``python -m services.webapp``: the Mini App service on ``UNO_WEBAPP_HTTP_HOST``:``PORT``,
and its Prometheus ``/metrics`` on ``UNO_WEBAPP_METRICS_PORT`` (a port of its own: the
public one carries the page, and the ingress reaches it)."""

from __future__ import annotations

import uvicorn
from prometheus_client import start_http_server

from services.config import get_settings
from services.http_limits import server_options
from services.logs import configure_logging
from services.webapp.app import create_app


def main() -> None:
    settings = get_settings()
    configure_logging("webapp")
    if settings.webapp_metrics_port:
        start_http_server(settings.webapp_metrics_port, addr=settings.webapp_http_host)
    uvicorn.run(
        create_app(settings),
        host=settings.webapp_http_host,
        port=settings.webapp_http_port,
        log_level="warning",
        timeout_graceful_shutdown=5,
        **server_options(),
    )


if __name__ == "__main__":
    main()
