"""The Bot API methods: what a bot may ask of the local Telegram, and Telegram's refusals.

Each method is an ``async`` function of ``(BotApi, Bot, Params)`` registered under its name;
names are matched case-insensitively, as Telegram does. A method returns the call's
``result`` or raises :class:`~playground.errors.BotApiError`.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from playground import errors
from playground.errors import BotApiError, bad_request, conflict, forbidden
from playground.formatting import format_text
from playground.media import MEDIA_METHODS, media_fields
from playground.params import Params
from playground.people import post_result
from playground.text import (
    MAX_CAPTION_LENGTH,
    MAX_TEXT_LENGTH,
    detected_entities,
    merge_entities,
    utf16_length,
)
from playground.webhooks import start_webhook, stop_webhook
from playground.world import (
    ADMIN_STATUSES,
    ALL_UPDATE_KINDS,
    DEFAULT_UPDATE_KINDS,
    MEMBER_STATUSES,
    Bot,
    Chat,
    Message,
    Webhook,
    World,
    chat_member,
    now,
)

Method = Callable[["BotApi", Bot, Params], Awaitable[Any]]
MEDIA_METHODS_LOWER = {name.lower(): kind for name, kind in MEDIA_METHODS.items()}
METHODS: dict[str, Method] = {}

#: Description Telegram adds to some successful answers (setWebhook, deleteWebhook).
SUCCESS_DESCRIPTION = "_description"

CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
BUTTON_ACTIONS = frozenset(
    {
        "url",
        "callback_data",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    }
)
INLINE_RESULT_TYPES = frozenset(
    {
        "article",
        "photo",
        "gif",
        "mpeg4_gif",
        "video",
        "audio",
        "voice",
        "document",
        "location",
        "venue",
        "contact",
        "game",
        "sticker",
    }
)
COMMAND_SCOPES = frozenset(
    {
        "default",
        "all_private_chats",
        "all_group_chats",
        "all_chat_administrators",
        "chat",
        "chat_administrators",
        "chat_member",
    }
)


def method(*names: str) -> Callable[[Method], Method]:
    def register(fn: Method) -> Method:
        for name in names:
            METHODS[name.lower()] = fn
        return fn

    return register


class BotApi:
    """Runs Bot API calls against a :class:`World` and logs each one."""

    def __init__(self, world: World) -> None:
        self.world = world

    async def call(self, token: str, name: str, raw: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """HTTP status and JSON body of one call."""
        bot = self.world.bots_by_token.get(token)
        if bot is None:
            return 401, errors.UNAUTHORIZED.envelope()
        fn = METHODS.get(name.lower())
        params = Params(raw, name.lower())
        entry: dict[str, Any] = {
            "time": time.time(),
            "token": token,
            "bot_id": bot.id,
            "method": name,
            "params": raw,
            "chat_id": _loggable_chat_id(raw.get("chat_id")),
        }
        try:
            if fn is None:
                raise errors.not_served(name)
            result = await fn(self, bot, params)
        except BotApiError as exc:
            entry.update(ok=False, error_code=exc.error_code, description=exc.description)
            self.world.log_call(entry)
            return exc.error_code, exc.envelope()
        entry.update(ok=True, error_code=None, description=None)
        self.world.log_call(entry)
        if isinstance(result, tuple) and len(result) == 2 and result[0] == SUCCESS_DESCRIPTION:
            return 200, {"ok": True, "result": True, "description": result[1]}
        return 200, {"ok": True, "result": result}

    # ------------------------------------------------------------------ shared checks

    def chat(self, bot: Bot, params: Params, *, write: bool) -> Chat:
        """The chat named by ``chat_id`` that ``bot`` may read (or, with ``write``, post in)."""
        chat_id = params.chat_id()
        if chat_id is None:
            raise bad_request("chat_id is empty")
        chat = self.world.chat_for_bot(bot, chat_id)
        if chat is None:
            raise bad_request(errors.CHAT_NOT_FOUND)
        if chat.is_private:
            assert chat.user is not None
            if write and chat.user.id in bot.blocked_by:
                raise forbidden(errors.BOT_BLOCKED)
            if write and chat.user.id not in bot.started_by:
                raise forbidden(errors.CANT_INITIATE)
            return chat
        if chat.migrated_to is not None:
            raise BotApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        status = chat.members.get(bot.id)
        if status == "kicked":
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        if status not in MEMBER_STATUSES:
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def text(self, params: Params, name: str = "text") -> tuple[str, list[dict[str, Any]]]:
        """Text and entities (given, parsed from ``parse_mode``, and detected) of a message."""
        raw = params.str_(name)
        if raw is None or raw == "":
            raise bad_request(errors.MESSAGE_TEXT_EMPTY)
        entities = params.json_("entities" if name == "text" else f"{name}_entities")
        if entities is not None and not isinstance(entities, list):
            raise bad_request("can't parse entities JSON object")
        text, formatting = format_text(raw, params.str_("parse_mode"), entities)
        if not text:
            raise bad_request(errors.MESSAGE_TEXT_EMPTY)
        if utf16_length(text) > MAX_TEXT_LENGTH:
            raise bad_request(errors.MESSAGE_TOO_LONG)
        for entity in formatting:
            # A tg://user?id= link names the whole user, as Telegram's own answers do.
            if entity["type"] == "text_mention":
                known = self.world.users.get(entity["user"]["id"])
                if known is None:
                    raise bad_request("can't parse entities: user not found")
                entity["user"] = known.api()
        return text, merge_entities(formatting, detected_entities(text))

    def flood(self, bot: Bot, chat: Chat) -> None:
        """Spend one of the chat's messages (a send, an edit or a deletion: see limits.py),
        or refuse with 429 before anything changes."""
        retry_after = self.world.limits.take(bot.id, chat.id, chat.is_private, time.monotonic())
        if retry_after:
            raise errors.too_many_requests(retry_after)

    def message(
        self, bot: Bot, params: Params, *, missing: str, edit: bool = False
    ) -> tuple[Chat, Message]:
        """The message ``(chat_id, message_id)`` a method edits or deletes. An edit is
        checked as a message is (``chat(write=True)``): in the private chat of a user who
        blocked the bot, Telegram answers both with 403 ``bot was blocked by the user``."""
        chat = self.chat(bot, params, write=edit)
        message_id = params.int_("message_id")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request(missing)
        return chat, message

    def edit_target(self, bot: Bot, params: Params) -> tuple[Message, bool]:
        """The message an edit method changes, and whether it is an inline message."""
        inline_id = params.str_("inline_message_id")
        if inline_id:
            inline = self.world.inline_messages.get(inline_id)
            if inline is None:
                raise bad_request("MESSAGE_ID_INVALID")
            message = inline.chat.messages[inline.message_id]
            if message.deleted or message.via_bot is None or message.via_bot.id != bot.id:
                raise bad_request("MESSAGE_ID_INVALID")
            return message, True
        if not params.has("chat_id"):
            if params.has("message_id"):
                raise bad_request("chat_id is empty")
            raise bad_request("message identifier is not specified")
        _, message = self.message(bot, params, missing=errors.MESSAGE_TO_EDIT_NOT_FOUND, edit=True)
        if message.sender.id != bot.id or message.is_service:
            raise bad_request(errors.MESSAGE_CANT_BE_EDITED)
        return message, False

    def edit(self, bot: Bot, message: Message, content: dict[str, Any]) -> None:
        """Replace a message's content, keeping the old one in its history; the edit spends
        one of the chat's messages (an edit that changes nothing is refused first)."""
        old = message.content()
        if all(content[key] == old[key] for key in content):
            raise bad_request(errors.MESSAGE_NOT_MODIFIED)
        self.flood(bot, message.chat)
        message.history.append({**old, "edit_date": message.edit_date or message.date})
        for key, value in content.items():
            setattr(message, key, value)
        message.edit_date = now()
        self.world.emit({"kind": "edit", "message": message.view()})


