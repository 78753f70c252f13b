"""/stats, /top, /forgetme and /settings: a player's record, a chat's or everyone's board,
forgetting a player (after a button only they may press), and a chat's defaults for new
games (chat admins only): variant, house rules, turn time, UNO window, scoring and target.
The records are the SQL ones (records.py); the text and buttons are boards.py's."""

from __future__ import annotations

import logging

from sqlalchemy.exc import SQLAlchemyError
from telegram import Message, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from services.bot import boards
from services.bot.context import (
    display_name,
    is_chat_admin,
    is_group,
    services,
    topic_of,
)
from services.bot.language_commands import reply_language
from services.bot.records import Records
from services.engine.client import DEFAULT_VARIANT, variant_facts, variant_names
from services.presentation.callbacks import Callback
from services.presentation.i18n import gettext
from services.presentation.screens.names import variant_name
from services.records.queries import InvalidSetting

log = logging.getLogger(__name__)


#: The most of a person's own text a reply repeats back (a 4,000-character word after /top
#: would make the reply longer than Telegram's 4,096 and nothing would be sent).
ECHO_CHARS = 32


def shortened(text: str, limit: int = ECHO_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def records_of(context: ContextTypes.DEFAULT_TYPE) -> Records:
    found = services(context).records
    assert isinstance(found, Records)
    return found


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/stats: the sender's record, or that of the user whose message this replies to."""
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None:
        return
    locale = await reply_language(update, context)
    replied = message.reply_to_message.from_user if message.reply_to_message else None
    subject = replied if replied is not None and not replied.is_bot else user
    chat_id = chat.id if is_group(chat) and chat is not None else None
    try:
        found = await records_of(context).user_stats(subject.id, chat_id)
    except SQLAlchemyError:
        log.exception("/stats: the records did not answer")
        await services(context).outbox.reply(
            message, gettext(locale, "The records are not available right now.")
        )
        return
    name = (found.name if found is not None and found.name else None) or display_name(subject)
    await services(context).outbox.reply(message, boards.stats_text(locale, name, found), html=True)


async def top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/top [variant] [global] [wins]: a short board; outside a group, everyone's."""
    message, chat = update.effective_message, update.effective_chat
    if message is None:
        return
    locale = await reply_language(update, context)
    try:
        variants = {v: variant_facts(v).spellings for v in variant_names()}
        variant, order, everywhere = boards.parse_top(list(context.args or []), variants)
    except boards.BadBoardRequest as e:
        known = ", ".join(variant_name(locale, v) + f" ({v})" for v in variants)
        await services(context).outbox.reply(
            message,
            gettext(
                locale,
                "I don't know {word}. Try /top, /top global, /top wins or a variant: {known}.",
                word=shortened(e.word),
                known=known,
            ),
        )
        return
    everywhere = everywhere or not is_group(chat)
    chat_id = None if everywhere or chat is None else chat.id
    try:
        if variant is None:
            # The board people just played for: the group's last game's variant.
            last = None
            if chat is not None and is_group(chat):
                last = await records_of(context).last_variant(chat.id)
            variant = last or DEFAULT_VARIANT
        entries = await records_of(context).leaderboard(variant, order, chat_id)
    except SQLAlchemyError:
        log.exception("/top: the records did not answer")
        await services(context).outbox.reply(
            message, gettext(locale, "The records are not available right now.")
        )
        return
    await services(context).outbox.reply(
        message, boards.board_text(locale, variant, order, everywhere, entries), html=True
    )


async def forgetme(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/forgetme: asks first, with a button only the sender may press."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None:
        return
    locale = await reply_language(update, context)
    text, markup = boards.forget_question(locale, user.id)
    await services(context).outbox.reply(message, text, markup)


async def confirm_forget(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    """The /forgetme button: forgets its presser, if they are the one the question was
    asked for. That person is read from the question's own button as Telegram shows it,
    not from the press's data, which a modified client writes as it likes: another
    member's press is refused and leaves the question waiting for its asker."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    locale = await reply_language(update, context)
    shown = query.message.reply_markup if isinstance(query.message, Message) else None
    if boards.forget_asker(shown) != user.id or cb.arg != str(user.id):
        await query.answer(gettext(locale, "Only the person who asked can confirm this."))
        return
    try:
        await records_of(context).forget_user(user.id)
    except SQLAlchemyError:
        log.exception("/forgetme: the records did not answer")
        await query.answer(gettext(locale, "The records are not available right now."))
        return
    await query.answer()
    if query.message is not None:
        await services(context).outbox.edit_pressed(
            query,
            gettext(
                locale,
                "Done: {name}'s ratings and standings are deleted, and past games no longer "
                "show their name.",
                name=display_name(user),
            ),
        )


async def service_defaults(context: ContextTypes.DEFAULT_TYPE) -> boards.ServiceDefaults:
    uno = services(context)
    return boards.ServiceDefaults(
        uno.settings.turn_seconds,
        uno.settings.uno_window_seconds,
        variant_names(),
    )


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/settings in a group: the chat's (forum topic's) defaults for new games, in one
    message whose buttons only chat admins may press."""
    message, chat = update.effective_message, update.effective_chat
    if message is None:
        return
    locale = await reply_language(update, context)
    if not is_group(chat):
        await services(context).outbox.reply(
            message, gettext(locale, "Add me to a group and type /new there.")
        )
        return
    try:
        current = await records_of(context).chat_settings(message.chat_id, topic_of(message))
    except SQLAlchemyError:
        log.exception("/settings: the records did not answer")
        await services(context).outbox.reply(
            message, gettext(locale, "The records are not available right now.")
        )
        return
    text, markup = boards.settings_message(locale, current, await service_defaults(context))
    await services(context).outbox.reply(message, text, markup)


async def settings_button(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    """A /settings button (chat admins only): open a panel (``p.<panel>``), or make a choice
    in one, which is stored for the chat's topic (0: the whole chat) and shown in place. A
    choice the panel does not offer is refused, and nothing is written."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    locale = await reply_language(update, context)
    message = query.message
    panel = boards.panel_of(cb.arg)
    if message is None or not is_group(message.chat) or panel is None:
        await query.answer(gettext(locale, "This button is out of date."))
        return
    chat_id = message.chat.id
    if not await is_chat_admin(context, chat_id, user.id):
        await query.answer(gettext(locale, "Only chat admins can change the settings."))
        return
    topic = topic_of(message)  # type: ignore[arg-type]
    records = records_of(context)
    try:
        current = await records.chat_settings(chat_id, topic)
        if cb.arg.startswith("p."):
            saved = current
            answer = None
        else:
            wanted = boards.chosen_settings(locale, current, cb.arg, variant_names())
            saved = await records.save_chat_settings(chat_id, topic, wanted)
            answer = gettext(locale, "Saved.")
    except (boards.BadSetting, InvalidSetting) as e:
        refusal = str(e) if isinstance(e, boards.BadSetting) else None
        await query.answer(refusal or gettext(locale, "That is not one of the choices."))
        return
    except SQLAlchemyError:
        log.exception("/settings: the records did not answer")
        await query.answer(gettext(locale, "The records are not available right now."))
        return
    await query.answer(answer)
    text, markup = boards.settings_message(locale, saved, await service_defaults(context), panel)
    # The same content again (the same choice twice) is an edit Telegram refuses.
    shown = message if isinstance(message, Message) else None
    if shown is None or text != shown.text or markup != shown.reply_markup:
        try:
            await services(context).outbox.edit_pressed(query, text, markup)
        except BadRequest as e:
            if "not modified" not in str(e).lower():
                raise
