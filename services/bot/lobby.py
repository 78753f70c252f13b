"""The group's side before a game starts and around it: /new and its variant keyboard,
the lobby's buttons (Join, Leave, Add AI, Start, Rules) and commands (/join, /leave,
/start, /kick, /end, /back, /rules, /help), and members leaving the group (README "A member
leaves the group")."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial

from telegram import ChatMember, ChatMemberUpdated, Update, User
from telegram.ext import ContextTypes

from services.bot.boards import rules_for
from services.bot.context import (
    display_name,
    is_chat_admin,
    is_group,
    locale_of,
    services,
    topic_of,
)
from services.bot.engine_calls import EngineDown, call_engine
from services.bot.keyboards import markup
from services.bot.language_commands import reply_language
from services.bot.ratelimit import REPLY_WORTH
from services.engine.client import (
    DEFAULT_VARIANT,
    AiLevel,
    Conflict,
    EngineError,
    Forbidden,
    GameInfo,
    UnknownVariant,
    variant_facts,
    variant_names,
)
from services.language_preferences import LanguagePreferences
from services.presentation.callbacks import Callback
from services.presentation.i18n import language
from services.presentation.locales.bidi import with_direction
from services.presentation.locales.rules_text import is_written, rules_messages, written_variants
from services.presentation.screens import lobby as words
from services.presentation.screens.commands import help_text
from services.presentation.screens.lobby import AI_BUTTONS, LOBBY_BUTTONS, variant_keyboard
from services.presentation.screens.names import unknown_rules_word
from services.presentation.screens.refusals import (
    game_is_over,
    not_answering,
    only_host_or_admin,
    out_of_date,
    out_of_the_game,
    seat_refused,
)
from services.presentation.typed_names import named_variant
from services.records.queries import ChatSettings

log = logging.getLogger(__name__)

# The lobby's Add AI buttons and the level each seats ("ai.strong" and anything else: strong).
_AI_LEVELS: dict[str, AiLevel] = {"ai.random": "random", "ai.hard": "hard"}


async def chat_defaults(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, topic_id: int
) -> ChatSettings:
    """What a new game in the chat (forum topic) starts with: its settings in the records,
    or the variants' and the service's own where there are no records."""
    records = services(context).records
    if records is None:
        return ChatSettings()
    return await records.chat_settings(chat_id, topic_id)


async def new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message, user = update.effective_message, update.effective_user
    if message is None or user is None:
        return
    locale = await reply_language(update, context)
    if not is_group(update.effective_chat):
        await services(context).outbox.reply(message, words.group_only(locale))
        return
    uno = services(context)
    chat_id, topic = message.chat_id, topic_of(message)
    existing = await call_engine(lambda: uno.engine.chat_game(chat_id, topic))
    if existing is not None:
        seated = any(s.user_id == user.id and not s.left for s in existing.seats)
        said = words.already_here(locale, seated=seated, playing=existing.status == "playing")
        await services(context).outbox.reply(message, said)
        return
    defaults = await chat_defaults(context, chat_id, topic)
    await uno.outbox.send(
        chat_id,
        words.which_uno(locale),
        markup(variant_keyboard(locale, variant_names(), "", defaults.variant)),
        topic_id=topic,
        worth=REPLY_WORTH,  # a reply to /new, as any other (README "Flood limits")
    )


async def choose_variant(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    message = query.message
    locale = locale_of(user)
    uno = services(context)
    if message is None or not is_group(message.chat) or cb.arg not in variant_names():
        await query.answer(out_of_date(locale))
        return
    chat_id, topic = message.chat.id, topic_of(message)  # type: ignore[arg-type]
    defaults = await chat_defaults(context, chat_id, topic)
    try:
        game = await call_engine(
            lambda: uno.engine.create_game(
                chat_id,
                user.id,
                display_name(user),
                topic_id=topic,
                variant=cb.arg,
                turn_seconds=defaults.turn_seconds,
                uno_window_seconds=defaults.uno_window_seconds,
                rules=rules_for(defaults, cb.arg),
            )
        )
    except Conflict:
        await query.answer(words.game_already_on(locale))
        return
    title = message.chat.title or ""
    # The group's messages speak the topic's language (/language there), else the chat's;
    # a chat's first game's creator sets the chat's.
    chat_language = defaults.language or await LanguagePreferences(uno.memory.redis).adopt_chat(
        chat_id, language(locale)
    )
    # The question becomes the lobby, and then the table: one message all game long.
    await uno.memory.remember_game(
        game.game_id, chat_id, topic, title, chat_language, table_message=message.message_id
    )
    # Answered before the lobby is drawn: a group whose budget is spent may hold the
    # drawing past the press's life, and the press must not spin meanwhile.
    await query.answer()
    await uno.publisher.render(game.game_id, game.version)


async def lobby_button(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    locale = locale_of(user)
    if cb.arg not in LOBBY_BUTTONS:
        await query.answer(out_of_date(locale))
        return
    if cb.arg == "rules":
        engine = services(context).engine
        try:
            info = await call_engine(lambda: engine.game(cb.game_id))
            facts = variant_facts(info.variant)
        except (EngineError, EngineDown, UnknownVariant):
            await query.answer(game_is_over(locale))
            return
        await query.answer(words.rules_summary(locale, facts), show_alert=True)
        return
    if cb.arg in AI_BUTTONS:
        await query.answer(await add_ai_once(context, cb, user, locale))
        return
    answer = await lobby_command(
        context, cb.game_id, cb.arg, user.id, display_name(user), locale=locale
    )
    await query.answer(answer)


#: How long an Add AI press of one lobby version holds it (a double tap, a second press
#: while the lobby is slow to redraw): past the engine's deadline, so a press under way is
#: never doubled; once the seat is added the version moves on and refuses the rest.
AI_PRESS_HOLD_SECONDS = 30


async def add_ai_once(
    context: ContextTypes.DEFAULT_TYPE, cb: Callback, user: User, locale: str
) -> str:
    """An Add AI press, applied once per lobby version: refused when the lobby it was
    pressed on is older than the game's (its seat may be there already, not yet shown), or
    when a press of the same word on the same version is under way or done; else the seat
    added, and the toast says which, at once (the lobby shows it when its redraw comes)."""
    uno = services(context)
    try:
        game = await call_engine(lambda: uno.engine.game(cb.game_id))
    except EngineDown:
        return not_answering(locale)
    except EngineError as e:
        return seat_refused(locale, e)
    if cb.version != game.version:
        return words.lobby_changed(locale)
    held = f"lobby:{cb.game_id}:{cb.version}:{cb.arg}"
    if not await uno.memory.first_time(held, ttl=AI_PRESS_HOLD_SECONDS):
        return words.already_done(locale)
    answer = await lobby_command(
        context, cb.game_id, cb.arg, user.id, display_name(user), locale=locale
    )
    if answer != words.done(locale):
        # Not added (not the host, the engine down, the lobby full): a press may try again.
        await uno.memory.redis.delete(uno.memory.once_key(held))
        return answer
    return words.ai_added(locale, _AI_LEVELS.get(cb.arg, "strong"))


async def lobby_command(
    context: ContextTypes.DEFAULT_TYPE,
    game_id: str,
    what: str,
    user_id: int,
    name: str,
    *,
    locale: str = "en",
) -> str:
    """Join, leave, add an AI, start or end; the answer to show the user. The lobby message
    itself changes when the engine's write reaches the log. A chat admin may do what the
    host may: an admin of the game's own chat, whatever chat the word came from."""
    uno = services(context)
    engine = uno.engine

    async def as_host_or_admin(admin: bool) -> GameInfo:
        if what.startswith("ai."):
            level: AiLevel = _AI_LEVELS.get(what, "strong")
            return await engine.add_ai(game_id, user_id, level=level, admin=admin)
        if what == "start":
            return await engine.start(game_id, user_id, admin=admin)
        return await engine.end(game_id, user_id, admin=admin)

    try:
        if what == "join":
            await call_engine(lambda: engine.join(game_id, user_id, name))
            return words.joined(locale)
        if what == "leave":
            await call_engine(lambda: engine.leave(game_id, user_id))
            return words.left(locale)
        try:
            await call_engine(lambda: as_host_or_admin(False))
        except Forbidden:
            game = await call_engine(lambda: engine.game(game_id))
            if not await is_chat_admin(context, game.chat_id, user_id):
                return only_host_or_admin(locale)
            await call_engine(lambda: as_host_or_admin(True))
        # An ended game's one message is the group's own (its scores): nothing to add.
        return "" if what == "end" else words.done(locale)
    except EngineDown:
        return not_answering(locale)
    except EngineError as e:
        return seat_refused(locale, e)