def _loggable_chat_id(value: Any) -> int | str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return value or None
    return None


def reply_markup(params: Params, chat: Chat) -> dict[str, Any] | None:
    """The ``reply_markup`` parameter, checked as Telegram checks keyboards for ``chat``."""
    markup = params.json_("reply_markup", "can't parse reply keyboard markup JSON object")
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        for button in _buttons(markup, "inline_keyboard", "InlineKeyboardMarkup"):
            check_button(button, private=chat.is_private)
    elif "keyboard" in markup:
        for button in _buttons(markup, "keyboard", "ReplyKeyboardMarkup"):
            if isinstance(button, dict):
                check_web_app(button, private=chat.is_private)
    return markup


def _buttons(markup: dict[str, Any], field: str, type_name: str) -> list[Any]:
    """The buttons of a keyboard's rows, which must be an array of arrays."""
    rows = markup[field]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(f'field "{field}" of the {type_name} should be an Array of Arrays')
    return [button for row in rows for button in row]


def check_web_app(button: dict[str, Any], *, private: bool) -> None:
    """A ``web_app`` button opens a Mini App: "Available only in private chats between a user
    and the bot" (InlineKeyboardButton, KeyboardButton); anywhere else Telegram answers
    ``BUTTON_TYPE_INVALID``."""
    if "web_app" not in button:
        return
    if not private:
        raise bad_request("BUTTON_TYPE_INVALID")
    info = button["web_app"]
    if not isinstance(info, dict) or not isinstance(info.get("url"), str):
        raise bad_request('can\'t parse inline keyboard button: Field "url" must be of type String')
    if not re.match(r"^https?://[^\s/]+", info["url"]):
        raise bad_request("BUTTON_URL_INVALID")


