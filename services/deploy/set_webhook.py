"""Tell Telegram where to deliver the bot's updates: the image's ``set-webhook`` entry point.

    python -m services.deploy.set_webhook

With ``UNO_BOT_WEBHOOK_URL`` set it calls ``setWebhook`` with that URL and
``UNO_BOT_WEBHOOK_SECRET``: Telegram then sends the secret in the
``X-Telegram-Bot-Api-Secret-Token`` header of every update, and the bot drops a request
without it, so nobody else can feed it updates. With no URL it calls ``deleteWebhook``: a bot
cannot poll while a webhook is set. Pending updates are kept either way, so moves sent during
an upgrade are not lost.

It runs once per deployment (a Kubernetes Job, ``docker compose run``) rather than in every
bot replica at start. Exit status: 0 done, 2 bad settings, 1 Telegram refused or unreachable.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys

from telegram import Bot, Update
from telegram.error import TelegramError

from services.config import Settings, get_settings
from services.logs import configure_logging

log = logging.getLogger(__name__)

#: What the Bot API accepts as a webhook's secret_token.
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")


class SettingsError(ValueError):
    """The environment does not describe a webhook Telegram would accept."""


def webhook_request(settings: Settings) -> tuple[str, str] | None:
    """``(url, secret)`` to register, or None to remove the webhook; refuses bad settings."""
    if settings.telegram_token is None or not settings.telegram_token.get_secret_value():
        raise SettingsError("UNO_TELEGRAM_TOKEN is not set")
    url = settings.bot_webhook_url.strip()
    if not url:
        return None
    secret = settings.bot_webhook_secret.get_secret_value() if settings.bot_webhook_secret else ""
    if not secret:
        raise SettingsError(
            "UNO_BOT_WEBHOOK_URL is set but UNO_BOT_WEBHOOK_SECRET is not: "
            "a webhook without a secret accepts updates from anyone"
        )
    if not SECRET_TOKEN.fullmatch(secret):
        raise SettingsError("UNO_BOT_WEBHOOK_SECRET must be 1-256 of A-Z, a-z, 0-9, _ and -")
    if not url.startswith(("https://", "http://")):
        raise SettingsError(f"UNO_BOT_WEBHOOK_URL must be an http(s) URL, not {url!r}")
    return url, secret


async def apply(settings: Settings) -> str:
    """Register or remove the webhook; returns what was done, for the log."""
    request = webhook_request(settings)
    assert settings.telegram_token is not None  # webhook_request checked it
    bot = Bot(settings.telegram_token.get_secret_value(), base_url=settings.bot_api_url)
    async with bot:
        if request is None:
            await bot.delete_webhook(drop_pending_updates=False)
            return "webhook removed: the bot polls"
        url, secret = request
        # Every kind of update, as the bot asks for when it polls.
        await bot.set_webhook(
            url=url,
            secret_token=secret,
            allowed_updates=Update.ALL_TYPES,
            drop_pending_updates=False,
        )
        return f"webhook set to {url}"


def main() -> int:
    configure_logging("set-webhook")
    try:
        outcome = asyncio.run(apply(get_settings()))
    except SettingsError as exc:
        log.error("not changing the webhook: %s", exc)
        return 2
    except TelegramError as exc:
        log.error("Telegram refused or could not be reached: %s", exc)
        return 1
    log.info(outcome)
    return 0


if __name__ == "__main__":
    sys.exit(main())
