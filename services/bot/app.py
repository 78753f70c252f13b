"""The bot's ``Application``: its handlers, the log reader feeding PTB's update queue, and
the services every handler reaches through the context (context.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time

from redis.asyncio import Redis
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    MenuButtonWebApp,
    Update,
    WebAppInfo,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from services.bot import (
    flood,
    language_commands,
    lobby,
    play,
    pressed,
    rematches,
    replays,
    standings,
)
from services.bot.bot_api_http import AiohttpRequest
from services.bot.context import (
    SERVICES_KEY,
    BotServices,
    locale_of,
    services,
)
from services.bot.engine_http import engine_transport
from services.bot.logreader import LogEntry, LogReader
from services.bot.memory import Memory
from services.bot.metrics import RENDER_LAG, UPDATES
from services.bot.outbox import Outbox
from services.bot.publisher import Publisher
from services.bot.ratelimit import Bucket, NotAfforded, RedisRateLimiter, paced, per_second
from services.bot.records import Records
from services.config import Settings
from services.engine.client import NUDGES_KEY, EngineClient, log_keys
from services.presentation.callbacks import Kind
from services.presentation.i18n import available_locales
from services.presentation.screens.commands import group_commands, private_commands
from services.presentation.screens.mini_app import MiniApp
from services.presentation.screens.refusals import something_went_wrong

log = logging.getLogger(__name__)

READER_KEY = "uno_reader"


def build_application(
    settings: Settings,
    *,
    replica: str | None = None,
) -> Application:  # type: ignore[type-arg]
    token = settings.telegram_token
    if token is None:
        raise SystemExit("UNO_TELEGRAM_TOKEN is not set")
    name = replica or settings.bot_replica or f"{socket.gethostname()}-{os.getpid()}"
    redis = Redis.from_url(settings.redis_url)
    limiter = RedisRateLimiter(
        redis,
        token.get_secret_value().split(":")[0],
        overall=per_second(settings.bot_messages_per_second),
        group=paced(settings.bot_group_messages_per_minute, 60.0),
        private=Bucket(interval=1 / settings.bot_private_messages_per_second, burst=1),
    )

    async def post_init(app: Application) -> None:  # type: ignore[type-arg]
        engine = EngineClient.from_settings(settings, transport=engine_transport())
        memory = Memory(redis)
        outbox = Outbox(app.bot)
        username = app.bot.username
        mini_app = MiniApp.of(
            settings.webapp_public_url,
            username,
            settings.webapp_short_name,
            settings.webapp_replay_short_name,
        )
        publisher = Publisher(
            engine,
            memory,
            outbox,
            mini_app,
            repost_after=settings.bot_table_repost_after,
        )
        records = await asyncio.to_thread(Records.from_url, settings.database_url)
        app.bot_data[SERVICES_KEY] = BotServices(
            settings,
            engine,
            memory,
            outbox,
            publisher,
            username,
            records=records,
        )

        async def deliver(entry: LogEntry) -> None:
            await app.update_queue.put(entry)

        async def rerender_all() -> None:
            await publisher.rerender_known_games()

        reader = LogReader(
            redis,
            # The turns' reminders the worker found due come the same way (nudges.py).
            [*log_keys(settings.event_shards), NUDGES_KEY],
            name,
            deliver,
            on_gap=rerender_all,
            claim_idle_ms=settings.bot_claim_idle_ms,
        )
        app.bot_data[READER_KEY] = (reader, asyncio.create_task(reader.run()))
        await register_commands(app)
        if mini_app is not None:
            await register_menu_button(app, mini_app)

    async def post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
        found = app.bot_data.get(READER_KEY)
        if found is not None:
            reader, task = found
            reader.stop()
            task.cancel()
        uno = app.bot_data.get(SERVICES_KEY)
        if isinstance(uno, BotServices):
            await uno.engine.aclose()
            await uno.memory.redis.aclose()

    app = (
        ApplicationBuilder()
        .token(token.get_secret_value())
        .base_url(settings.bot_api_url)
        .base_file_url(settings.bot_api_file_url)
        .concurrent_updates(64)
        .request(bot_api_request())
        .get_updates_request(get_updates_request())
        .rate_limiter(limiter)
        .post_init(post_init)
        .post_shutdown(post_shutdown)
        .build()
    )
    add_handlers(app)
    return app


#: Bot API connections at most; idle ones are closed after aiohttp's keep-alive.
BOT_API_CONNECTIONS = 256


def bot_api_request() -> AiohttpRequest:
    return AiohttpRequest(BOT_API_CONNECTIONS)


def get_updates_request() -> AiohttpRequest:
    """getUpdates, a long poll, on a connection of its own (as PTB does by default): a
    long poll never waits for a slot behind the calls, nor they behind it."""
    return AiohttpRequest(1)


def add_handlers(app: Application) -> None:  # type: ignore[type-arg]
    """The handlers. Each one after the quick steps that come first (counting, flood.guard,
    the sender's language) runs as a task of its own (``block=False``) and holds none of
    PTB's update slots while it waits, for the engine or for a chat's flood budget: one
    person's flood of replies, or a table waiting for its group's slot, never stalls
    another chat's updates. (PTB's ``Defaults(block=False)`` would do the same, but with
    defaults set it sends an empty answer text as ``[]``.)"""
    app.add_handler(TypeHandler(object, count_update), group=-3)
    app.add_handler(TypeHandler(Update, flood.guard), group=-2)
    app.add_handler(TypeHandler(Update, language_commands.note_language), group=-1)
    later = False  # block=False, for every handler below
    app.add_handler(TypeHandler(LogEntry, on_log_entry, block=later))
    app.add_handler(CommandHandler("new", lobby.new, block=later))
    app.add_handler(CommandHandler("start", start, block=later))
    app.add_handler(CommandHandler(["join", "leave", "end", "back"], lobby.command, block=later))
    app.add_handler(CommandHandler("kick", lobby.kick, block=later))
    app.add_handler(CommandHandler("rules", lobby.rules, block=later))
    app.add_handler(CommandHandler("help", lobby.help_command, block=later))
    app.add_handler(CommandHandler("language", language_commands.language_command, block=later))
    app.add_handler(CommandHandler("stats", standings.stats, block=later))
    app.add_handler(CommandHandler("top", standings.top, block=later))
    app.add_handler(CommandHandler("forgetme", standings.forgetme, block=later))
    app.add_handler(CommandHandler("settings", standings.settings_command, block=later))
    app.add_handler(CommandHandler("replay", replays.replay, block=later))
    # One handler per kind of press, each judged first (pressed.press_handler), and one for
    # data of no kind: every press is answered.
    for kind, on_press in (
        (Kind.ACT, play.move_button),
        (Kind.INERT, play.inert_button),
        (Kind.HAND, play.hand_button),
        (Kind.LOBBY, lobby.lobby_button),
        (Kind.VARIANT, lobby.choose_variant),
        (Kind.SETTINGS, standings.settings_button),
        (Kind.FORGET, standings.confirm_forget),
        (Kind.LANGUAGE, language_commands.language_button),
        (Kind.REMATCH, rematches.rematch_button),
    ):
        app.add_handler(pressed.press_handler(kind, on_press, block=later))
    app.add_handler(CallbackQueryHandler(pressed.unknown_press, block=later))
    app.add_handler(InlineQueryHandler(play.inline_query, block=later))
    app.add_handler(ChosenInlineResultHandler(play.chosen_inline_result, block=later))
    app.add_handler(
        MessageHandler(filters.ChatType.GROUPS & ~filters.COMMAND, play.group_message, block=later)
    )
    # Members leaving and coming back (lobby.py), beside the handler above that counts every
    # group message: a handler group of their own.
    app.add_handler(
        MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, lobby.member_left, block=later),
        group=1,
    )
    app.add_handler(
        MessageHandler(filters.StatusUpdate.NEW_CHAT_MEMBERS, lobby.members_joined, block=later),
        group=1,
    )
    app.add_handler(
        ChatMemberHandler(lobby.chat_member, ChatMemberHandler.CHAT_MEMBER, block=later),
        group=1,
    )
    app.add_error_handler(on_error, block=later)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start deals in a group and opens the hand in the private chat."""
    chat = update.effective_chat
    if chat is not None and chat.type == chat.PRIVATE:
        await play.private_start(update, context)
    else:
        await lobby.command(update, context)