def check_button(button: Any, *, private: bool) -> None:
    if not isinstance(button, dict):
        raise bad_request(
            "can't parse inline keyboard button: InlineKeyboardButton must be an Object"
        )
    if not isinstance(button.get("text"), str):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    if not BUTTON_ACTIONS & button.keys():
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    check_web_app(button, private=private)
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not re.match(r"^(https?|tg)://\S+$", url):
            raise bad_request(f"inline keyboard button URL '{url}' is invalid: Wrong HTTP URL")


def reply_target(chat: Chat, params: Params) -> tuple[int | None, int | None]:
    """``(thread_id, reply_to)`` of a message the bot sends."""
    thread_id = params.int_("message_thread_id")
    if thread_id is not None:
        if chat.is_forum:
            if thread_id not in chat.topics and thread_id != 1:
                raise bad_request("message thread not found")
            if thread_id == 1:
                thread_id = None  # the General topic: messages carry no thread id
        elif thread_id not in chat.messages:
            raise bad_request("message thread not found")
    reply = params.json_("reply_parameters", "can't parse reply parameters JSON object")
    reply_to: int | None = None
    allow_missing = params.bool_("allow_sending_without_reply")
    if isinstance(reply, dict):
        raw = reply.get("message_id")
        reply_to = raw if isinstance(raw, int) else None
        allow_missing = bool(reply.get("allow_sending_without_reply", allow_missing))
        if reply_to is None:
            raise bad_request("message to be replied not found")
    elif params.has("reply_to_message_id"):
        reply_to = params.int_("reply_to_message_id")
    if reply_to is not None:
        replied = chat.messages.get(reply_to)
        if replied is None or replied.deleted:
            if not allow_missing:
                raise bad_request("message to be replied not found")
            reply_to = None
    if reply_to is None and thread_id is not None and chat.is_forum:
        reply_to = thread_id
    return thread_id, reply_to


# ---------------------------------------------------------------------------- identity


@method("getMe")
async def get_me(api: BotApi, bot: Bot, p: Params) -> Any:
    return bot.me()


@method("logOut", "close")
async def log_out(api: BotApi, bot: Bot, p: Params) -> Any:
    return True


# ---------------------------------------------------------------------------- updates


