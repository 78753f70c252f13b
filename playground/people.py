"""What people do in the local Telegram: create users, groups and bots, post, press buttons,
type inline queries, join, leave, start and block bots; and what they see.

Every action first checks all of its inputs and only then changes the world, so a refused
action (:class:`Refused`, a 4xx of the control API) leaves everything as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any

from playground.errors import BotApiError, bad_request
from playground.formatting import format_text
from playground.media import media_fields
from playground.text import (
    MAX_TEXT_LENGTH,
    detected_entities,
    merge_entities,
    utf16_length,
)
from playground.world import (
    Bot,
    CallbackQuery,
    Chat,
    InlineMessage,
    InlineQuery,
    Message,
    Topic,
    User,
    World,
)


class Refused(Exception):
    """A control request that can't be done: ``status`` (404, 409, 400, 403) and why."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class People:
    """The control side's actions on a :class:`World`."""

    def __init__(self, world: World) -> None:
        self.world = world

    # ------------------------------------------------------------------ lookups

    def user(self, user_id: int) -> User:
        user = self.world.users.get(user_id)
        if user is None or user.is_bot:
            raise Refused(404, f"no user {user_id}")
        return user

    def bot(self, bot_id: int) -> Bot:
        bot = self.world.bots.get(bot_id)
        if bot is None:
            raise Refused(404, f"no bot {bot_id}")
        return bot

    def bot_by_token(self, token: str) -> Bot:
        bot = self.world.bots_by_token.get(token)
        if bot is None:
            raise Refused(404, "no bot with that token")
        return bot

    def group(self, chat_id: int) -> Chat:
        chat = self.world.chats.get(chat_id)
        if chat is None:
            raise Refused(404, f"no group {chat_id}")
        return chat

    def chat_of(self, user: User, chat_id: int) -> Chat:
        """The chat ``chat_id`` as ``user`` names it: a group they are in, or their private
        chat with a bot (named by the bot's user id)."""
        bot = self.world.bots.get(chat_id)
        if bot is not None:
            return self.world.private_chat(bot, user)
        chat = self.group(chat_id)
        if not chat.is_member(user.id):
            raise Refused(403, f"user {user.id} is not a member of chat {chat_id}")
        return chat

    def thread(self, chat: Chat, thread_id: int | None) -> int | None:
        if thread_id is None:
            return None
        if not chat.is_forum:
            raise Refused(400, f"chat {chat.id} has no topics")
        if thread_id == 1:
            return None  # the General topic
        if thread_id not in chat.topics:
            raise Refused(404, f"no topic {thread_id} in chat {chat.id}")
        return thread_id

    # ------------------------------------------------------------------ set-up

    def create_group(
        self,
        title: str,
        members: list[int],
        admins: list[int],
        supergroup: bool,
        forum: bool,
        bots: list[str],
    ) -> Chat:
        if forum and not supergroup:
            raise Refused(400, "only a supergroup can be a forum")
        people = [
            self.user(u) for u in dict.fromkeys([*members, *admins]) if u not in self.world.bots
        ]
        joining_bots = [self.bot_by_token(t) for t in dict.fromkeys(bots)]
        for user_id in admins:
            if user_id in self.world.bots and self.world.bots[user_id] not in joining_bots:
                joining_bots.append(self.world.bots[user_id])
        for user_id in members:
            if user_id in self.world.bots and self.world.bots[user_id] not in joining_bots:
                joining_bots.append(self.world.bots[user_id])
        if not people:
            raise Refused(400, "a group needs at least one user")
        chat = self.world.create_group(title, supergroup=supergroup, forum=forum)
        creator = next((u for u in people if u.id in admins), people[0])
        for user in people:
            chat.members[user.id] = (
                "creator" if user is creator else "administrator" if user.id in admins else "member"
            )
        if not supergroup:
            self.world.announce(chat.add(creator, extra={"group_chat_created": True}))
        for bot in joining_bots:
            self._join_bot(chat, bot, creator, admin=bot.id in admins)
        return chat

    def _join_bot(self, chat: Chat, bot: Bot, actor: User, *, admin: bool) -> None:
        old = chat.members.get(bot.id, "left")
        new = "administrator" if admin else "member"
        chat.members[bot.id] = new
        self.world.deliver(
            bot,
            "my_chat_member",
            self.world.chat_member_update(chat, bot, actor, old, new, bot.user),
        )
        self.world.announce(
            chat.add(
                actor,
                extra={
                    "new_chat_participant": bot.user.api(),
                    "new_chat_member": bot.user.api(),
                    "new_chat_members": [bot.user.api()],
                },
            )
        )

    def create_topic(self, chat_id: int, name: str) -> int:
        chat = self.group(chat_id)
        if not chat.is_forum:
            raise Refused(400, f"chat {chat_id} is not a forum")
        if not 1 <= len(name) <= 128:
            raise Refused(400, "a topic name has 1-128 characters")
        creator = next(
            (self.world.users[u] for u, s in chat.members.items() if s == "creator"), None
        )
        if creator is None:
            raise Refused(409, f"chat {chat_id} has no creator")
        message = chat.add(creator, extra={})
        topic = Topic(message.message_id, name)
        message.thread_id = topic.thread_id
        message.is_topic_message = True
        message.extra = {"forum_topic_created": {"name": name, "icon_color": topic.icon_color}}
        chat.topics[topic.thread_id] = topic
        self.world.announce(message)
        return topic.thread_id

    def upgrade_group(self, chat_id: int) -> Chat:
        """A basic group becomes a supergroup with a new id, as Telegram does when a group
        grows or its owner changes certain settings; the old id is refused from then on."""
        old = self.group(chat_id)
        if old.type != "group" or old.migrated_to is not None:
            raise Refused(409, f"chat {chat_id} is not a basic group")
        owner = next((self.world.users[u] for u, s in old.members.items() if s == "creator"), None)
        if owner is None:
            raise Refused(409, f"chat {chat_id} has no creator")
        new = self.world.create_group(old.title or "", supergroup=True, forum=False)
        new.members = dict(old.members)
        old.migrated_to = new.id
        self.world.announce(old.add(owner, extra={"migrate_to_chat_id": new.id}))
        self.world.announce(new.add(owner, extra={"migrate_from_chat_id": old.id}))
        return new

    def add_member(self, chat_id: int, user_id: int) -> None:
        chat = self.group(chat_id)
        bot = self.world.bots.get(user_id)
        if bot is not None:
            creator = next(
                (self.world.users[u] for u, s in chat.members.items() if s == "creator"), None
            )
            if chat.is_member(user_id):
                raise Refused(409, f"bot {user_id} is already in chat {chat_id}")
            self._join_bot(chat, bot, creator or bot.user, admin=False)
            return
        user = self.user(user_id)
        if chat.is_member(user_id):
            raise Refused(409, f"user {user_id} is already in chat {chat_id}")
        old = chat.members.get(user_id, "left")
        chat.members[user_id] = "member"
        self._chat_member(chat, user, old, "member")
        self.world.announce(
            chat.add(
                user,
                extra={
                    "new_chat_participant": user.api(),
                    "new_chat_member": user.api(),
                    "new_chat_members": [user.api()],
                },
            )
        )

    def set_admin(self, chat_id: int, user_id: int, admin: bool) -> None:
        """The owner promotes a member (a user or a bot) to administrator, or demotes one; a
        bot gets ``my_chat_member``, the chat's admin bots ``chat_member`` for a user."""
        chat = self.group(chat_id)
        status = chat.members.get(user_id)
        if status not in ("member", "administrator"):
            raise Refused(
                409, f"{user_id} is not a member (nor a demotable admin) of chat {chat_id}"
            )
        new = "administrator" if admin else "member"
        if status == new:
            raise Refused(409, f"{user_id} is already {new} of chat {chat_id}")
        owner = next((self.world.users[u] for u, s in chat.members.items() if s == "creator"), None)
        if owner is None:
            raise Refused(409, f"chat {chat_id} has no creator")
        subject = self.world.users[user_id]
        chat.members[user_id] = new
        bot = self.world.bots.get(user_id)
        if bot is not None:
            self.world.deliver(
                bot,
                "my_chat_member",
                self.world.chat_member_update(chat, bot, owner, status, new, subject),
            )
            self.world.emit(
                {"kind": "member", "chat_id": chat.id, "user_id": user_id, "status": new}
            )
        else:
            self._chat_member(chat, subject, status, new, actor=owner)

    def remove_member(self, chat_id: int, user_id: int) -> None:
        chat = self.group(chat_id)
        if not chat.is_member(user_id):
            raise Refused(409, f"{user_id} is not in chat {chat_id}")
        subject = self.world.users[user_id]
        old = chat.members[user_id]
        chat.members[user_id] = "left"
        bot = self.world.bots.get(user_id)
        if bot is not None:
            self.world.deliver(
                bot,
                "my_chat_member",
                self.world.chat_member_update(chat, bot, subject, old, "left", subject),
            )
        else:
            self._chat_member(chat, subject, old, "left")
        self.world.announce(
            chat.add(
                subject,
                extra={"left_chat_participant": subject.api(), "left_chat_member": subject.api()},
            )
        )

    def _chat_member(
        self, chat: Chat, user: User, old: str, new: str, *, actor: User | None = None
    ) -> None:
        """``chat_member`` updates go to the bots that administer the chat and asked for them;
        ``actor`` is who made the change (the user themselves when they joined or left)."""
        for bot in self.world.member_bots(chat):
            if chat.is_admin(bot.id):
                update = self.world.chat_member_update(chat, bot, actor or user, old, new, user)
                self.world.deliver(bot, "chat_member", update)
        self.world.emit({"kind": "member", "chat_id": chat.id, "user_id": user.id, "status": new})

    def start_bot(self, user_id: int, token: str) -> Message:
        user = self.user(user_id)
        bot = self.bot_by_token(token)
        if user.id in bot.blocked_by:
            self._set_blocked(user, bot, blocked=False)
        bot.started_by.add(user.id)
        return self.world.user_message(user, self.world.private_chat(bot, user), "/start")

    def block_bot(self, user_id: int, token: str) -> None:
        user = self.user(user_id)
        bot = self.bot_by_token(token)
        if user.id in bot.blocked_by:
            raise Refused(409, f"user {user_id} has already blocked the bot")
        self._set_blocked(user, bot, blocked=True)

    def unblock_bot(self, user_id: int, token: str) -> None:
        """The user unblocks the bot (its profile's "Unblock") without sending /start: the
        bot gets ``my_chat_member`` (kicked → member) and may message them again."""
        user = self.user(user_id)
        bot = self.bot_by_token(token)
        if user.id not in bot.blocked_by:
            raise Refused(409, f"user {user_id} has not blocked the bot")
        self._set_blocked(user, bot, blocked=False)

    def _set_blocked(self, user: User, bot: Bot, *, blocked: bool) -> None:
        """The user blocks or unblocks the bot: the bot gets ``my_chat_member`` (member ↔
        kicked), and the feed says so."""
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        if blocked:
            bot.blocked_by.add(user.id)
        else:
            bot.blocked_by.discard(user.id)
        chat = self.world.private_chat(bot, user)
        self.world.deliver(
            bot,
            "my_chat_member",
            self.world.chat_member_update(chat, bot, user, old, new, bot.user),
        )
        self.world.emit(
            {"kind": "block" if blocked else "unblock", "user_id": user.id, "bot_id": bot.id}
        )

    # ------------------------------------------------------------------ talking

    def send_message(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        thread_id: int | None,
        reply_to: int | None,
    ) -> Message:
        user = self.user(user_id)
        chat = self.chat_of(user, chat_id)
        thread = self.thread(chat, thread_id)
        if not text.strip():
            raise Refused(400, "a message needs text")
        if utf16_length(text) > MAX_TEXT_LENGTH:
            raise Refused(400, f"a message has at most {MAX_TEXT_LENGTH} characters")
        if reply_to is not None:
            replied = chat.messages.get(reply_to)
            if replied is None or replied.deleted:
                raise Refused(404, f"no message {reply_to} in chat {chat_id}")
        if chat.is_private and chat.bot_id is not None:
            bot = self.world.bots[chat.bot_id]
            if user.id in bot.blocked_by:
                raise Refused(409, "the user has blocked this bot; start it again first")
            bot.started_by.add(user.id)
        return self.world.user_message(
            user, chat, text.strip(), thread_id=thread, reply_to=reply_to
        )

    def edit_message(self, user_id: int, chat_id: int, message_id: int, text: str) -> Message:
        user = self.user(user_id)
        chat = self.chat_of(user, chat_id)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise Refused(404, f"no message {message_id} in chat {chat_id}")
        if message.sender.id != user.id or message.text is None:
            raise Refused(403, "a user can only edit their own text messages")
        if not text.strip():
            raise Refused(400, "a message needs text")
        if text.strip() == message.text:
            raise Refused(409, "the text is the same")
        message.history.append(
            {**message.content(), "edit_date": message.edit_date or message.date}
        )
        message.text = text.strip()
        message.entities = detected_entities(message.text)
        message.edit_date = int(time.time())
        if chat.is_private:
            if chat.bot_id is not None:
                self.world.deliver(self.world.bots[chat.bot_id], "edited_message", message.api())
        else:
            for bot in self.world.member_bots(chat):
                if self.world.bot_sees(bot, message):
                    self.world.deliver(bot, "edited_message", message.api())
        self.world.emit({"kind": "edit", "message": message.view()})
        return message

    async def press_button(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        data: str,
        timeout: float,
        *,
        forged: bool = False,
    ) -> dict[str, Any]:
        """The user presses a button of the message with ``data``, as the official apps do:
        only a button the message shows now. With ``forged``, as a modified client can: any
        ``data`` (1-64 bytes, Telegram's limit for a button's) on a message of a bot that the
        user sees, whether or not it shows such a button (an old version's, or made up);
        Telegram passes it on unchecked, so a bot must check what it is given."""
        user = self.user(user_id)
        chat = self.chat_of(user, chat_id)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise Refused(404, f"no message {message_id} in chat {chat_id}")
        buttons = [
            button
            for row in (message.reply_markup or {}).get("inline_keyboard", [])
            for button in row
        ]
        if forged:
            if not 1 <= len(data.encode()) <= 64:
                raise Refused(400, "callback_data has 1-64 bytes")
        elif not any(button.get("callback_data") == data for button in buttons):
            raise Refused(404, f"message {message_id} has no button with callback_data {data!r}")
        owner = message.via_bot if message.via_bot is not None else message.sender
        bot = self.world.bots.get(owner.id)
        if bot is None:
            raise Refused(409, "the message's buttons belong to no bot")
        query = CallbackQuery(self.world.query_id(), bot.id, user.id, time.monotonic())
        self.world.callback_queries[query.id] = query
        payload: dict[str, Any] = {"id": query.id, "from": user.api()}
        if message.inline_message_id is not None:
            payload["inline_message_id"] = message.inline_message_id
        else:
            payload["message"] = message.api()
        payload["chat_instance"] = chat.instance
        payload["data"] = data
        self.world.deliver(bot, "callback_query", payload)
        self.world.emit(
            {
                "kind": "press",
                "chat_id": chat.id,
                "message_id": message_id,
                "user_id": user.id,
                "data": data,
                "query_id": query.id,
            }
        )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(query.done.wait(), timeout)
        if query.answer is None:
            return {"answered": False, "text": None, "show_alert": False, "url": None}
        return dict(query.answer)

    # ------------------------------------------------------------------ inline mode

    def inline_bot(self, query: str, chat: Chat | None, bot_token: str | None) -> tuple[Bot, str]:
        """The bot an inline query goes to, and the query without its ``@username``."""
        if bot_token:
            return self.bot_by_token(bot_token), query
        head, _, rest = query.partition(" ")
        if head.startswith("@"):
            found = self.world.find_user_by_username(head)
            if found is None or found.id not in self.world.bots:
                raise Refused(404, f"no bot {head}")
            return self.world.bots[found.id], rest
        if chat is not None:
            if chat.is_private and chat.bot_id is not None:
                return self.world.bots[chat.bot_id], query
            here = list(self.world.member_bots(chat))
            if len(here) == 1:
                return here[0], query
        if len(self.world.bots) == 1:
            return next(iter(self.world.bots.values())), query
        raise Refused(400, "which bot? start the query with @username or give bot=token")

    async def inline_query(
        self,
        user_id: int,
        query: str,
        chat_id: int | None,
        offset: str,
        timeout: float,
        bot_token: str | None,
    ) -> dict[str, Any]:
        user = self.user(user_id)
        chat = self.chat_of(user, chat_id) if chat_id is not None else None
        bot, text = self.inline_bot(query, chat, bot_token)
        if chat is None or (chat.is_private and chat.bot_id == bot.id):
            chat_type = "sender"
        else:
            chat_type = chat.type
        record = InlineQuery(
            self.world.query_id(), bot.id, user, text, offset, chat_type, time.monotonic()
        )
        self.world.inline_queries[record.id] = record
        cached = self._cached(bot.id, record)
        if cached is not None:
            record.answered = True
            record.answer = cached
        else:
            self.world.deliver(
                bot,
                "inline_query",
                {
                    "id": record.id,
                    "from": user.api(),
                    "query": text,
                    "offset": offset,
                    "chat_type": chat_type,
                },
            )
            self.world.emit(
                {"kind": "inline_query", "query_id": record.id, "user_id": user.id, "query": text}
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.done.wait(), timeout)
        answer = record.answer or {
            "answered": False,
            "results": [],
            "next_offset": "",
            "button": None,
            "is_personal": False,
            "cache_time": 0,
        }
        return {"query_id": record.id, **answer}

    def _cached(self, bot_id: int, record: InlineQuery) -> dict[str, Any] | None:
        for who in (record.user.id, None):
            key = (bot_id, record.query, record.offset, record.chat_type, who)
            hit = self.world.inline_cache.get(key)
            if hit is not None:
                if hit[0] > time.monotonic():
                    return hit[1]
                del self.world.inline_cache[key]
        return None

    def choose_inline_result(
        self, user_id: int, query_id: str, result_id: str, chat_id: int, thread_id: int | None
    ) -> Message:
        user = self.user(user_id)
        record = self.world.inline_queries.get(query_id)
        if record is None or record.answer is None:
            raise Refused(404, f"no answered inline query {query_id}")
        if record.user.id != user.id:
            raise Refused(403, "the query is another user's")
        result = next((r for r in record.answer["results"] if r.get("id") == result_id), None)
        if result is None:
            raise Refused(404, f"no result {result_id!r} in query {query_id}")
        chat = self.chat_of(user, chat_id)
        thread = self.thread(chat, thread_id)
        bot = self.world.bots[record.bot_id]
        try:
            message = post_result(self.world, user, chat, bot, result, thread_id=thread)
        except BotApiError as exc:
            raise Refused(400, exc.description) from None
        inline_id = message.inline_message_id
        if bot.inline_feedback:
            chosen: dict[str, Any] = {
                "result_id": result_id,
                "from": user.api(),
                "query": record.query,
            }
            if inline_id is not None:
                chosen["inline_message_id"] = inline_id
            self.world.deliver(bot, "chosen_inline_result", chosen)
        return message


