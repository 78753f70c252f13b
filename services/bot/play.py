"""Moves: the presses of the table's and the private hand's buttons (a move, a card that
cannot be played now, ✉️ Private hand: one handler each, app.py), the hand in inline mode
(its query and the chosen result), the private chat's /start, and Minions' frozen players.

A move is one engine request with the action id ``move_ids.action_id`` (the same for a
repeat of the same press or choice, and for every retry), so it is applied once; the chat
changes when the engine's write reaches the event log (intake.py).
"""

from __future__ import annotations

import logging

from telegram import (
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
    User,
)
from telegram.constants import ParseMode
from telegram.ext import ContextTypes

from services.bot.context import app_language_of, is_group, locale_of, services, topic_of
from services.bot.engine_calls import EngineDown, call_engine
from services.bot.invites import answer_invite
from services.bot.keyboards import markup
from services.bot.outbox import Outcome
from services.bot.ratelimit import REPLY_WORTH
from services.bot.telegram_html import telegram_html
from services.engine.client import EngineError, Forbidden, IllegalAction
from services.move_ids import action_id, is_game_id
from services.presentation.callbacks import BadCallback, Callback, Kind
from services.presentation.screens.commands import private_hello
from services.presentation.screens.hand import hand_in_private_chat
from services.presentation.screens.inline_results import did_not_count, inline_page
from services.presentation.screens.mini_app import invited_game
from services.presentation.screens.refusals import (
    NOT_OWED,
    card_not_playable,
    left_this_games_group,
    move_refused,
    no_game_in_play,
    not_answering,
    not_your_colour,
    not_your_hand,
    out_of_the_game,
    table_moved_down,
)

log = logging.getLogger(__name__)

#: A stale press's hand refresh goes only if the private chat's budget has room this soon
#: (the next change of the game shows the hand anyway), and once in this many seconds.
REFRESH_WORTH = 1.0
REFRESH_SECONDS = 2


async def out_of_game(
    context: ContextTypes.DEFAULT_TYPE, game_id: str, user_id: int, locale: str
) -> str | None:
    """Why the user is out of the game (removed with /kick, or gone from its group), as the
    engine, the one judge of it, says; None when they are not (or it cannot say now: the
    press then goes on as any other, and the engine refuses what it must)."""
    engine = services(context).engine
    try:
        await call_engine(lambda: engine.view(game_id, user_id))
    except Forbidden as e:
        return out_of_the_game(locale, e)
    except (EngineError, EngineDown):
        return None
    return None


async def attempt(
    context: ContextTypes.DEFAULT_TYPE, user_id: int, cb: Callback, locale: str
) -> tuple[str | None, bool, bool]:
    """The move sent: the words to answer with (None: applied), whether it was refused as
    a decision the player does not owe, and whether because the player is out of the game
    (kicked, or gone from its group: the engine refuses every move of theirs)."""
    uno = services(context)
    try:
        await call_engine(
            lambda: uno.engine.act(
                cb.game_id,
                user_id,
                cb.arg,
                version=cb.version,
                action_id=action_id(user_id, cb.version, cb.arg),
            )
        )
    except EngineDown as e:
        return not_answering(locale, maybe_applied=e.maybe_applied), False, False
    except EngineError as e:
        not_owed = isinstance(e, IllegalAction) and e.reason in NOT_OWED
        removed = isinstance(e, Forbidden) and e.removed is not None
        return move_refused(locale, e), not_owed, removed
    return None, False, False