@method("getUpdates")
async def get_updates(api: BotApi, bot: Bot, p: Params) -> Any:
    if bot.webhook is not None:
        raise conflict(
            "can't use getUpdates method while webhook is active; use deleteWebhook to delete "
            "the webhook first"
        )
    offset = p.int_("offset")
    limit = p.int_("limit") or 100
    limit = min(max(limit, 1), 100)
    timeout = max(0, p.int_("timeout") or 0)
    allowed = p.json_("allowed_updates", "can't parse allowed updates JSON object")
    if allowed is not None:
        if not isinstance(allowed, list):
            raise bad_request("can't parse allowed updates JSON object")
        bot.allowed_updates = (
            frozenset(str(kind) for kind in allowed) & ALL_UPDATE_KINDS or DEFAULT_UPDATE_KINDS
        )
    bot.poll_generation += 1
    generation = bot.poll_generation
    bot.new_update.set()  # an earlier poll of this bot wakes up and ends with 409
    if offset is not None:
        if offset < 0:
            while len(bot.updates) > -offset:
                bot.updates.popleft()
        else:
            while bot.updates and bot.updates[0]["update_id"] < offset:
                bot.updates.popleft()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not bot.updates:
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        bot.new_update.clear()
        try:
            await asyncio.wait_for(bot.new_update.wait(), remaining)
        except TimeoutError:
            break
        if bot.poll_generation != generation:
            if api.world.bots_by_token.get(bot.token) is not bot:
                return []
            raise conflict(
                "terminated by other getUpdates request; make sure that only one bot instance "
                "is running"
            )
    return list(bot.updates)[:limit]


@method("setWebhook")
async def set_webhook(api: BotApi, bot: Bot, p: Params) -> Any:
    url = (p.str_("url") or "").strip()
    if not url:
        return await delete_webhook(api, bot, p)
    if not re.match(r"^https?://[^\s/]+", url):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    secret = p.str_("secret_token")
    if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
        raise bad_request("secret token contains unallowed characters")
    allowed = p.json_("allowed_updates", "can't parse allowed updates JSON object")
    if allowed is not None and not isinstance(allowed, list):
        raise bad_request("can't parse allowed updates JSON object")
    max_connections = p.int_("max_connections") or 40
    if not 1 <= max_connections <= 100:
        max_connections = min(max(max_connections, 1), 100)
    if p.bool_("drop_pending_updates"):
        bot.updates.clear()
    same = bot.webhook is not None and bot.webhook.url == url
    if allowed is not None:
        bot.allowed_updates = (
            frozenset(str(kind) for kind in allowed) & ALL_UPDATE_KINDS or DEFAULT_UPDATE_KINDS
        )
    stop_webhook(bot)
    bot.poll_generation += 1
    bot.new_update.set()
    bot.webhook = Webhook(url, secret, max_connections, allowed)
    start_webhook(api.world, bot, api.call)
    return (SUCCESS_DESCRIPTION, "Webhook is already set" if same else "Webhook was set")


@method("deleteWebhook")
async def delete_webhook(api: BotApi, bot: Bot, p: Params) -> Any:
    had = bot.webhook is not None
    stop_webhook(bot)
    bot.webhook = None
    if p.bool_("drop_pending_updates"):
        bot.updates.clear()
    return (SUCCESS_DESCRIPTION, "Webhook was deleted" if had else "Webhook is already deleted")


@method("getWebhookInfo")
async def get_webhook_info(api: BotApi, bot: Bot, p: Params) -> Any:
    hook = bot.webhook
    info: dict[str, Any] = {
        "url": hook.url if hook else "",
        "has_custom_certificate": False,
        "pending_update_count": len(bot.updates),
    }
    if hook is not None:
        info["max_connections"] = hook.max_connections
        info["ip_address"] = "127.0.0.1"
        if hook.last_error_date is not None:
            info["last_error_date"] = hook.last_error_date
            info["last_error_message"] = hook.last_error_message
        if hook.allowed_updates is not None:
            info["allowed_updates"] = hook.allowed_updates
    return info


# ---------------------------------------------------------------------------- messages


def post(api: BotApi, bot: Bot, chat: Chat, p: Params, **content: Any) -> dict[str, Any]:
    """Post the bot's message with ``content`` (text or a file) in ``chat``, after every
    check, spending one of the chat's messages; the ``Message``."""
    markup = reply_markup(p, chat)
    thread_id, reply_to = reply_target(chat, p)
    api.flood(bot, chat)
    message = chat.add(
        bot.user,
        reply_markup=markup,
        thread_id=thread_id,
        is_topic_message=thread_id is not None and chat.is_forum,
        reply_to=reply_to,
        **content,
    )
    if not chat.is_private:
        chat.last_bot_id = bot.id
    api.world.emit({"kind": "message", "message": message.view()})
    return message.api()


@method("sendMessage")
async def send_message(api: BotApi, bot: Bot, p: Params) -> Any:
    text, entities = api.text(p)
    chat = api.chat(bot, p, write=True)
    return post(api, bot, chat, p, text=text, entities=entities)


