"""/stats, /top, /forgetme and /settings: a player's record, a chat's or everyone's board,
forgetting a player (after a button only they may press), and a chat's defaults for new
games (chat admins only): variant, house rules, turn time, UNO window, scoring and target.
The records are the SQL ones (records.py); what people send is read in boards.py; the text
and buttons are the presentation's (``screens.boards``, ``screens.settings``)."""

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
from services.bot.keyboards import markup
from services.bot.language_commands import reply_language
from services.bot.records import Records
from services.engine.client import DEFAULT_VARIANT, variant_facts, variant_names
from services.presentation.callbacks import Callback
from services.presentation.screens.boards import (
    board_text,
    forget_question,
    forgotten,
    only_the_asker,
    records_unavailable,
    stats_text,
    unknown_board_word,
)
from services.presentation.screens.lobby import group_only
from services.presentation.screens.refusals import out_of_date
from services.presentation.screens.settings import (
    Refusal,
    ServiceDefaults,
    admins_only,
    saved,
    setting_refused,
    settings_screen,
)
from services.records.queries import BoardOrder, InvalidSetting

log = logging.getLogger(__name__)


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
        await services(context).outbox.reply(message, records_unavailable(locale))
        return
    name = (found.name if found is not None and found.name else None) or display_name(subject)
    await services(context).outbox.reply(message, stats_text(locale, name, found))


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
        await services(context).outbox.reply(message, unknown_board_word(locale, e.word, variants))
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
        await services(context).outbox.reply(message, records_unavailable(locale))
        return
    by_wins = order is BoardOrder.WINS
    await services(context).outbox.reply(
        message, board_text(locale, variant, by_wins, everywhere, entries)
    )


async def forgetme(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/forgetme: asks first, with a button only the sender may press."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None:
        return
    locale = await reply_language(update, context)
    question = forget_question(locale, user.id)
    await services(context).outbox.reply(message, question.text, markup(question.keyboard))


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
        await query.answer(only_the_asker(locale))
        return
    try:
        await records_of(context).forget_user(user.id)
    except SQLAlchemyError:
        log.exception("/forgetme: the records did not answer")
        await query.answer(records_unavailable(locale))
        return
    await query.answer()
    if query.message is not None:
        await services(context).outbox.edit_pressed(query, forgotten(locale, display_name(user)))


async def service_defaults(context: ContextTypes.DEFAULT_TYPE) -> ServiceDefaults:
    uno = services(context)
    return ServiceDefaults(
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
        await services(context).outbox.reply(message, group_only(locale))
        return
    try:
        current = await records_of(context).chat_settings(message.chat_id, topic_of(message))
    except SQLAlchemyError:
        log.exception("/settings: the records did not answer")
        await services(context).outbox.reply(message, records_unavailable(locale))
        return
    screen = settings_screen(locale, current, await service_defaults(context))
    await services(context).outbox.reply(message, screen.text, markup(screen.keyboard))


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
        await query.answer(out_of_date(locale))
        return
    chat_id = message.chat.id
    if not await is_chat_admin(context, chat_id, user.id):
        await query.answer(admins_only(locale))
        return
    topic = topic_of(message)  # type: ignore[arg-type]
    records = records_of(context)
    try:
        current = await records.chat_settings(chat_id, topic)
        if cb.arg.startswith("p."):
            stored = current
            answer = None
        else:
            wanted = boards.chosen_settings(current, cb.arg, variant_names())
            stored = await records.save_chat_settings(chat_id, topic, wanted)
            answer = saved(locale)
    except boards.BadSetting as e:
        await query.answer(setting_refused(locale, e.why, e.variant, e.rule))
        return
    except InvalidSetting:
        await query.answer(setting_refused(locale, Refusal.NOT_OFFERED))
        return
    except SQLAlchemyError:
        log.exception("/settings: the records did not answer")
        await query.answer(records_unavailable(locale))
        return
    await query.answer(answer)
    screen = settings_screen(locale, stored, await service_defaults(context), panel)
    buttons = markup(screen.keyboard)
    # The same content again (the same choice twice) is an edit Telegram refuses.
    shown = message if isinstance(message, Message) else None
    if shown is None or screen.text.plain != shown.text or buttons != shown.reply_markup:
        try:
            await services(context).outbox.edit_pressed(query, screen.text, buttons)
        except BadRequest as e:
            if "not modified" not in str(e).lower():
                raise