async def away(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> bool:
    """Answer a press of a player out of the game (left its group, or removed) with why,
    without moving; whether they are."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    why = await out_of_game(context, cb.game_id, user.id, locale_of(user))
    if why is None:
        return False
    await query.answer(why, show_alert=True)
    return True


async def hand_button(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    """✉️ Private hand: the hand posted (or refreshed) in the private chat, or the link to it."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    if await open_private_hand(context, cb.game_id, user):
        await query.answer(hand_in_private_chat(locale_of(user)))
    elif await away(update, context, cb):
        return  # out of the game: told why
    else:  # the user never started the bot, or blocked it: the link opens the chat
        bot = services(context).bot_username
        await query.answer(url=f"https://t.me/{bot}?start={cb.game_id}")


async def inert_button(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    """A card that cannot be played now: answered, nothing moves (but a frozen player's
    press is reported)."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    if await away(update, context, cb):
        return
    await query.answer(card_not_playable(locale_of(user)))
    await report_if_frozen(context, cb.game_id, user.id, f"q{query.id}")


async def move_button(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    locale = locale_of(user)
    if query.message is not None and is_group(query.message.chat):
        mem = await services(context).memory.game(cb.game_id)
        if mem is not None and mem.table_message != query.message.message_id:
            # A table a newer one below replaced (its deletion waits for the budget).
            await query.answer(table_moved_down(locale))
            return
    refused, not_owed, removed = await attempt(context, user.id, cb, locale)
    on_table = query.message is not None and is_group(query.message.chat)
    if not_owed and not removed and on_table and cb.arg.startswith("c."):
        # The table's colour buttons are everyone's to see and one player's to press.
        refused = not_your_colour(locale)
    # Out of the game (kicked, gone from the group): an alert says why, as it must be read.
    await query.answer(refused or "", show_alert=removed)
    if removed:
        return
    if not_owed:  # a frozen player pressing what is not theirs to press moved
        await report_if_frozen(context, cb.game_id, user.id, f"q{query.id}")
    if refused is None or query.message is None or is_group(query.message.chat):
        return
    # A stale or refused press on the private hand: show the hand as it is now, if it
    # changed (its stored fingerprint) and the private chat's budget affords it soon.
    uno = services(context)
    mem = await uno.memory.game(cb.game_id)
    hand = await uno.memory.hand_message(cb.game_id, user.id)
    if (
        mem is not None
        and hand is not None
        and hand.message_id == query.message.message_id
        # One refresh at a time: a burst of stale presses makes one edit, not one each.
        and await uno.memory.first_time(f"refresh:{cb.game_id}:{user.id}", ttl=REFRESH_SECONDS)
    ):
        await uno.publisher.show_hand(
            mem,
            user.id,
            hand.message_id,
            hand.fingerprint,
            app_language=hand.language or app_language_of(user),
            worth=REFRESH_WORTH,
        )


async def open_private_hand(context: ContextTypes.DEFAULT_TYPE, game_id: str, user: User) -> bool:
    """Post (or refresh) the player's hand in their private chat; False when it cannot
    be sent there."""
    uno = services(context)
    mem = await uno.memory.game(game_id)
    if mem is None:
        return False
    hand = await uno.memory.hand_message(game_id, user.id)
    return await uno.publisher.show_hand(
        mem,
        user.id,
        hand.message_id if hand is not None else None,
        app_language=app_language_of(user),
    )


async def private_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in the private chat, maybe with a game id (a deep link from the group)."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None:
        return
    locale = locale_of(user)
    uno = services(context)
    games = [a for a in (context.args or [])[:1] if is_game_id(a)]
    shown = False
    for game_id in games:
        mem = await uno.memory.game(game_id)
        if mem is None:
            continue
        shown = await open_private_hand(context, game_id, user) or shown
    if not shown:
        await services(context).outbox.reply(message, private_hello(locale))


# -- inline mode ------------------------------------------------------------------------------


async def _no_cards(query: InlineQuery, why: str) -> None:
    """An inline answer with no cards, its button saying why (and opening the bot's help)."""
    await query.answer(
        [],
        cache_time=0,
        is_personal=True,
        button=InlineQueryResultsButton(why, start_parameter="help"),
    )


async def inline_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The hand as personal, uncached inline results: playable cards first, then the other
    legal actions, then the cards that cannot be played now (inert)."""
    query, user = update.inline_query, update.effective_user
    if query is None or user is None:
        return
    invited = invited_game(query.query)
    if invited is not None:  # the Mini App's Invite: the lobby shared into a chat
        await answer_invite(query, context, invited)
        return
    locale = locale_of(user)
    uno = services(context)
    # "My cards" fills the query with the game's id: a person in several groups gets the
    # hand of the game whose button they pressed.
    game_id = query.query.strip()
    player = None
    if is_game_id(game_id):  # typed text, never a path to the engine
        try:
            player = await call_engine(lambda: uno.engine.view(game_id, user.id))
        except Forbidden as e:
            if e.removed is not None:  # out of the game: the engine says why
                if e.removed == "kicked":
                    why = not_your_hand(locale)
                else:
                    why = left_this_games_group(locale)
                await _no_cards(query, why)
                return
        except (EngineError, EngineDown):
            player = None
    if player is None or player.view is None or player.game.status != "playing":
        await _no_cards(query, no_game_in_play(locale))
        return
    offset = int(query.offset) if query.offset.isdigit() else 0
    # What a choice posts in the group speaks the group's language; the list, the player's.
    mem = await uno.memory.game(player.game.game_id)
    group_locale = mem.locale if mem is not None else locale
    page = inline_page(locale, player.game, player.view, offset, group_locale=group_locale)
    results = [
        InlineQueryResultArticle(
            id=result.id,
            title=result.title,
            description=result.description,
            input_message_content=InputTextMessageContent(
                telegram_html(result.text), parse_mode=ParseMode.HTML
            ),
            reply_markup=markup(result.keyboard),
        )
        for result in page.results
    ]
    await query.answer(results, cache_time=0, is_personal=True, next_offset=page.next_offset)


async def chosen_inline_result(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A card chosen from the inline hand: the move, applied once (its action id is the
    same whichever way it arrives)."""
    chosen, user = update.chosen_inline_result, update.effective_user
    if chosen is None or user is None:
        return
    try:
        cb = Callback.decode(chosen.result_id)
    except BadCallback:
        return
    if cb.kind is not Kind.ACT:
        return
    # Its message is posted in the group below the table, whether the move counts or not.
    uno = services(context)
    await uno.memory.count_chat_message(cb.game_id, user.id, app_language_of(user))
    game = await uno.memory.game(cb.game_id)
    # The card is the player's own message in the group: a refusal is told there, in the
    # group's language.
    locale = game.locale if game is not None else locale_of(user)
    refused, _, removed = await attempt(context, user.id, cb, locale)
    if refused is None:
        return
    log.info("inline choice refused: %s", refused, extra={"game_id": cb.game_id})
    if removed:
        return  # a result listed before its player was out of the game: left as it is
    if chosen.inline_message_id is None or game is None:
        return  # posted without its keyboard (an old result): nothing the bot can edit
    shown = did_not_count(locale, cb, refused)
    outcome = await uno.outbox.edit_inline(
        game.chat_id,
        chosen.inline_message_id,
        shown.text,
        markup(shown.keyboard),
        worth=REPLY_WORTH,
    )
    if outcome is not Outcome.SHOWN:  # deleted meanwhile, or no slot soon enough
        log.info("a refused inline choice not marked: %s", outcome, extra={"game_id": cb.game_id})


# -- Minions: a frozen player moving (RULES.md §6) --------------------------------------------


async def group_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any message in a group: if its author is frozen by Dumb Fu in the chat's game, the
    engine hears of it (it decides what breaks the freeze and the 4-card cost)."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None or not is_group(update.effective_chat):
        return
    if message.via_bot is not None:
        # A card chosen from the inline hand is a move, not a frozen player talking; it was
        # counted as it was chosen (chosen_inline_result), which the bot hears of with
        # group privacy on too.
        return
    uno = services(context)
    game_id = await uno.memory.chat_game(message.chat_id, topic_of(message))
    if game_id is None:
        return
    await uno.memory.count_chat_message(game_id)  # it pushes the table up
    await report_if_frozen(context, game_id, user.id, f"m{message.message_id}")


async def report_if_frozen(
    context: ContextTypes.DEFAULT_TYPE, game_id: str, user_id: int, what: str
) -> None:
    """RULES.md §6: a frozen player's message, or press that is not a decision they owe,
    is reported to the engine (which decides what breaks the freeze, and the cost)."""
    uno = services(context)
    mem = await uno.memory.game(game_id)
    if mem is None or user_id not in mem.frozen:
        return
    seat = mem.frozen[user_id]
    try:
        spectator = await call_engine(lambda: uno.engine.spectator_view(game_id))
        await call_engine(
            lambda: uno.engine.frozen_moved(
                game_id,
                version=spectator.game.version,
                seat=seat,
                action_id=f"tg-frozen:{user_id}:{what}",
            )
        )
    except (EngineError, EngineDown) as e:
        log.info("frozen move not reported: %s", e, extra={"game_id": game_id})
