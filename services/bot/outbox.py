"""The one path every message the bot sends or edits takes.

Under it sits the rate limiter (``ratelimit.py``) that every Bot API call passes through;
here a screen's rich text becomes Telegram HTML (``telegram_html``; a ``str`` is the bot's
own words, HTML already), and the answers Telegram gives an edit are turned into what the
publisher needs to know: shown, unchanged ("message is not modified"), gone ("message to
edit not found": post again) or unreachable (the user blocked the bot, or the bot left the
chat).
"""

from __future__ import annotations

import asyncio
import logging
from enum import StrEnum
from typing import Any

from telegram import (
    Bot,
    CallbackQuery,
    Chat,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from services.bot.ratelimit import (
    REPLY_WORTH,
    RESERVED,
    TAKEN,
    WAIT,
    NotAfforded,
    RedisRateLimiter,
    worth,
)
from services.bot.telegram_html import telegram_html
from services.presentation.rich import Rich

log = logging.getLogger(__name__)

_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


class Outcome(StrEnum):
    SHOWN = "shown"
    UNCHANGED = "unchanged"
    GONE = "gone"
    UNREACHABLE = "unreachable"
    #: not sent: the chat's budget could not afford it soon enough (``worth``)
    SKIPPED = "skipped"


def _gone(error: BadRequest) -> bool:
    text = error.message.lower()
    return "not found" in text or "can't be edited" in text or "message_id_invalid" in text


class Outbox:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @property
    def _limiter(self) -> RedisRateLimiter | None:
        limiter = getattr(self.bot, "rate_limiter", None)
        return limiter if isinstance(limiter, RedisRateLimiter) else None

    def _budget(self, reserved: bool | str, most: float | None = None) -> dict[str, Any]:
        """How the call meets the flood budget: on its reserved slot (``TAKEN``: and the
        token's, ``go_now``), worth at most ``most`` seconds' wait, or waiting however long.
        Every call says so, whatever update it is made for (ratelimit.replies)."""
        # Only the Application's ExtBot takes rate_limit_args, and only with our limiter.
        if self._limiter is None:
            return {}
        if reserved == TAKEN:
            return {"rate_limit_args": TAKEN}
        how = RESERVED if reserved else WAIT if most is None else worth(most)
        return {"rate_limit_args": how}

    async def room(self, chat_id: int, *, spare: int = 0) -> float:
        """Seconds until a message in ``chat_id`` could go with ``spare`` more slots of its
        budget still free after it (0: now)."""
        limiter = self._limiter
        if limiter is None:
            return 0.0
        return await limiter.room("editMessageText", {"chat_id": chat_id}, spare=spare)

    async def reserve(self, chat_id: int, *, most: float = -1) -> float:
        """Take the next slot of ``chat_id``'s budget for a message sent with ``reserved``;
        the seconds until it may go (-1, nothing taken: later than ``most`` seconds)."""
        limiter = self._limiter
        if limiter is None:
            return 0.0
        return await limiter.reserve("editMessageText", {"chat_id": chat_id}, most=most)

    async def go_now(self, chat_id: int) -> bool:
        """Take a slot of ``chat_id``'s budget if one is free now, and the token's with it
        (one Redis call), and wait for the token's; whether it may go (then send it with
        ``reserved=TAKEN``; if not, nothing is taken)."""
        limiter = self._limiter
        if limiter is None:
            return True
        wait = await limiter.go_now("editMessageText", {"chat_id": chat_id})
        if wait < 0:
            return False
        if wait > 0:
            await asyncio.sleep(wait)
        return True

    async def take_now(self, chat_id: int, *, spare: int = 0) -> bool:
        """Take a slot of ``chat_id``'s budget for a message sent with ``reserved`` if one is
        free now (with ``spare`` more free after it); whether one was (if not, none is
        taken)."""
        limiter = self._limiter
        if limiter is None:
            return True
        taken = await limiter.reserve("editMessageText", {"chat_id": chat_id}, most=0, spare=spare)
        return taken >= 0

    async def edit_inline(
        self,
        chat_id: int,
        inline_message_id: str,
        text: Rich | str,
        markup: InlineKeyboardMarkup | None,
        *,
        worth: float,
    ) -> Outcome:
        """Edit a message posted through inline mode in ``chat_id``. Telegram meters it in
        that chat, which the call itself does not name, so the chat's slot is reserved
        first; not sent (SKIPPED) if the slot is further off than ``worth`` seconds."""
        wait = await self.reserve(chat_id, most=worth)
        if wait < 0:
            return Outcome.SKIPPED
        await asyncio.sleep(wait)
        try:
            await self.bot.edit_message_text(
                telegram_html(text),
                inline_message_id=inline_message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                **self._budget(True),
            )
        except BadRequest as e:
            return Outcome.UNCHANGED if "not modified" in e.message.lower() else Outcome.GONE
        return Outcome.SHOWN

    async def send(
        self,
        chat_id: int,
        text: Rich | str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        topic_id: int = 0,
        quiet: bool = True,
        reserved: bool | str = False,
        worth: float | None = None,
    ) -> Message | None:
        """Post a message; None when the chat no longer takes the bot's messages.
        ``reserved``: its slot was taken with ``reserve`` (``TAKEN``: with ``go_now``);
        ``worth``: sent only if its slot comes within that many seconds, else NotAfforded is
        raised."""
        try:
            return await self.bot.send_message(
                chat_id,
                telegram_html(text),
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                message_thread_id=topic_id or None,
                disable_notification=quiet,
                link_preview_options=_NO_PREVIEW,
                **self._budget(reserved, worth),
            )
        except Forbidden:
            log.info("chat %s does not take the bot's messages", chat_id)
            return None

    async def reply(
        self,
        to: Message,
        text: Rich | str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        html: bool = False,
    ) -> Message:
        """Answer a person's message (a command) in its chat and forum topic, as Telegram's
        reply does (PTB's ``Message.reply_text``): quoting it in a group, not in a private
        chat. Plain text unless ``html``. Worth ``REPLY_WORTH`` of the chat's budget, as
        every answer to a person (``flood.guard``): further off, it is not sent
        (NotAfforded, which the error handler drops)."""
        quoted = ReplyParameters(to.message_id) if to.chat.type != Chat.PRIVATE else None
        if isinstance(text, Rich):
            text, html = telegram_html(text), True
        return await self.bot.send_message(
            to.chat_id,
            text,
            parse_mode=ParseMode.HTML if html else None,
            reply_markup=markup,
            reply_parameters=quoted,
            message_thread_id=to.message_thread_id if to.is_topic_message else None,
            **self._budget(False, REPLY_WORTH),
        )

    async def edit_pressed(
        self, query: CallbackQuery, text: Rich | str, markup: InlineKeyboardMarkup | None = None
    ) -> None:
        """Change the message whose button ``query`` pressed to ``text`` (a ``str``: plain
        text, as ``reply``), worth what a reply is; Telegram's refusals (an unchanged
        message) are the caller's to judge."""
        where: dict[str, Any] = (
            {"inline_message_id": query.inline_message_id}
            if query.inline_message_id is not None or query.message is None
            else {"chat_id": query.message.chat.id, "message_id": query.message.message_id}
        )
        html = isinstance(text, Rich)
        await self.bot.edit_message_text(
            telegram_html(text),
            parse_mode=ParseMode.HTML if html else None,
            reply_markup=markup,
            **where,
            **self._budget(False, REPLY_WORTH),
        )

    async def delete(self, chat_id: int, message_id: int) -> None:
        """Delete a message; one already gone (or too old to delete) is left as it is."""
        try:
            await self.bot.delete_message(chat_id, message_id, **self._budget(False))
        except (BadRequest, Forbidden) as e:
            log.info("could not delete message %s in %s: %s", message_id, chat_id, e)

    async def delete_many(
        self, chat_id: int, message_ids: list[int], *, reserved: bool = False
    ) -> bool:
        """Delete up to 100 messages of ``chat_id`` in one call (one slot of its budget;
        ``reserved``: as ``send``); False when Telegram refused (those it could delete are
        gone either way)."""
        try:
            await self.bot.delete_messages(chat_id, message_ids, **self._budget(reserved))
        except (BadRequest, Forbidden) as e:
            log.info("could not delete messages %s in %s: %s", message_ids, chat_id, e)
            return False
        return True

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: Rich | str,
        markup: InlineKeyboardMarkup | None,
        *,
        reserved: bool | str = False,
        worth: float | None = None,
    ) -> Outcome:
        """Edit a message (``reserved``, ``worth``: as ``send``; a call not worth its wait is
        SKIPPED)."""
        try:
            await self.bot.edit_message_text(
                telegram_html(text),
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                link_preview_options=_NO_PREVIEW,
                **self._budget(reserved, worth),
            )
        except NotAfforded:
            return Outcome.SKIPPED
        except BadRequest as e:
            if "not modified" in e.message.lower():
                return Outcome.UNCHANGED
            if _gone(e):
                return Outcome.GONE
            raise
        except Forbidden:
            return Outcome.UNREACHABLE
        return Outcome.SHOWN
