"""``python -m services.bot``: the Telegram bot, polling (webhook mode by settings)."""

from __future__ import annotations

from telegram import Update

from services.bot.app import build_application
from services.config import get_settings
from services.logs import configure_logging


def main() -> None:
    configure_logging("bot")
    settings = get_settings()
    app = build_application(settings)
    app.run_polling(allowed_updates=Update.ALL_TYPES, poll_interval=0.0, timeout=10)


if __name__ == "__main__":
    main()
