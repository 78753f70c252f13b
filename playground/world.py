"""The local Telegram's world, kept in memory: users, bots, chats, messages, and each bot's
queue of updates.

Everything runs on one asyncio event loop (the server's), so no locks are needed: a Bot API
call or a control request reads and changes the world between two awaits. Objects are
turned into Bot API dicts (``User``, ``Chat``, ``Message`` ...) exactly as Telegram shows
them to a bot. Ids are unique for the life of the process, across :meth:`World.reset`.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from playground.limits import FloodLimits
from playground.media import MEDIA_KINDS, Files
from playground.text import command_of, detected_entities
from playground.web_apps import Launch

#: Update kinds a bot gets when it has not chosen (``allowed_updates`` empty or never set).
DEFAULT_UPDATE_KINDS = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
ALL_UPDATE_KINDS = DEFAULT_UPDATE_KINDS | {
    "chat_member",
    "message_reaction",
    "message_reaction_count",
}

ADMIN_STATUSES = frozenset({"creator", "administrator"})
MEMBER_STATUSES = frozenset({"creator", "administrator", "member", "restricted"})

#: The colour Telegram gives a new forum topic when none is chosen.
DEFAULT_TOPIC_COLOR = 7322096


def now() -> int:
    return int(time.time())


@dataclass
class User:
    id: int
    first_name: str
    is_bot: bool = False
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None

    def api(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            d["last_name"] = self.last_name
        if self.username:
            d["username"] = self.username
        if self.language_code and not self.is_bot:
            d["language_code"] = self.language_code
        return d


@dataclass
class Webhook:
    url: str
    secret_token: str | None
    max_connections: int
    allowed_updates: list[str] | None
    last_error_date: int | None = None
    last_error_message: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


@dataclass
class Bot:
    user: User
    token: str
    privacy_mode: bool
    inline_feedback: bool
    updates: deque[dict[str, Any]] = field(default_factory=deque)
    next_update_id: int = field(default_factory=lambda: secrets.randbelow(10**8) + 10**8)
    new_update: asyncio.Event = field(default_factory=asyncio.Event)
    allowed_updates: frozenset[str] = DEFAULT_UPDATE_KINDS
    webhook: Webhook | None = None
    poll_generation: int = 0
    commands: dict[tuple[str, str], list[dict[str, str]]] = field(default_factory=dict)
    started_by: set[int] = field(default_factory=set)
    blocked_by: set[int] = field(default_factory=set)
    #: setChatMenuButton: per private chat (the user's id), and the default (None)
    menu_buttons: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    #: the bot's Mini Apps by short name (made with @BotFather's /newapp): their URLs
    web_apps: dict[str, str] = field(default_factory=dict)

    def menu_button(self, chat_id: int | None) -> dict[str, Any]:
        """The menu button a private chat shows: its own, else the bot's default, else
        ``default`` (no value set: the client shows the command list)."""
        return self.menu_buttons.get(chat_id) or self.menu_buttons.get(None) or {"type": "default"}

    @property
    def id(self) -> int:
        return self.user.id

    def me(self) -> dict[str, Any]:
        return {
            **self.user.api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }


@dataclass
class Topic:
    thread_id: int
    name: str
    icon_color: int = DEFAULT_TOPIC_COLOR


@dataclass
class Message:
    message_id: int
    chat: Chat
    sender: User
    date: int
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    reply_markup: dict[str, Any] | None = None
    thread_id: int | None = None
    is_topic_message: bool = False
    reply_to: int | None = None
    via_bot: User | None = None
    edit_date: int | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    inline_message_id: str | None = None
    #: a file sent by URL: where it is (the playground page shows it)
    media_url: str | None = None

    @property
    def is_service(self) -> bool:
        """A service message (members joining, a topic made, a pin ...): no text, no file."""
        return self.text is None and not MEDIA_KINDS & self.extra.keys()

    def content(self) -> dict[str, Any]:
        """What an edit replaces: text, entities and the inline keyboard."""
        return {"text": self.text, "entities": self.entities, "reply_markup": self.reply_markup}

    def api(self, *, with_reply: bool = True) -> dict[str, Any]:
        """The ``Message`` object as a bot sees it."""
        d: dict[str, Any] = {"message_id": self.message_id}
        if self.thread_id is not None:
            d["message_thread_id"] = self.thread_id
        d["from"] = self.sender.api()
        d["chat"] = self.chat.api()
        d["date"] = self.date
        if self.is_topic_message:
            d["is_topic_message"] = True
        if with_reply and self.reply_to is not None:
            replied = self.chat.messages.get(self.reply_to)
            if replied is not None and not replied.deleted:
                d["reply_to_message"] = replied.api(with_reply=False)
        if self.via_bot is not None:
            d["via_bot"] = self.via_bot.api()
        if self.edit_date is not None:
            d["edit_date"] = self.edit_date
        if self.text is not None:
            d["text"] = self.text
            if self.entities:
                d["entities"] = self.entities
        d.update(self.extra)
        if self.reply_markup is not None and "inline_keyboard" in self.reply_markup:
            d["reply_markup"] = self.reply_markup
        return d

    def view(self) -> dict[str, Any]:
        """What the control API shows: the message now, whether deleted, earlier versions."""
        d = self.api()
        if self.reply_markup is not None:
            d["reply_markup"] = self.reply_markup
        d["deleted"] = self.deleted
        d["history"] = list(self.history)
        if self.inline_message_id is not None:
            d["inline_message_id"] = self.inline_message_id
        if self.media_url is not None:
            d["media_url"] = self.media_url
        return d


@dataclass
class Chat:
    id: int
    type: str  # private, group, supergroup
    title: str | None = None
    username: str | None = None
    is_forum: bool = False
    #: user id -> status (creator, administrator, member, left, kicked)
    members: dict[int, str] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    topics: dict[int, Topic] = field(default_factory=dict)
    pinned: int | None = None
    last_bot_id: int | None = None
    #: a basic group upgraded to a supergroup: the supergroup's id
    migrated_to: int | None = None
    #: private chats: the user and the bot at its two ends
    user: User | None = None
    bot_id: int | None = None
    instance: str = field(default_factory=lambda: str(secrets.randbits(63)))

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    def api(self) -> dict[str, Any]:
        """The short ``Chat`` object carried in messages."""
        if self.user is not None:
            d = {"id": self.id, "first_name": self.user.first_name}
            if self.user.last_name:
                d["last_name"] = self.user.last_name
            if self.user.username:
                d["username"] = self.user.username
            d["type"] = "private"
            return d
        d = {"id": self.id, "title": self.title, "type": self.type}
        if self.username:
            d["username"] = self.username
        if self.is_forum:
            d["is_forum"] = True
        return d

    def full_info(self) -> dict[str, Any]:
        """``ChatFullInfo`` for getChat."""
        d = self.api()
        d.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        if not self.is_private:
            d["permissions"] = {
                "can_send_messages": True,
                "can_send_audios": True,
                "can_send_documents": True,
                "can_send_photos": True,
                "can_send_videos": True,
                "can_send_video_notes": True,
                "can_send_voice_notes": True,
                "can_send_polls": True,
                "can_send_other_messages": True,
                "can_add_web_page_previews": True,
                "can_change_info": False,
                "can_invite_users": True,
                "can_pin_messages": False,
                "can_manage_topics": False,
            }
        if self.pinned is not None and self.pinned in self.messages:
            d["pinned_message"] = self.messages[self.pinned].api(with_reply=False)
        return d

    def is_member(self, user_id: int) -> bool:
        return self.members.get(user_id) in MEMBER_STATUSES

    def is_admin(self, user_id: int) -> bool:
        return self.members.get(user_id) in ADMIN_STATUSES

    def add(self, sender: User, *, date: int | None = None, **fields: Any) -> Message:
        message = Message(self.next_message_id, self, sender, date or now(), **fields)
        self.messages[message.message_id] = message
        self.next_message_id += 1
        return message

    def ordered(self, thread_id: int | None = None) -> Iterator[Message]:
        for message in self.messages.values():
            if thread_id is None or message.thread_id == thread_id:
                yield message


@dataclass
class CallbackQuery:
    id: str
    bot_id: int
    user_id: int
    created: float
    answered: bool = False
    answer: dict[str, Any] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class InlineQuery:
    id: str
    bot_id: int
    user: User
    query: str
    offset: str
    chat_type: str
    created: float
    answered: bool = False
    answer: dict[str, Any] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class InlineMessage:
    """A message sent through inline mode that carries a keyboard (it has an inline id)."""

    chat: Chat
    message_id: int


class World:
    """All state of the local Telegram; see the module docstring."""

    def __init__(self) -> None:
        self._user_ids = itertools.count(100_000_001)
        self._bot_ids = itertools.count(7_000_000_001)
        self._group_ids = itertools.count(400_000_001)
        self._query_ids = itertools.count(secrets.randbits(40) * 1000 + 1)
        self.limits = FloodLimits()
        self.files = Files()
        self.calls: deque[dict[str, Any]] = deque(maxlen=200_000)
        self._call_seq = itertools.count(1)
        self.subscribers: set[asyncio.Queue[dict[str, Any]]] = set()
        self.webhook_retry_delays: tuple[float, ...] = (0.2, 0.5, 1.0, 2.0, 5.0)
        self.callback_query_seconds = 15.0
        self.inline_query_seconds = 10.0
        self.fixed_bots: list[tuple[str, str, str]] = []
        self.clear()

    def clear(self) -> None:
        self.users: dict[int, User] = {}
        self.bots: dict[int, Bot] = {}
        self.bots_by_token: dict[str, Bot] = {}
        self.chats: dict[int, Chat] = {}
        self.private_chats: dict[tuple[int, int], Chat] = {}
        self.callback_queries: dict[str, CallbackQuery] = {}
        self.inline_queries: dict[str, InlineQuery] = {}
        self.inline_cache: dict[tuple[Any, ...], tuple[float, dict[str, Any]]] = {}
        self.inline_messages: dict[str, InlineMessage] = {}
        self.web_app_launches: dict[str, Launch] = {}
        self.calls.clear()
        self.limits.clear()
        self.files.clear()

    def reset(self) -> None:
        """Forget every user, chat, bot and log (ids keep growing); a bot created with a
        fixed token (the process's ``--bot-token``) comes back new, with the same token."""
        for bot in self.bots.values():
            if bot.webhook and bot.webhook.task:
                bot.webhook.task.cancel()
            bot.poll_generation += 1
            bot.new_update.set()
        self.clear()
        for username, first_name, token in self.fixed_bots:
            self.create_bot(
                username, first_name, inline_feedback=True, privacy_mode=True, token=token
            )
        self.emit({"kind": "reset"})

    # ------------------------------------------------------------------ ids

    def query_id(self) -> str:
        return str(next(self._query_ids))

    # ------------------------------------------------------------------ live feed

    def emit(self, event: dict[str, Any]) -> None:
        """Tell every live-feed subscriber what changed (a slow one loses events); each
        event carries the world's clock (``time``, Unix seconds) so a watcher can time what
        it saw, e.g. a press and the edit that answers it."""
        event.setdefault("time", time.time())
        for queue in list(self.subscribers):
            if queue.full():
                continue
            queue.put_nowait(event)

    # ------------------------------------------------------------------ people

    def create_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "en",
    ) -> User:
        user = User(
            next(self._user_ids),
            first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
        )
        self.users[user.id] = user
        self.emit({"kind": "user", "user": user.api()})
        return user

    def create_bot(
        self,
        username: str,
        first_name: str,
        *,
        inline_feedback: bool,
        privacy_mode: bool,
        token: str | None = None,
    ) -> Bot:
        """A new bot; ``token`` (``<bot id>:<secret>``, its id unused) fixes its token and id,
        as a developer's environment may want, else both are new."""
        if token is not None:
            bot_id = int(token.split(":", 1)[0])
            if bot_id in self.users:
                raise ValueError(f"id {bot_id} is taken")
            if (username, first_name, token) not in self.fixed_bots:
                self.fixed_bots.append((username, first_name, token))
        else:
            bot_id = next(self._bot_ids)
            token = f"{bot_id}:{secrets.token_urlsafe(26)[:35]}"
        user = User(bot_id, first_name, is_bot=True, username=username)
        bot = Bot(user, token, privacy_mode=privacy_mode, inline_feedback=inline_feedback)
        self.users[user.id] = user
        self.bots[user.id] = bot
        self.bots_by_token[token] = bot
        self.emit({"kind": "bot", "user": user.api()})
        return bot

    def find_user_by_username(self, username: str) -> User | None:
        name = username.lstrip("@").lower()
        for user in self.users.values():
            if user.username and user.username.lower() == name:
                return user
        return None

    # ------------------------------------------------------------------ chats

    def create_group(self, title: str, *, supergroup: bool, forum: bool) -> Chat:
        number = next(self._group_ids)
        if supergroup:
            chat = Chat(-(10**12) - number, "supergroup", title=title, is_forum=forum)
        else:
            chat = Chat(-number, "group", title=title)
        self.chats[chat.id] = chat
        self.emit({"kind": "chat", "chat": chat.api()})
        return chat

    def private_chat(self, bot: Bot, user: User) -> Chat:
        key = (bot.id, user.id)
        chat = self.private_chats.get(key)
        if chat is None:
            chat = Chat(user.id, "private", user=user, bot_id=bot.id)
            chat.members = {user.id: "member", bot.id: "member"}
            self.private_chats[key] = chat
        return chat

    def chat_for_bot(self, bot: Bot, chat_id: int | str) -> Chat | None:
        """The chat ``chat_id`` names for ``bot``: a group, or its private chat with a user."""
        if isinstance(chat_id, str):
            name = chat_id.lstrip("@").lower()
            for group in self.chats.values():
                if group.username and group.username.lower() == name:
                    return group
            return None
        if chat_id < 0:
            return self.chats.get(chat_id)
        chat = self.private_chats.get((bot.id, chat_id))
        if chat is None and chat_id in self.users and not self.users[chat_id].is_bot:
            return self.private_chat(bot, self.users[chat_id])
        return chat

    # ------------------------------------------------------------------ updates

    def deliver(self, bot: Bot, kind: str, payload: dict[str, Any]) -> None:
        """Queue an update of ``kind`` for ``bot`` unless its ``allowed_updates`` exclude it."""
        if kind not in bot.allowed_updates:
            return
        update = {"update_id": bot.next_update_id, kind: payload}
        bot.next_update_id += 1
        bot.updates.append(update)
        bot.new_update.set()
        if bot.webhook is not None:
            bot.webhook.wake.set()

    def member_bots(self, chat: Chat) -> Iterator[Bot]:
        for user_id in list(chat.members):
            bot = self.bots.get(user_id)
            if bot is not None and chat.is_member(user_id):
                yield bot

    def bot_sees(self, bot: Bot, message: Message) -> bool:
        """Whether a user's group message reaches ``bot`` (privacy mode, as Telegram
        documents it: commands meant for the bot, replies to it, messages via it, service
        messages; everything when privacy is off or the bot is an admin)."""
        chat = message.chat
        if not bot.privacy_mode or chat.is_admin(bot.id) or message.is_service:
            return True
        if message.via_bot is not None and message.via_bot.id == bot.id:
            return True
        if message.reply_to is not None:
            replied = chat.messages.get(message.reply_to)
            if (
                replied is not None
                and replied.sender.id == bot.id
                and not (message.is_topic_message and message.reply_to == message.thread_id)
            ):
                return True
        command = command_of(message.text or "", message.entities)
        if command is None:
            return False
        _, addressee = command
        if addressee is not None:
            return addressee.lower() == (bot.user.username or "").lower()
        bots_here = [b.id for b in self.member_bots(chat)]
        return chat.last_bot_id in (None, bot.id) or bots_here == [bot.id]

    def user_message(
        self,
        user: User,
        chat: Chat,
        text: str | None,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
        via_bot: User | None = None,
        entities: list[dict[str, Any]] | None = None,
        reply_markup: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> Message:
        """``user`` posts in ``chat``; the bots that may see it get a ``message`` update."""
        is_topic = False
        if thread_id is not None and chat.is_forum:
            is_topic = True
            if reply_to is None:
                reply_to = thread_id
        if entities is None and text is not None:
            entities = detected_entities(text)
        message = chat.add(
            user,
            text=text,
            entities=entities or [],
            thread_id=thread_id,
            is_topic_message=is_topic,
            reply_to=reply_to,
            via_bot=via_bot,
            reply_markup=reply_markup,
            extra=extra or {},
        )
        self.announce(message)
        return message

    def announce(self, message: Message) -> None:
        """Deliver a message from a user (or a service message) to the bots of its chat."""
        chat = message.chat
        if chat.is_private:
            bot = self.bots[chat.bot_id] if chat.bot_id is not None else None
            if bot is not None and message.sender.id != bot.id:
                self.deliver(bot, "message", message.api())
        else:
            for bot in self.member_bots(chat):
                if bot.id != message.sender.id and self.bot_sees(bot, message):
                    self.deliver(bot, "message", message.api())
        self.emit({"kind": "message", "message": message.view()})

    def chat_member_update(
        self, chat: Chat, bot: Bot, actor: User, old: str, new: str, subject: User
    ) -> dict[str, Any]:
        return {
            "chat": chat.api(),
            "from": actor.api(),
            "date": now(),
            "old_chat_member": chat_member(subject, old),
            "new_chat_member": chat_member(subject, new),
        }

    def log_call(self, entry: dict[str, Any]) -> dict[str, Any]:
        entry["seq"] = next(self._call_seq)
        self.calls.append(entry)
        self.emit({"kind": "call", "call": entry})
        return entry


def chat_member(user: User, status: str) -> dict[str, Any]:
    """The Bot API ``ChatMember`` of ``user`` with ``status``."""
    d: dict[str, Any] = {"user": user.api(), "status": status}
    if status == "creator":
        d["is_anonymous"] = False
    elif status == "administrator":
        d.update(admin_rights(can_be_edited=False))
    elif status == "kicked":
        d["until_date"] = 0
    return d


def admin_rights(*, can_be_edited: bool) -> dict[str, Any]:
    """The rights of an administrator as ``ChatMemberAdministrator`` lists them."""
    return {
        "can_be_edited": can_be_edited,
        "is_anonymous": False,
        "can_manage_chat": True,
        "can_delete_messages": True,
        "can_manage_video_chats": True,
        "can_restrict_members": True,
        "can_promote_members": False,
        "can_change_info": True,
        "can_invite_users": True,
        "can_post_stories": False,
        "can_edit_stories": False,
        "can_delete_stories": False,
        "can_pin_messages": True,
        "can_manage_topics": True,
    }
