"""Language per person and per chat, through the real bot against the local Telegram and
the test Redis: /language in private and in a group, the Telegram app's language as the
default, and the command menus registered in every language."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from redis.asyncio import Redis
from telegram import BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats, Update
from telegram.ext import Application

from playground.control import TelegramControl
from playground.server import LocalTelegram
from services.bot.app import build_application
from services.config import Settings
from services.language_preferences import CHAT_KEY, LanguagePreferences

_runs = itertools.count(1)


@asynccontextmanager
async def running_bot(
    telegram: LocalTelegram, redis_url: str, token: str, records: Path
) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """The bot's own application, polling the local Telegram; no engine is needed here. Its
    records are a SQLite file at ``records`` (not the default ``./uno.db`` of the working
    directory)."""
    settings = Settings(
        redis_url=redis_url,
        database_url=f"sqlite:///{records}",
        telegram_token=SecretStr(token),
        bot_api_url=telegram.bot_api_url,
        engine_url="http://127.0.0.1:9",
        event_shards=2,
    )
    app = build_application(settings, replica="language-test")
    await app.initialize()
    assert app.post_init is not None
    await app.post_init(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=2, allowed_updates=Update.ALL_TYPES)
    try:
        yield app
    finally:
        await app.updater.stop()
        await app.stop()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        await app.shutdown()


def last_text(messages: list[dict[str, Any]], count: int) -> str:
    """The text of the newest message once there are ``count`` of the bot's."""
    mine = [m for m in messages if m["from"].get("is_bot")]
    return str(mine[-1]["text"]) if len(mine) >= count else ""


async def test_language_per_person_and_per_chat(
    local_telegram: LocalTelegram, redis_url: str, tmp_path: Path
) -> None:
    control: TelegramControl = local_telegram.control
    n = next(_runs)
    made = control.create_bot(f"lang_{n}_bot", "UNO")
    token, bot_id = made["token"], made["user"]["id"]
    maryam = control.create_user("Maryam", language_code="fa-IR")
    admin = control.create_user("Ann", language_code="en")
    group = control.create_group(
        f"lang {n}", [admin["id"], maryam["id"]], admins=[admin["id"]], bots=[token]
    )
    wait = control.wait_until

    def private(count: int) -> str:
        return wait(
            lambda: last_text(control.private_messages(maryam["id"], token), count),
            timeout=30,
            what=f"private reply {count}",
        )

    def in_group(count: int) -> str:
        return wait(
            lambda: last_text(control.messages(group["id"]), count), timeout=30, what="group reply"
        )

    def script() -> None:
        # Her app speaks Persian: so does the bot, unasked.
        control.send_message(maryam["id"], bot_id, "/language")
        assert private(1).startswith("زبان شما: ") and "فارسی" in private(1)
        control.send_message(maryam["id"], bot_id, "/language gu")
        assert private(2) == "હવેથી હું તમારી સાથે \u2068ગુજરાતી\u2069માં વાત કરીશ."
        control.send_message(maryam["id"], bot_id, "/language")
        assert private(3).startswith("તમારી ભાષા: ")
        control.send_message(maryam["id"], bot_id, "/language auto")
        assert "فارسی" in private(4)
        # /language alone offers the languages as buttons; one press sets it.
        control.send_message(maryam["id"], bot_id, "/language")
        assert private(5).startswith("زبان شما: ")
        offer = [m for m in control.private_messages(maryam["id"], token) if m["from"]["is_bot"]]
        buttons = offer[-1]["reply_markup"]["inline_keyboard"][0]
        assert [b["text"] for b in buttons] == ["English", "فارسی", "ગુજરાતી"]
        gujarati = next(b["callback_data"] for b in buttons if b["text"] == "ગુજરાતી")
        # A private chat is named by the bot's id.
        control.press_button(maryam["id"], bot_id, offer[-1]["message_id"], gujarati)
        assert private(6) == "હવેથી હું તમારી સાથે \u2068ગુજરાતી\u2069માં વાત કરીશ."
        control.send_message(maryam["id"], bot_id, "/language auto")
        assert "فارسی" in private(7)
        # In the group only an admin sets the chat's language.
        control.send_message(maryam["id"], group["id"], "/language en")
        assert in_group(1) == "فقط مدیر گروه می\u200cتونه زبان گروه رو عوض کنه."
        control.send_message(admin["id"], group["id"], "/language fa")
        assert in_group(2) == "این گروه از حالا به زبان \u2068فارسی\u2069 بازی می\u200cکنه."
        control.send_message(maryam["id"], group["id"], "/language")
        assert in_group(3).startswith("زبان این گروه: ")
        # Whoever asks, the group's replies speak the group's language.
        control.send_message(admin["id"], group["id"], "/help")
        assert in_group(4).startswith("🎴 اونو تو گروه شما.")
        control.send_message(admin["id"], group["id"], "/rules flip")
        rules = in_group(5)
        assert "اونو فلیپ" in rules.split("\n")[0] and "سوپر پَرش" in rules

    async with running_bot(local_telegram, redis_url, token, tmp_path / "records.db") as app:
        await asyncio.to_thread(script)
        menus = {
            (scope, language): await app.bot.get_my_commands(
                scope=BotCommandScopeAllGroupChats()
                if scope == "group"
                else BotCommandScopeAllPrivateChats(),
                language_code=language,
            )
            for scope in ("group", "private")
            for language in (None, "fa", "gu")
        }
    redis = Redis.from_url(redis_url)
    try:
        assert await redis.get(CHAT_KEY.format(chat_id=group["id"])) == b"fa"
        prefs = LanguagePreferences(redis)
        # Her choice was taken back ("auto"): nothing is kept for her, her app's language
        # comes with each update (and with a hand she opens).
        assert await prefs.choices([maryam["id"], 999_999_999]) == {
            maryam["id"]: None,
            999_999_999: None,
        }
        assert await prefs.person(999_999_999, fallback="gu") == "gu"
        assert not [k async for k in redis.scan_iter(match="bot:uapp:*")]
    finally:
        await redis.aclose()
    new = {
        lang: {c.command: c.description for c in menus["group", lang]}
        for lang in (None, "fa", "gu")
    }
    assert new[None]["new"] == "start a game"
    assert new["fa"]["new"] == "شروع یه بازی"
    assert new["gu"]["new"] == "ગેમ શરૂ કરો"
    assert {c.command for c in menus["private", "fa"]} == {
        "start", "help", "language", "stats", "top", "replay", "forgetme",
    }  # fmt: skip
    assert new["fa"]["forgetme"] == "پاک کردن سوابق من"
    assert new["fa"]["replay"] == "دیدن دوباره‌ی بازی آخر"
    assert new["gu"]["top"].startswith("શ્રેષ્ઠ ખેલાડીઓ")


async def test_a_chat_keeps_the_language_of_its_first_game(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    try:
        prefs = LanguagePreferences(redis)
        assert await prefs.adopt_chat(-42, "gu") == "gu"
        assert await prefs.adopt_chat(-42, "fa") == "gu"
        await prefs.set_chat(-42, "en")
        assert await prefs.chat(-42) == "en"
        await prefs.set_choice(7, "fa")
        assert await prefs.person(7, fallback="en") == "fa"
        await prefs.set_choice(7, None)
        assert await prefs.person(7, fallback="en") == "en"
    finally:
        await redis.aclose()