def caption(p: Params) -> dict[str, Any]:
    """The ``caption`` of a file, formatted as a text is; nothing when there is none."""
    raw = p.str_("caption")
    if not raw:
        return {}
    entities = p.json_("caption_entities", "can't parse entities JSON object")
    if entities is not None and not isinstance(entities, list):
        raise bad_request("can't parse entities JSON object")
    text, formatting = format_text(raw, p.str_("parse_mode"), entities)
    if utf16_length(text) > MAX_CAPTION_LENGTH:
        raise bad_request("message caption is too long")
    if not text:
        return {}
    fields: dict[str, Any] = {"caption": text}
    found = merge_entities(formatting, detected_entities(text))
    if found:
        fields["caption_entities"] = found
    return fields


@method(*MEDIA_METHODS)
async def send_media(api: BotApi, bot: Bot, p: Params) -> Any:
    kind = MEDIA_METHODS_LOWER[p.method]
    chat = api.chat(bot, p, write=True)
    named = p.raw.get(kind)
    if isinstance(named, str) and named.startswith("attach://"):
        named = p.raw.get(named.removeprefix("attach://"))  # an upload under another name
    stored = api.world.files.named(kind, named)
    extra = media_fields(stored, emoji=p.str_("emoji") if kind == "sticker" else None)
    if kind != "sticker":
        extra.update(caption(p))
    return post(api, bot, chat, p, extra=extra, media_url=stored.url)


@method("editMessageText")
async def edit_message_text(api: BotApi, bot: Bot, p: Params) -> Any:
    text, entities = api.text(p)
    message, inline = api.edit_target(bot, p)
    if message.text is None:
        raise bad_request("there is no text in the message to edit")
    markup = reply_markup(p, message.chat)
    api.edit(bot, message, {"text": text, "entities": entities, "reply_markup": markup})
    return True if inline else message.api()


@method("editMessageReplyMarkup")
async def edit_message_reply_markup(api: BotApi, bot: Bot, p: Params) -> Any:
    message, inline = api.edit_target(bot, p)
    api.edit(bot, message, {"reply_markup": reply_markup(p, message.chat)})
    return True if inline else message.api()


def _may_delete(bot: Bot, chat: Chat, message: Message) -> bool:
    """A bot deletes its own messages, any in a private chat, and any in a group it admins."""
    return message.sender.id == bot.id or chat.is_private or chat.is_admin(bot.id)


def _delete(api: BotApi, message: Message) -> None:
    message.deleted = True
    api.world.emit({"kind": "delete", "message": message.view()})


@method("deleteMessage")
async def delete_message(api: BotApi, bot: Bot, p: Params) -> Any:
    chat, message = api.message(bot, p, missing=errors.MESSAGE_TO_DELETE_NOT_FOUND)
    if not _may_delete(bot, chat, message):
        raise bad_request(errors.MESSAGE_CANT_BE_DELETED)
    api.flood(bot, chat)
    _delete(api, message)
    return True


@method("deleteMessages")
async def delete_messages(api: BotApi, bot: Bot, p: Params) -> Any:
    chat = api.chat(bot, p, write=False)
    ids = p.json_("message_ids", "can't parse message identifiers JSON object")
    if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
        raise bad_request("message identifiers are not specified")
    api.flood(bot, chat)  # one call spends one message of the chat's budget
    for message_id in ids:
        message = chat.messages.get(message_id) if isinstance(message_id, int) else None
        if message is not None and not message.deleted and _may_delete(bot, chat, message):
            _delete(api, message)
    return True


@method("pinChatMessage")
async def pin_chat_message(api: BotApi, bot: Bot, p: Params) -> Any:
    chat, message = api.message(bot, p, missing="message to pin not found")
    if not chat.is_private and not chat.is_admin(bot.id):
        raise bad_request("not enough rights to manage pinned messages in the chat")
    chat.pinned = message.message_id
    if not chat.is_private:
        service = chat.add(bot.user, extra={"pinned_message": message.api(with_reply=False)})
        api.world.emit({"kind": "message", "message": service.view()})
    api.world.emit({"kind": "pin", "chat_id": chat.id, "message_id": message.message_id})
    return True