async def command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/join, /leave, /start (in a group), /end, /back: the lobby buttons as commands."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None or not message.text:
        return
    locale = await reply_language(update, context)
    what = message.text.split()[0].lstrip("/").split("@")[0]
    if not is_group(update.effective_chat):
        return
    uno = services(context)
    try:
        game = await call_engine(lambda: uno.engine.chat_game(message.chat_id, topic_of(message)))
    except EngineDown:
        await services(context).outbox.reply(message, not_answering(locale))
        return
    if game is None:
        await services(context).outbox.reply(message, words.no_game_here(locale))
        return
    if what == "back":
        try:
            await call_engine(lambda: uno.engine.back(game.game_id, user.id))
            answer = words.welcome_back(locale)
        except EngineError as e:
            # Out of the game (kicked, or gone from the group): the engine says why.
            answer = out_of_the_game(locale, e) or words.not_away(locale)
        except EngineDown:
            answer = not_answering(locale)
        await services(context).outbox.reply(message, answer)
        return
    action = {"join": "join", "leave": "leave", "start": "start", "end": "end"}[what]
    answer = await lobby_command(
        context, game.game_id, action, user.id, display_name(user), locale=locale
    )
    if answer:
        await services(context).outbox.reply(message, answer)


async def kick(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/kick, as a reply to the player's message: host or chat admins only."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None or not is_group(update.effective_chat):
        return
    locale = await reply_language(update, context)
    target = message.reply_to_message.from_user if message.reply_to_message else None
    if target is None:
        await services(context).outbox.reply(message, words.kick_needs_reply(locale))
        return
    uno = services(context)
    game = await call_engine(lambda: uno.engine.chat_game(message.chat_id, topic_of(message)))
    if game is None:
        await services(context).outbox.reply(message, words.no_game_here(locale))
        return
    if game.host != user.id and not await is_chat_admin(context, message.chat_id, user.id):
        await services(context).outbox.reply(message, only_host_or_admin(locale))
        return
    admin = game.host != user.id  # vouched for just above
    try:
        # Out for good, at every door: the engine refuses their /back, /join and moves.
        await call_engine(lambda: uno.engine.kick(game.game_id, user.id, target.id, admin=admin))
        await uno.memory.drop_hand_message(game.game_id, target.id)
        await services(context).outbox.reply(message, words.removed_from_game(locale))
    except EngineError:
        await services(context).outbox.reply(message, words.not_in_the_game(locale))


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rules [variant]: the variant named (any of its names, in any language the bot
    speaks), else the chat's running game's, else the default variant; a name it can't
    tell lists the names it knows."""
    message = update.effective_message
    if message is None:
        return
    locale = await reply_language(update, context)
    speak = language(locale)
    variants: dict[str, Sequence[str]] = dict.fromkeys(written_variants(speak), ())
    if context.args:
        variants |= {v: variant_facts(v).spellings for v in variants}
        named = named_variant(" ".join(context.args), variants)
        if named is None:
            said = unknown_rules_word(locale, " ".join(context.args), list(variants))
            await services(context).outbox.reply(message, said)
            return
        variant = named
    else:
        variant = await running_variant(context, message.chat_id, topic_of(message))
    if not is_written(speak, variant):
        variant = DEFAULT_VARIANT
    for n, text in enumerate(rules_messages(speak, variant)):
        shown = "📖 " + text if n == 0 else text
        await services(context).outbox.reply(message, with_direction(speak, shown), html=True)


async def running_variant(context: ContextTypes.DEFAULT_TYPE, chat_id: int, topic: int) -> str:
    """The variant of the chat's live game; the default variant without one (or when the engine does
    not answer: the rules are the bot's own texts, so /rules still answers)."""
    try:
        game = await call_engine(lambda: services(context).engine.chat_game(chat_id, topic))
    except (EngineDown, EngineError):
        return DEFAULT_VARIANT
    return game.variant if game is not None else DEFAULT_VARIANT


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    if message is None:
        return
    locale = await reply_language(update, context)
    await services(context).outbox.reply(message, help_text(locale))


# -- a member leaves the group (README "A member leaves the group") ---------------------------


async def member_left(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The ``left_chat_member`` service message: sent to every bot in the group, group
    privacy on or off, whether the member left or was removed."""
    message = update.effective_message
    if message is None or message.left_chat_member is None or not is_group(message.chat):
        return
    await leave_chat_games(context, message.chat_id, message.left_chat_member, message.from_user)


async def members_joined(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The ``new_chat_members`` service message: a member who had left is back."""
    message = update.effective_message
    if message is None or not message.new_chat_members or not is_group(message.chat):
        return
    for user in message.new_chat_members:
        await back_in_chat(context, message.chat_id, user)


async def chat_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A ``chat_member`` update (sent only to a bot that administers the group): the same
    departure or return as the service message, which may be hidden in a big group. Both
    may arrive; the departure is acted on once."""
    change = update.chat_member
    if change is None or not is_group(change.chat):
        return
    was, now = _is_member(change, old=True), _is_member(change, old=False)
    if was and not now:
        await leave_chat_games(
            context, change.chat.id, change.new_chat_member.user, change.from_user
        )
    elif now and not was:
        await back_in_chat(context, change.chat.id, change.new_chat_member.user)


def _is_member(change: ChatMemberUpdated, *, old: bool) -> bool:
    member = change.old_chat_member if old else change.new_chat_member
    if member.status == ChatMember.RESTRICTED:
        return bool(getattr(member, "is_member", False))
    return member.status in (ChatMember.OWNER, ChatMember.ADMINISTRATOR, ChatMember.MEMBER)


async def leave_chat_games(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, user: User, by: User | None = None
) -> None:
    """The member left the group (``by`` removed them): the engine holds them out of each
    game of the chat they sit in until they are back (its ``left-group``: in a lobby their
    seat goes; in a game in play the stand-in takes it and the table says "… left; AI plays
    for them"). Their hand is no longer updated, and every move of theirs, from any door, is
    refused with why (``play.py``)."""
    if user.is_bot:
        return
    remover = by.id if by is not None and by.id != user.id else None
    for game_id in await services(context).memory.chat_games(chat_id):
        try:
            await _leave_game(context, game_id, user.id, remover)
        except EngineDown:
            log.warning("a member's departure not applied", extra={"game_id": game_id})


async def _leave_game(
    context: ContextTypes.DEFAULT_TYPE, game_id: str, user_id: int, by: int | None
) -> None:
    uno = services(context)
    try:
        # Once, for both of Telegram's updates and every replica: the engine's to decide.
        await call_engine(lambda: uno.engine.left_group(game_id, user_id, by=by))
    except EngineError as e:
        log.info("a member's departure: %s", e, extra={"game_id": game_id})
        return  # over and gone
    await uno.memory.drop_hand_message(game_id, user_id)


async def back_in_chat(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user: User) -> None:
    """A member who left is back in the group: the engine no longer holds them out, and
    /back (or any move of theirs) takes the seat back from the stand-in."""
    uno = services(context)
    for game_id in await uno.memory.chat_games(chat_id):
        try:
            await call_engine(partial(uno.engine.rejoined_group, game_id, user.id))
        except (EngineError, EngineDown) as e:
            log.info("a member's return: %s", e, extra={"game_id": game_id})