async def count_update(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    if isinstance(update, LogEntry):
        UPDATES.labels("log_entry").inc()
    elif isinstance(update, Update):
        kind = next((k for k in _UPDATE_KINDS if getattr(update, k, None) is not None), "other")
        UPDATES.labels(kind).inc()


_UPDATE_KINDS = ("message", "callback_query", "inline_query", "chosen_inline_result")


async def on_log_entry(update: LogEntry, context: ContextTypes.DEFAULT_TYPE) -> None:
    uno = services(context)
    if not await uno.publisher.on_entry(update):
        return  # left pending: claimed and rendered again if the render under way dies
    reader, _ = context.bot_data[READER_KEY]
    await reader.ack(update)
    if update.stream == NUDGES_KEY:
        return  # a turn's reminder, not a write: no render lag to tell
    written_ms = int(update.entry_id.split("-")[0])
    RENDER_LAG.observe(max(0.0, time.time() - written_ms / 1000))


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """One error handler: log with the game id when there is one; a callback query still
    gets its answer, and the bot carries on."""
    game_id = update.game_id if isinstance(update, LogEntry) else None
    if isinstance(context.error, NotAfforded):
        # A reply its chat's budget could not afford soon: dropped on purpose.
        log.info("a reply not sent: its chat's budget is spent (%s)", context.error)
        if isinstance(update, Update) and update.callback_query is not None:
            with contextlib.suppress(Exception):
                await update.callback_query.answer()
        return
    log.error(
        "handling %r failed",
        type(update).__name__,
        exc_info=context.error,
        extra={"game_id": game_id},
    )
    if isinstance(update, Update) and update.callback_query is not None:
        # Already answered, or Telegram unreachable: nothing more to do.
        with contextlib.suppress(Exception):
            await update.callback_query.answer(
                something_went_wrong(locale_of(update.effective_user))
            )


async def register_commands(app: Application) -> None:  # type: ignore[type-arg]
    """The command menus, per scope and per language with a catalog."""
    for locale in [None, *available_locales()]:
        try:
            await register_menus(app, locale)
        except Exception:
            log.warning("could not register the command menus (%s)", locale, exc_info=True)


#: The menu button's text. [decision] The game's name, not a phrase: Telegram keeps one
#: default menu button for every private chat of the bot, whatever the person's language.
MENU_BUTTON_TEXT = "UNO"


async def register_menu_button(app: Application, mini_app: MiniApp) -> None:  # type: ignore[type-arg]
    """The default menu button of the bot's private chats opens the Mini App's page with no
    game in it, where it lists the person's current games (services/webapp)."""
    button = MenuButtonWebApp(MENU_BUTTON_TEXT, WebAppInfo(mini_app.page_url))
    try:
        await app.bot.set_chat_menu_button(menu_button=button)
    except Exception:
        log.warning("could not set the menu button to the Mini App", exc_info=True)


async def register_menus(app: Application, locale: str | None) -> None:  # type: ignore[type-arg]
    group = [BotCommand(c, description) for c, description in group_commands(locale)]
    private = [BotCommand(c, description) for c, description in private_commands(locale)]
    await app.bot.set_my_commands(group, scope=BotCommandScopeAllGroupChats(), language_code=locale)
    await app.bot.set_my_commands(
        private, scope=BotCommandScopeAllPrivateChats(), language_code=locale
    )