@method("unpinChatMessage", "unpinAllChatMessages")
async def unpin_chat_message(api: BotApi, bot: Bot, p: Params) -> Any:
    chat = api.chat(bot, p, write=False)
    if not chat.is_private and not chat.is_admin(bot.id):
        raise bad_request("not enough rights to manage pinned messages in the chat")
    chat.pinned = None
    api.world.emit({"kind": "pin", "chat_id": chat.id, "message_id": None})
    return True


@method("sendChatAction")
async def send_chat_action(api: BotApi, bot: Bot, p: Params) -> Any:
    action = p.str_("action")
    if not action:
        raise bad_request("action is empty")
    if action not in CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    chat = api.chat(bot, p, write=True)
    api.world.emit({"kind": "chat_action", "chat_id": chat.id, "bot_id": bot.id, "action": action})
    return True


# ---------------------------------------------------------------------------- queries


@method("answerCallbackQuery")
async def answer_callback_query(api: BotApi, bot: Bot, p: Params) -> Any:
    query_id = p.str_("callback_query_id") or ""
    query = api.world.callback_queries.get(query_id)
    if (
        query is None
        or query.bot_id != bot.id
        or query.answered
        or time.monotonic() - query.created > api.world.callback_query_seconds
    ):
        raise bad_request(errors.QUERY_TOO_OLD)
    text = p.str_("text")
    if text is not None and len(text) > 200:
        raise bad_request("MESSAGE_TOO_LONG")
    query.answered = True
    query.answer = {
        "answered": True,
        "text": text or None,
        "show_alert": p.bool_("show_alert"),
        "url": p.str_("url") or None,
    }
    query.done.set()
    api.world.emit({"kind": "callback_answer", "query_id": query.id, **query.answer})
    return True


def check_result(result: Any) -> None:
    """An ``InlineQueryResult`` checked as Telegram checks it."""
    if not isinstance(result, dict):
        raise bad_request("can't parse InlineQueryResult: InlineQueryResult must be an Object")
    kind = result.get("type")
    if kind not in INLINE_RESULT_TYPES:
        raise bad_request(f'can\'t parse InlineQueryResult: Unsupported type "{kind}"')
    result_id = result.get("id")
    if not isinstance(result_id, str) or not 1 <= len(result_id.encode()) <= 64:
        raise bad_request("RESULT_ID_INVALID")
    if kind == "article" and not isinstance(result.get("input_message_content"), dict):
        raise bad_request(
            'can\'t parse InlineQueryResult: Field "input_message_content" must be of type Object'
        )
    if "reply_markup" in result:
        markup = result["reply_markup"]
        for row in markup.get("inline_keyboard", []) if isinstance(markup, dict) else []:
            for button in row:
                # the chat an inline result lands in is not known: no web_app button
                check_button(button, private=False)
    content = result.get("input_message_content")
    if isinstance(content, dict) and "message_text" in content:
        text = content["message_text"]
        if not isinstance(text, str) or not text.strip():
            raise bad_request(errors.MESSAGE_TEXT_EMPTY)
        format_text(text, content.get("parse_mode"), content.get("entities"))


@method("answerInlineQuery")
async def answer_inline_query(api: BotApi, bot: Bot, p: Params) -> Any:
    query_id = p.str_("inline_query_id") or ""
    results = p.json_("results", "can't parse inline query results JSON object")
    if not isinstance(results, list):
        raise bad_request("can't parse inline query results JSON object")
    query = api.world.inline_queries.get(query_id)
    if (
        query is None
        or query.bot_id != bot.id
        or query.answered
        or time.monotonic() - query.created > api.world.inline_query_seconds
    ):
        raise bad_request(errors.QUERY_TOO_OLD)
    if len(results) > 50:
        raise bad_request("RESULTS_TOO_MUCH")
    seen: set[str] = set()
    for result in results:
        check_result(result)
        if result["id"] in seen:
            raise bad_request("RESULT_ID_DUPLICATE")
        seen.add(result["id"])
    next_offset = p.str_("next_offset") or ""
    if len(next_offset.encode()) > 64:
        raise bad_request("NEXT_OFFSET_INVALID")
    button = inline_results_button(p)
    cache_time = p.int_("cache_time")
    seconds = 300 if cache_time is None else cache_time
    answer: dict[str, Any] = {
        "answered": True,
        "results": results,
        "next_offset": next_offset,
        "button": button,
        "is_personal": p.bool_("is_personal"),
        "cache_time": seconds,
    }
    query.answered = True
    query.answer = answer
    query.done.set()
    if seconds > 0:
        who = query.user.id if answer["is_personal"] else None
        key = (bot.id, query.query, query.offset, query.chat_type, who)
        api.world.inline_cache[key] = (time.monotonic() + seconds, answer)
    api.world.emit({"kind": "inline_answer", "query_id": query.id, "count": len(results)})
    return True


