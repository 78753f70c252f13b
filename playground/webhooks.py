"""Webhook delivery: each pending update is POSTed to the bot's URL in order, with the
``X-Telegram-Bot-Api-Secret-Token`` header when the bot set a secret, and retried while the
bot answers anything but 2xx (the failure shows in getWebhookInfo's ``last_error_*``).

As on Telegram, a bot may answer the POST with a Bot API call of its own as JSON
(``{"method": "sendMessage", ...}``); it is run like any other call.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from playground.world import Bot, World, now

#: Runs a Bot API call the way ``BotApi.call`` does: (token, method, parameters).
CallRunner = Callable[[str, str, dict[str, Any]], Awaitable[Any]]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def start_webhook(world: World, bot: Bot, run_call: CallRunner) -> None:
    """Deliver ``bot``'s updates to its webhook from now on; ``run_call`` runs a call the bot
    answers a delivery with."""
    hook = bot.webhook
    assert hook is not None
    hook.task = asyncio.get_running_loop().create_task(_deliver(world, bot, run_call))
    hook.wake.set()


def stop_webhook(bot: Bot) -> None:
    if bot.webhook is not None and bot.webhook.task is not None:
        bot.webhook.task.cancel()


async def _deliver(world: World, bot: Bot, run_call: CallRunner) -> None:
    hook = bot.webhook
    assert hook is not None
    headers = {"Content-Type": "application/json"}
    if hook.secret_token:
        headers[SECRET_HEADER] = hook.secret_token
    failures = 0
    async with httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=5.0)) as client:
        while True:
            if not bot.updates:
                hook.wake.clear()
                await hook.wake.wait()
                continue
            update = bot.updates[0]
            error: str | None = None
            reply: Any = None
            try:
                response = await client.post(hook.url, json=update, headers=headers)
                if 200 <= response.status_code < 300:
                    with contextlib.suppress(ValueError):
                        reply = response.json() if response.content else None
                else:
                    error = (
                        f"Wrong response from the webhook: {response.status_code} "
                        f"{response.reason_phrase}"
                    )
            except httpx.ConnectError:
                error = "Connection refused"
            except httpx.TimeoutException:
                error = "Read timeout expired"
            except httpx.HTTPError as exc:
                error = f"Failed to deliver the update: {exc}"
            if error is None:
                if bot.updates and bot.updates[0] is update:
                    bot.updates.popleft()
                failures = 0
                if isinstance(reply, dict) and isinstance(reply.get("method"), str):
                    params = {k: v for k, v in reply.items() if k != "method"}
                    await run_call(bot.token, reply["method"], params)
                continue
            hook.last_error_date = now()
            hook.last_error_message = error
            world.emit({"kind": "webhook_error", "bot_id": bot.id, "error": error})
            delays = world.webhook_retry_delays
            await asyncio.sleep(delays[min(failures, len(delays) - 1)])
            failures += 1
