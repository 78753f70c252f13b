"""python-telegram-bot 22 plays the scripted conversation against the local Telegram, by long
polling and by webhook; every object it gets must parse."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

import pytest
import telegram
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    ReplyParameters,
    TelegramObject,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import InvalidToken, NetworkError, RetryAfter
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from playground.server import LocalTelegram
from playground.webhooks import SECRET_HEADER
from tests.helpers.conversation_script import (
    LEGACY_FIELDS,
    STICKER,
    UNKNOWN_FIELD_UPDATE,
    Cast,
    cast,
    play,
)

T = TypeVar("T")
JOIN = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="join")]])


def unknown_fields(value: Any, path: str = "update") -> list[str]:
    """Fields python-telegram-bot did not recognise (it keeps them in ``api_kwargs``): a
    misspelt field in the local Telegram shows here, in nested objects too."""
    found: list[str] = []
    if isinstance(value, TelegramObject):
        found += [f"{path}.{name}" for name in sorted(set(value.api_kwargs) - LEGACY_FIELDS)]
        for name, item in value._get_attrs(recursive=False).items():
            if name != "api_kwargs":
                found += unknown_fields(item, f"{path}.{name}")
    elif isinstance(value, tuple | list):
        for n, item in enumerate(value):
            found += unknown_fields(item, f"{path}[{n}]")
    return found


def build_bot(token: str, bot_api_url: str) -> tuple[Application, list[object]]:  # type: ignore[type-arg]
    """The script's bot, in python-telegram-bot's idiom, and the list its errors go to (any
    handler's, and any field of an update python-telegram-bot does not know)."""
    errors: list[object] = []
    state: dict[str, Any] = {"players": [], "lobby": None}
    app = ApplicationBuilder().token(token).base_url(bot_api_url).build()

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_user and update.effective_message
        await update.effective_message.reply_text(f"Hello {update.effective_user.first_name}")

    async def new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None
        if state["lobby"] is not None:
            await message.reply_text(
                "A game is already open", reply_parameters=ReplyParameters(message.message_id)
            )
            return
        state["lobby"] = await context.bot.send_message(
            message.chat_id,
            "<b>Lobby</b>: nobody yet",
            parse_mode=ParseMode.HTML,
            reply_markup=JOIN,
        )

    async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        name = query.from_user.first_name
        if name in state["players"]:
            await query.answer("You are already in", show_alert=True)
            return
        state["players"].append(name)
        await query.answer("Welcome to the game")
        await query.edit_message_text(
            "<b>Lobby</b>: " + ", ".join(state["players"]),
            parse_mode=ParseMode.HTML,
            reply_markup=JOIN,
        )

    async def inline(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.inline_query is not None
        results = [
            InlineQueryResultArticle(f"r{n}", f"red {n}", InputTextMessageContent(f"red {n}"))
            for n in (5, 7)
        ]
        await update.inline_query.answer(results, cache_time=0, is_personal=True)

    async def chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        result = update.chosen_inline_result
        assert result is not None and state["lobby"] is not None
        title = {"r5": "red 5", "r7": "red 7"}[result.result_id]
        await context.bot.send_message(
            state["lobby"].chat_id, f"{result.from_user.first_name} played {title}"
        )

    async def retrying(call: Callable[[], Awaitable[T]]) -> T:
        """``call`` again after each 429, waiting the ``retry_after`` Telegram asked for."""
        while True:
            try:
                return await call()
            except RetryAfter as exc:
                wait = exc.retry_after
                seconds = wait.total_seconds() if isinstance(wait, timedelta) else wait
                await asyncio.sleep(float(seconds))

    async def flood(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        chat_id = update.effective_chat.id
        for text in ("1", "2", "3"):
            await retrying(partial(context.bot.send_message, chat_id, text))

    async def count(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        chat_id = update.effective_chat.id
        counter = await retrying(partial(context.bot.send_message, chat_id, "count: 0"))
        for n in (1, 2, 3):
            await retrying(partial(counter.edit_text, f"count: {n}"))

    async def sticker(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        sent = await context.bot.send_sticker(update.effective_chat.id, STICKER)
        assert sent.sticker is not None and sent.sticker.file_id == STICKER

    async def edited(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.edited_message
        assert message is not None
        await context.bot.send_message(message.chat_id, f"You edited: {message.text}")

    async def clear(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if state["lobby"] is not None:
            await state["lobby"].delete()

    async def check_fields(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        unknown = unknown_fields(update)
        if unknown:
            raise AssertionError(f"fields python-telegram-bot does not know: {unknown}")

    app.add_handler(TypeHandler(Update, check_fields), group=-1)
    app.add_handler(CommandHandler("start", start, filters.ChatType.PRIVATE))
    app.add_handler(CommandHandler("new", new, filters.ChatType.GROUPS))
    app.add_handler(CommandHandler("flood", flood, filters.ChatType.PRIVATE))
    app.add_handler(CommandHandler("clear", clear, filters.ChatType.GROUPS))
    app.add_handler(CommandHandler("count", count, filters.ChatType.PRIVATE))
    app.add_handler(CommandHandler("sticker", sticker, filters.ChatType.GROUPS))
    app.add_handler(CallbackQueryHandler(join, pattern="^join$"))
    app.add_handler(InlineQueryHandler(inline))
    app.add_handler(ChosenInlineResultHandler(chosen))
    app.add_handler(MessageHandler(filters.UpdateType.EDITED_MESSAGE, edited))

    async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        errors.append(context.error)

    app.add_error_handler(on_error)
    return app, errors


@asynccontextmanager
async def polling(app: Application) -> AsyncIterator[None]:  # type: ignore[type-arg]
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=2, allowed_updates=Update.ALL_TYPES)
    try:
        yield
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()


async def test_conversation_by_long_polling(local_telegram: LocalTelegram) -> None:
    c: Cast = cast(local_telegram.control, "ptb")
    app, errors = build_bot(c.token, local_telegram.bot_api_url)
    async with polling(app):
        await asyncio.to_thread(play, local_telegram.control, c)
    assert errors == []


@asynccontextmanager
async def webhook_receiver(app: Application, secret: str) -> AsyncIterator[str]:  # type: ignore[type-arg]
    """PTB's custom-webhook pattern: a small web server that feeds ``app.update_queue``;
    yields the webhook URL. Updates without the secret header are refused."""
    seen_secrets: list[str | None] = []

    async def receive(request: Request) -> Response:
        seen_secrets.append(request.headers.get(SECRET_HEADER))
        if request.headers.get(SECRET_HEADER) != secret:
            return Response(status_code=403)
        await app.update_queue.put(Update.de_json(await request.json(), app.bot))
        return Response()

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(
            Starlette(routes=[Route("/hook", receive, methods=["POST"])]),
            log_level="warning",
            lifespan="off",
        )
    )
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/hook"
    finally:
        server.should_exit = True
        await task
    assert seen_secrets and set(seen_secrets) == {secret}


async def test_conversation_by_webhook(local_telegram: LocalTelegram) -> None:
    c = cast(local_telegram.control, "ptbhook")
    app, errors = build_bot(c.token, local_telegram.bot_api_url)
    await app.initialize()
    await app.start()
    try:
        async with webhook_receiver(app, "s3cret-token") as url:
            assert await app.bot.set_webhook(
                url, secret_token="s3cret-token", allowed_updates=Update.ALL_TYPES
            )
            info = await app.bot.get_webhook_info()
            assert info.url == url
            await asyncio.to_thread(play, local_telegram.control, c)
            assert await app.bot.delete_webhook()
    finally:
        await app.stop()
        await app.shutdown()
    assert errors == []


def test_unknown_fields_are_found() -> None:
    update = Update.de_json(UNKNOWN_FIELD_UPDATE, None)
    assert unknown_fields(update) == ["update.message.chat.colour"]


async def test_a_method_not_served_is_no_wrong_token(local_telegram: LocalTelegram) -> None:
    """python-telegram-bot reads a 404 as ``InvalidToken`` (and stops); a method the local
    Telegram does not serve says so instead, and the bot's token still works."""
    made = local_telegram.control.create_bot("unserved_methods_bot")
    bot = telegram.Bot(made["token"], base_url=local_telegram.bot_api_url)
    async with bot:
        with pytest.raises(NetworkError, match="does not serve the method 'sendVoice'") as raised:
            await bot.send_voice(made["user"]["id"], "AwACAgIAAxkBAAIBQmZ")
        assert not isinstance(raised.value, InvalidToken)
        assert (await bot.get_me()).id == made["user"]["id"]