def inline_results_button(p: Params) -> dict[str, Any] | None:
    """The button above inline results (``InlineQueryResultsButton``): a Mini App to open
    (``web_app``) or the bot's private chat to start (``start_parameter``). The form before
    Bot API 6.7, ``switch_pm_text`` + ``switch_pm_parameter``, is the second kind."""
    button = p.json_("button", "can't parse inline query results button JSON object")
    if button is None and p.has("switch_pm_text"):
        button = {
            "text": p.str_("switch_pm_text"),
            "start_parameter": p.str_("switch_pm_parameter") or "",
        }
    if button is None:
        return None
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request("can't parse inline query results button JSON object")
    check_web_app(button, private=True)
    return button


# ---------------------------------------------------------------------------- Mini Apps


MENU_BUTTON_TYPES = frozenset({"commands", "web_app", "default"})


def _menu_chat(api: BotApi, bot: Bot, p: Params) -> int | None:
    """The private chat a menu button is set for (its user's id), or None for the default;
    only private chats have one."""
    if not p.has("chat_id"):
        return None
    # the Bot API reads it as a user's id: a group's (negative) id is no user
    chat_id = p.chat_id()
    if not isinstance(chat_id, int) or chat_id <= 0:
        raise bad_request("invalid chat_id specified")
    return api.chat(bot, p, write=False).id


@method("setChatMenuButton")
async def set_chat_menu_button(api: BotApi, bot: Bot, p: Params) -> Any:
    chat_id = _menu_chat(api, bot, p)
    button = p.json_("menu_button", "can't parse menu button JSON object") or {"type": "default"}
    if not isinstance(button, dict) or button.get("type") not in MENU_BUTTON_TYPES:
        raise bad_request("can't parse menu button JSON object")
    if button["type"] == "web_app":
        if not isinstance(button.get("text"), str) or not button["text"].strip():
            raise bad_request("can't parse menu button JSON object")
        check_web_app(button, private=True)
        button = {"type": "web_app", "text": button["text"], "web_app": button["web_app"]}
    else:
        button = {"type": button["type"]}
    if button["type"] == "default":
        bot.menu_buttons.pop(chat_id, None)
    else:
        bot.menu_buttons[chat_id] = button
    api.world.emit({"kind": "menu_button", "bot_id": bot.id, "chat_id": chat_id})
    return True


@method("getChatMenuButton")
async def get_chat_menu_button(api: BotApi, bot: Bot, p: Params) -> Any:
    return bot.menu_button(_menu_chat(api, bot, p))


@method("answerWebAppQuery")
async def answer_web_app_query(api: BotApi, bot: Bot, p: Params) -> Any:
    """The Mini App's answer, posted in the chat it was opened from, as the user's message via
    the bot; ``SentWebAppMessage`` carries the inline id when the message has a keyboard."""
    result = p.json_("result", "can't parse inline query result JSON object")
    check_result(result)
    launch = api.world.web_app_launches.get(p.str_("web_app_query_id") or "")
    if launch is None or launch.query_id is None or launch.bot_id != bot.id or launch.answered:
        raise bad_request("QUERY_ID_INVALID")
    user = api.world.users[launch.user_id]
    chat = (
        api.world.private_chat(bot, user)
        if launch.chat_id is None
        else api.world.chats[launch.chat_id]
    )
    message = post_result(api.world, user, chat, bot, result)
    launch.answered = True
    sent: dict[str, Any] = {}
    if message.inline_message_id is not None:
        sent["inline_message_id"] = message.inline_message_id
    return sent


# ---------------------------------------------------------------------------- commands


