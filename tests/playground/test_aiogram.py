"""aiogram 3 plays the same scripted conversation as python-telegram-bot (see
tests/helpers/conversation_script.py), by long polling and by webhook; every object it gets
must parse."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, TypeVar

from aiogram import Bot, Dispatcher, F
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramRetryAfter
from aiogram.filters import Command, CommandStart
from aiogram.types import (
    CallbackQuery,
    ChosenInlineResult,
    ErrorEvent,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQuery,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Message,
    ReplyParameters,
    TelegramObject,
    Update,
)
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from playground.server import LocalTelegram
from tests.helpers.conversation_script import (
    LEGACY_FIELDS,
    STICKER,
    UNKNOWN_FIELD_UPDATE,
    cast,
    play,
)

T = TypeVar("T")
JOIN = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Join", callback_data="join")]]
)
GROUPS = F.chat.type.in_({"group", "supergroup"})


def unknown_fields(value: Any, path: str = "update") -> list[str]:
    """Fields of a parsed object that its aiogram type does not know (a misspelt field in
    the local Telegram would show here), found in nested objects too."""
    found: list[str] = []
    if isinstance(value, TelegramObject):
        for name in sorted(set(value.model_extra or {}) - LEGACY_FIELDS):
            found.append(f"{path}.{name}")
        for name in type(value).model_fields:
            found += unknown_fields(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found += unknown_fields(item, f"{path}[{n}]")
    return found


def build_bot(token: str, url: str) -> tuple[Bot, Dispatcher, list[BaseException]]:
    """The script's bot, in aiogram's idiom; the list collects handler errors, and any field
    of an update that aiogram does not know."""
    bot = Bot(token, session=AiohttpSession(api=TelegramAPIServer.from_base(url)))
    dp = Dispatcher()
    state: dict[str, Any] = {"players": [], "lobby": None}
    errors: list[BaseException] = []

    @dp.update.outer_middleware()
    async def check_fields(
        handler: Callable[[Update, dict[str, Any]], Awaitable[Any]],
        update: Update,
        data: dict[str, Any],
    ) -> Any:
        unknown = unknown_fields(update)
        if unknown:
            errors.append(AssertionError(f"fields aiogram does not know: {unknown}"))
        return await handler(update, data)

    @dp.message(CommandStart(), F.chat.type == "private")
    async def start(message: Message) -> None:
        assert message.from_user is not None
        await message.answer(f"Hello {message.from_user.first_name}")

    @dp.message(Command("new"), GROUPS)
    async def new(message: Message) -> None:
        if state["lobby"] is not None:
            await message.answer(
                "A game is already open",
                reply_parameters=ReplyParameters(message_id=message.message_id),
            )
            return
        state["lobby"] = await message.answer(
            "<b>Lobby</b>: nobody yet", parse_mode=ParseMode.HTML, reply_markup=JOIN
        )

    @dp.callback_query(F.data == "join")
    async def join(query: CallbackQuery) -> None:
        name = query.from_user.first_name
        if name in state["players"]:
            await query.answer("You are already in", show_alert=True)
            return
        state["players"].append(name)
        await query.answer("Welcome to the game")
        assert isinstance(query.message, Message)
        await query.message.edit_text(
            "<b>Lobby</b>: " + ", ".join(state["players"]),
            parse_mode=ParseMode.HTML,
            reply_markup=JOIN,
        )

    @dp.inline_query()
    async def inline(query: InlineQuery) -> None:
        results = [
            InlineQueryResultArticle(
                id=f"r{n}",
                title=f"red {n}",
                input_message_content=InputTextMessageContent(message_text=f"red {n}"),
            )
            for n in (5, 7)
        ]
        await query.answer(results, cache_time=0, is_personal=True)

    @dp.chosen_inline_result()
    async def chosen(result: ChosenInlineResult, bot: Bot) -> None:
        title = {"r5": "red 5", "r7": "red 7"}[result.result_id]
        await bot.send_message(
            state["lobby"].chat.id, f"{result.from_user.first_name} played {title}"
        )

    async def retrying(call: Callable[[], Awaitable[T]]) -> T:
        """``call`` again after each 429, waiting the ``retry_after`` Telegram asked for."""
        while True:
            try:
                return await call()
            except TelegramRetryAfter as exc:
                await asyncio.sleep(exc.retry_after)

    @dp.message(Command("flood"), F.chat.type == "private")
    async def flood(message: Message) -> None:
        for text in ("1", "2", "3"):
            await retrying(partial(message.answer, text))

    @dp.message(Command("count"), F.chat.type == "private")
    async def count(message: Message) -> None:
        counter = await retrying(partial(message.answer, "count: 0"))
        for n in (1, 2, 3):
            await retrying(partial(counter.edit_text, f"count: {n}"))

    @dp.message(Command("sticker"), GROUPS)
    async def sticker(message: Message) -> None:
        sent = await message.answer_sticker(STICKER)
        assert sent.sticker is not None and sent.sticker.file_id == STICKER

    @dp.edited_message()
    async def edited(message: Message) -> None:
        await message.answer(f"You edited: {message.text}")

    @dp.message(Command("clear"), GROUPS)
    async def clear(message: Message) -> None:
        if state["lobby"] is not None:
            await state["lobby"].delete()

    @dp.errors()
    async def on_error(event: ErrorEvent) -> None:
        errors.append(event.exception)

    return bot, dp, errors


async def test_conversation_by_long_polling(local_telegram: LocalTelegram) -> None:
    c = cast(local_telegram.control, "aiogram")
    bot, dp, errors = build_bot(c.token, local_telegram.url)
    polling = asyncio.create_task(
        dp.start_polling(
            bot,
            polling_timeout=2,
            handle_signals=False,
            allowed_updates=dp.resolve_used_update_types(),
        )
    )
    try:
        await asyncio.to_thread(play, local_telegram.control, c)
    finally:
        await dp.stop_polling()
        await polling
    assert errors == []


@asynccontextmanager
async def webhook_server(bot: Bot, dp: Dispatcher, secret: str) -> AsyncIterator[str]:
    """aiogram's own aiohttp webhook handler on a free port; yields the webhook URL."""
    app = web.Application()
    SimpleRequestHandler(dispatcher=dp, bot=bot, secret_token=secret).register(app, path="/hook")
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}/hook"
    finally:
        await runner.cleanup()


async def test_conversation_by_webhook(local_telegram: LocalTelegram) -> None:
    c = cast(local_telegram.control, "aiohook")
    bot, dp, errors = build_bot(c.token, local_telegram.url)
    try:
        async with webhook_server(bot, dp, "hook-secret") as url:
            assert await bot.set_webhook(
                url, secret_token="hook-secret", allowed_updates=dp.resolve_used_update_types()
            )
            assert (await bot.get_webhook_info()).url == url
            await asyncio.to_thread(play, local_telegram.control, c)
            assert await bot.delete_webhook()
    finally:
        await bot.session.close()
    assert errors == []


def test_unknown_fields_are_found() -> None:
    update = Update.model_validate(UNKNOWN_FIELD_UPDATE)
    assert unknown_fields(update) == ["update.message.chat.colour"]
