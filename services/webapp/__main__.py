"""``python -m services.webapp``: the Mini App service on ``UNO_WEBAPP_HTTP_HOST``:``PORT``."""

from __future__ import annotations

import uvicorn

from services.config import get_settings
from services.logs import configure_logging
from services.webapp.app import create_app


def main() -> None:
    settings = get_settings()
    configure_logging("webapp")
    uvicorn.run(
        create_app(settings),
        host=settings.webapp_http_host,
        port=settings.webapp_http_port,
        log_level="warning",
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    main()