def post_result(
    world: World,
    user: User,
    chat: Chat,
    bot: Bot,
    result: dict[str, Any],
    *,
    thread_id: int | None = None,
) -> Message:
    """Post an inline result (an ``InlineQueryResult``) in ``chat`` as ``user``'s message via
    ``bot``, as a chosen inline result and answerWebAppQuery's result are posted; one with a
    keyboard gets an ``inline_message_id``. A result of a kind not posted here is a 400."""
    content = result.get("input_message_content")
    text: str | None = None
    entities: list[dict[str, Any]] | None = None
    extra: dict[str, Any] = {}
    if isinstance(content, dict) and "message_text" in content:
        text, formatting = format_text(
            content["message_text"], content.get("parse_mode"), content.get("entities")
        )
        entities = merge_entities(formatting, detected_entities(text))
    elif result.get("type") == "sticker":
        stored = world.files.named("sticker", result.get("sticker_file_id"))
        extra = media_fields(stored)
    else:
        raise bad_request(f"results of type {result.get('type')!r} can't be posted here")
    markup = result.get("reply_markup")
    message = world.user_message(
        user,
        chat,
        text,
        thread_id=thread_id,
        via_bot=bot.user,
        entities=entities or [],
        reply_markup=markup if isinstance(markup, dict) else None,
        extra=extra,
    )
    if markup:
        inline_id = secrets.token_urlsafe(18)
        message.inline_message_id = inline_id
        world.inline_messages[inline_id] = InlineMessage(chat, message.message_id)
    return message