def _command_key(api: BotApi, bot: Bot, p: Params) -> tuple[str, str]:
    scope = p.json_("scope", "can't parse BotCommandScope JSON object") or {"type": "default"}
    if not isinstance(scope, dict) or scope.get("type") not in COMMAND_SCOPES:
        raise bad_request("can't parse BotCommandScope JSON object")
    if scope["type"] in {"chat", "chat_administrators", "chat_member"}:
        chat_id = scope.get("chat_id")
        if not isinstance(chat_id, int | str) or api.world.chat_for_bot(bot, chat_id) is None:
            raise bad_request(errors.CHAT_NOT_FOUND)
    language = p.str_("language_code") or ""
    if language and not re.fullmatch(r"[a-z]{2}", language):
        raise bad_request("invalid language code specified")
    return json.dumps(scope, sort_keys=True), language


@method("setMyCommands")
async def set_my_commands(api: BotApi, bot: Bot, p: Params) -> Any:
    commands = p.json_("commands", "can't parse commands JSON object")
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    if len(commands) > 100:
        raise bad_request("BOT_COMMANDS_TOO_MUCH")
    clean: list[dict[str, str]] = []
    for command in commands:
        if not isinstance(command, dict):
            raise bad_request("can't parse BotCommand: BotCommand must be an Object")
        name = command.get("command")
        description = command.get("description")
        if not isinstance(name, str) or not re.fullmatch(r"/?[a-z0-9_]{1,32}", name):
            raise bad_request("BOT_COMMAND_INVALID")
        if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
            raise bad_request("command description is empty")
        clean.append({"command": name.lstrip("/"), "description": description})
    key = _command_key(api, bot, p)
    if clean:
        bot.commands[key] = clean
    else:
        bot.commands.pop(key, None)
    return True


@method("getMyCommands")
async def get_my_commands(api: BotApi, bot: Bot, p: Params) -> Any:
    return bot.commands.get(_command_key(api, bot, p), [])


@method("deleteMyCommands")
async def delete_my_commands(api: BotApi, bot: Bot, p: Params) -> Any:
    bot.commands.pop(_command_key(api, bot, p), None)
    return True


@method(
    "setMyName",
    "setMyDescription",
    "setMyShortDescription",
    "setMyDefaultAdministratorRights",
)
async def set_bot_profile(api: BotApi, bot: Bot, p: Params) -> Any:
    return True


# ---------------------------------------------------------------------------- chats


def member_object(chat: Chat, user_id: int, api: BotApi) -> dict[str, Any]:
    user = api.world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    return chat_member(user, chat.members.get(user_id, "left"))


@method("getChat")
async def get_chat(api: BotApi, bot: Bot, p: Params) -> Any:
    return api.chat(bot, p, write=False).full_info()


@method("getChatMember")
async def get_chat_member(api: BotApi, bot: Bot, p: Params) -> Any:
    chat = api.chat(bot, p, write=False)
    user_id = p.int_("user_id")
    if user_id is None:
        raise bad_request("user not found")
    return member_object(chat, user_id, api)


@method("getChatAdministrators")
async def get_chat_administrators(api: BotApi, bot: Bot, p: Params) -> Any:
    chat = api.chat(bot, p, write=False)
    if chat.is_private:
        raise bad_request("there are no administrators in the private chat")
    return [
        member_object(chat, user_id, api)
        for user_id, status in chat.members.items()
        if status in ADMIN_STATUSES
    ]


@method("getChatMemberCount")
async def get_chat_member_count(api: BotApi, bot: Bot, p: Params) -> Any:
    chat = api.chat(bot, p, write=False)
    return sum(1 for user_id in chat.members if chat.is_member(user_id))


@method("leaveChat")
async def leave_chat(api: BotApi, bot: Bot, p: Params) -> Any:
    chat = api.chat(bot, p, write=False)
    if chat.is_private:
        raise bad_request("chat member status can't be changed in private chats")
    old = chat.members.get(bot.id, "left")
    chat.members[bot.id] = "left"
    api.world.deliver(
        bot,
        "my_chat_member",
        api.world.chat_member_update(chat, bot, bot.user, old, "left", bot.user),
    )
    api.world.emit({"kind": "member", "chat_id": chat.id, "user_id": bot.id, "status": "left"})
    return True
