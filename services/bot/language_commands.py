"""The chat side of languages: ``/language`` and loading each person's choice.

``/language`` in a private chat sets the language of what that person alone reads (``fa``,
``gu``, ``en``; ``auto`` follows their Telegram app again). In a group, a chat admin sets
the language of the group's messages, the game in play included.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from services.bot.context import is_chat_admin, is_group, locale_of, services, topic_of
from services.bot.keyboards import markup
from services.language_preferences import LanguagePreferences
from services.presentation.callbacks import Callback
from services.presentation.i18n import language
from services.presentation.locales.catalog import LANGUAGE_NAMES
from services.presentation.screens import languages

AUTO = "auto"
#: What /language accepts for each language: its code and its own name.
_ANSWERS = {
    **{code: code for code in LANGUAGE_NAMES},
    **{name.casefold(): code for code, name in LANGUAGE_NAMES.items()},
    AUTO: AUTO,
}


def preferences(context: ContextTypes.DEFAULT_TYPE) -> LanguagePreferences:
    return LanguagePreferences(services(context).memory.redis)


async def note_language(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Before any handler: load the sender's own choice."""
    if isinstance(update, Update) and update.effective_user is not None:
        await preferences(context).note_update(update.effective_user.id)


async def reply_language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    """The language of a reply, as the place it is posted in speaks: a group's own (else the
    sender's), the sender's in a private chat."""
    own = locale_of(update.effective_user)
    chat = update.effective_chat
    if not is_group(chat):
        return language(own)
    assert chat is not None
    return await preferences(context).chat(chat.id) or language(own)


def wanted_language(args: list[str] | None) -> str | None:
    """The language ``/language <arg>`` asks for (``auto`` included); None: no or no known
    argument."""
    return _ANSWERS.get(args[0].casefold()) if args else None


async def language_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await choose_language(update, context, wanted_language(context.args))


async def language_button(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    """A /language button: as ``/language <code>`` sent by its presser."""
    query = update.callback_query
    assert query is not None
    await query.answer()
    await choose_language(update, context, wanted_language([cb.arg]))


async def choose_language(
    update: Update, context: ContextTypes.DEFAULT_TYPE, wanted: str | None
) -> None:
    """Set the language ``wanted`` (the presser's own in a private chat, the chat's in a
    group, by an admin); None: say the current one and offer the others as buttons."""
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None or chat is None:
        return
    prefs = preferences(context)
    if not is_group(chat):
        if wanted is None:
            screen = languages.own_language(language(locale_of(user)))
            await services(context).outbox.reply(
                message, screen.text, markup=markup(screen.keyboard)
            )
            return
        await prefs.set_choice(user.id, None if wanted == AUTO else wanted)
        now = language(locale_of(user))
        await services(context).outbox.reply(message, languages.speaking(now))
        return
    uno, topic = services(context), topic_of(message)
    topic_language = None
    if topic and uno.records is not None:  # a forum topic's own, else the chat's
        topic_language = (await uno.records.chat_settings(chat.id, topic)).language
    current = topic_language or await prefs.chat(chat.id) or language(locale_of(user))
    if wanted is None or wanted == AUTO:
        screen = languages.chat_language(current)
        await services(context).outbox.reply(message, screen.text, markup=markup(screen.keyboard))
        return
    if not await is_chat_admin(context, chat.id, user.id):
        await services(context).outbox.reply(message, languages.admins_only(current))
        return
    # [decision] In a forum topic an admin's /language is that topic's own, kept in the
    # records' chat settings (services/records: a topic's empty values inherit the
    # chat's); elsewhere it is the chat's, in the bot's Redis as before and in the records
    # too, so what lasts holds it.
    if topic and uno.records is not None:
        await uno.records.save_language(chat.id, topic, wanted)
        said = languages.topic_now_in(wanted)
    else:
        await prefs.set_chat(chat.id, wanted)
        if uno.records is not None:
            await uno.records.save_language(chat.id, 0, wanted)
        said = languages.chat_now_in(wanted)
    game_id = await uno.memory.chat_game(chat.id, topic)
    if game_id:
        await uno.memory.update_game(game_id, lang=wanted)
    await services(context).outbox.reply(message, said)
