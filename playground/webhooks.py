"""Webhook delivery: each pending update is POSTed to the bot's URL in order, with the
``X-Telegram-Bot-Api-Secret-Token`` header when the bot set a secret, and retried while the
bot answers anything but 2xx (the failure shows in getWebhookInfo's ``last_error_*``).

As on Telegram, a bot may answer the POST with a Bot API call of its own as JSON
(``{"method": "sendMessage", ...}``); it is run like any other call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

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
    """Deliver the bot's updates over up to ``max_connections`` requests at once, as
    Telegram does (setWebhook's ``max_connections``, 40 unless set), each update until the
    bot answers 2xx.

    [decision] One chat's updates go one at a time, in order (an update with no chat, such
    as an inline query, is ordered with its user's): Telegram does not say so, but it is what
    bots are seen to get, and what a bot that renders a chat's moves in order relies on.
    Updates of other chats go meanwhile, so one slow or failing delivery holds back only
    its own chat."""
    hook = bot.webhook
    assert hook is not None
    headers = {"Content-Type": "application/json"}
    if hook.secret_token:
        headers[SECRET_HEADER] = hook.secret_token
    in_flight: dict[int, asyncio.Task[None]] = {}  # update id -> its delivery
    busy: set[object] = set()  # the chats (or users) with a delivery in flight
    failures = 0

    async def deliver(client: aiohttp.ClientSession, update: dict[str, Any], order: object) -> None:
        nonlocal failures
        try:
            error, reply = await _post(client, hook.url, update, headers)
            if error is None:
                with contextlib.suppress(ValueError):
                    bot.updates.remove(update)
                failures = 0
                if isinstance(reply, dict) and isinstance(reply.get("method"), str):
                    params = {k: v for k, v in reply.items() if k != "method"}
                    await run_call(bot.token, reply["method"], params)
                return
            hook.last_error_date = now()
            hook.last_error_message = error
            world.emit({"kind": "webhook_error", "bot_id": bot.id, "error": error})
            delays = world.webhook_retry_delays
            await asyncio.sleep(delays[min(failures, len(delays) - 1)])
            failures += 1
        finally:
            del in_flight[update["update_id"]]
            busy.discard(order)
            hook.wake.set()

    # aiohttp rather than httpx: a delivery costs a third of the CPU, and the local Telegram
    # shares the machine with the bot it is measured against (bench/telegram_load.py).
    connector = aiohttp.TCPConnector(limit=hook.max_connections)
    timeout = aiohttp.ClientTimeout(total=60.0, sock_connect=5.0)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        try:
            while True:
                hook.wake.clear()
                for update in list(bot.updates):  # oldest first
                    if len(in_flight) >= hook.max_connections:
                        break
                    order = _order_of(update)
                    if update["update_id"] in in_flight or order in busy:
                        continue
                    busy.add(order)
                    in_flight[update["update_id"]] = asyncio.create_task(
                        deliver(client, update, order)
                    )
                await hook.wake.wait()
        finally:
            for task in list(in_flight.values()):
                task.cancel()
            await asyncio.gather(*in_flight.values(), return_exceptions=True)


async def _post(
    client: aiohttp.ClientSession, url: str, update: dict[str, Any], headers: dict[str, str]
) -> tuple[str | None, Any]:
    """One delivery: (None, the bot's answer) when it took it, else (the error as
    getWebhookInfo tells it, None)."""
    try:
        async with client.post(url, data=json.dumps(update), headers=headers) as response:
            body = await response.read()
    except aiohttp.ClientConnectorError:
        return "Connection refused", None
    except TimeoutError:
        return "Read timeout expired", None
    except aiohttp.ClientError as exc:
        return f"Failed to deliver the update: {exc}", None
    if not 200 <= response.status < 300:
        return f"Wrong response from the webhook: {response.status} {response.reason}", None
    reply: Any = None
    with contextlib.suppress(ValueError):
        reply = json.loads(body) if body else None
    return None, reply


def _order_of(update: dict[str, Any]) -> object:
    """What the update is ordered with: its chat, else its user, else nothing but itself."""
    for kind, body in update.items():
        if kind == "update_id" or not isinstance(body, dict):
            continue
        chat = body.get("chat") or (body.get("message") or {}).get("chat")
        if isinstance(chat, dict) and "id" in chat:
            return ("chat", chat["id"])
        user = body.get("from") or body.get("user")
        if isinstance(user, dict) and "id" in user:
            return ("user", user["id"])
    return ("update", update.get("update_id"))
