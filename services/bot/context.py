"""What every handler reaches through PTB's context: the bot's services, and the small
helpers the handlers share (who is asking, in which chat and topic, in which language);
calling the engine with retries is ``engine_calls``' (re-exported here for the handlers)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from telegram import Chat, Message, Update, User
from telegram.ext import ContextTypes

from services.bot.memory import Memory
from services.bot.outbox import Outbox
from services.bot.publisher import Publisher
from services.chat_roles import is_admin_status
from services.config import Settings
from services.engine.client import EngineClient
from services.language_preferences import chosen_language
from services.presentation.locales.catalog import negotiate

if TYPE_CHECKING:
    from services.bot.records import Records

log = logging.getLogger(__name__)

T = TypeVar("T")

SERVICES_KEY = "uno"


@dataclass(slots=True)
class BotServices:
    settings: Settings
    engine: EngineClient
    memory: Memory
    outbox: Outbox
    publisher: Publisher
    bot_username: str = ""
    #: The SQL records behind /stats, /top and /forgetme (records.py).
    records: Records | None = None


def services(context: ContextTypes.DEFAULT_TYPE) -> BotServices:
    found = context.bot_data[SERVICES_KEY]
    assert isinstance(found, BotServices)
    return found


def display_name(user: User) -> str:
    return (user.full_name or user.username or str(user.id))[:64]


def locale_of(user: User | None) -> str:
    """What ``user`` alone reads is in this language: their /language choice, else their
    Telegram app's (services/language_preferences.py)."""
    if user is None:
        return "en"
    return chosen_language(user.id) or user.language_code or "en"


def app_language_of(user: User) -> str:
    """The language of ``user``'s Telegram app that we speak ("" when it does not say)."""
    return negotiate(user.language_code) if user.language_code else ""


def topic_of(message: Message | None) -> int:
    """The forum topic a message belongs to (0 outside forums): one game per topic."""
    if message is None or not message.is_topic_message:
        return 0
    return message.message_thread_id or 0


def is_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP)


async def is_chat_admin(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    member = await context.bot.get_chat_member(chat_id, user_id)
    return is_admin_status(str(member.status))


def update_user(update: Update) -> User | None:
    return update.effective_user
