"""A press judged against its own chat, its own message and the game it names.

Callback data comes from the client: Telegram passes on whatever a modified client sends,
for any message that client can see, not only the buttons the message shows. What the
message shows is Telegram's word, though (the press carries the message as it is now, its
keyboard included), and the bot drew every button of it for one game of that message's
chat (a table, a lobby, a hand in the private chat) or for one panel (/settings,
/forgetme). So a press is taken only if its message shows a button of the same kind for
the same game (on a group's message, the same move too: the table offers only its own,
UNO!, Catch, Take and Challenge). A lobby word for another chat's game pressed on a message
of one's own group, a join pressed in one's private chat, a /settings or /forgetme choice
pressed on the table, a move pressed on a /settings panel: each is refused in words, and
nothing changes. What the press then asks for (a move, a seat) is the engine's to decide,
against the presser's seat, and the admin rights a lobby word may need are checked in the
game's own chat.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, Chat, InlineKeyboardMarkup, Message, Update
from telegram.ext import CallbackQueryHandler, ContextTypes

from services.bot.context import locale_of
from services.presentation.callbacks import BadCallback, Callback, Kind
from services.presentation.screens.refusals import not_on_this_message, out_of_date

#: What handles one kind of press, once it is judged taken: the press and its data.
OnPress = Callable[[Update, ContextTypes.DEFAULT_TYPE, Callback], Awaitable[None]]

#: What a private hand's buttons are: its moves, its cards that cannot be played now, and
#: the refresh.
HAND_KINDS = frozenset({Kind.ACT, Kind.INERT, Kind.HAND})


def _head(cb: Callback) -> str:
    """What a button does, for telling the table's moves (UNO!, Catch, Take, Challenge)
    from the hand's: the action code's head."""
    return cb.arg.split(".")[0] if cb.kind is Kind.ACT else ""


def shown(markup: InlineKeyboardMarkup | None) -> set[tuple[Kind, str, str]]:
    """The (kind, game, what) of every callback button ``markup`` shows."""
    found: set[tuple[Kind, str, str]] = set()
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            data = button.callback_data
            if not isinstance(data, str):
                continue
            try:
                cb = Callback.decode(data)
            except BadCallback:
                continue
            found.add((cb.kind, cb.game_id, _head(cb)))
    return found


def refusal(query: CallbackQuery, cb: Callback, locale: str) -> str | None:
    """Why the press of ``cb`` is not taken on the message it was pressed on (None: it is
    one of that message's kinds of button, for its game)."""
    message = query.message
    if not isinstance(message, Message):
        # An inline message (the bot draws no buttons there) or one too old to be shown.
        return out_of_date(locale)
    buttons = shown(message.reply_markup)
    if message.chat.type == Chat.PRIVATE:
        # A private hand: any move of its game, whatever the hand offers now (an old
        # keyboard's move is answered as out of date, and shows the hand as it is now).
        games = {game for kind, game, _ in buttons if kind in HAND_KINDS}
        taken = cb.kind in HAND_KINDS and cb.game_id in games
        taken = taken or (cb.kind, cb.game_id, _head(cb)) in buttons
    else:
        # The table: only what the table offers (a hand's move has no place on it).
        taken = (cb.kind, cb.game_id, _head(cb)) in buttons
    if not taken:
        return not_on_this_message(locale)
    return None


def press_handler(kind: Kind, on_press: OnPress, *, block: bool) -> CallbackQueryHandler:  # type: ignore[type-arg]
    """The handler of the presses of ``kind`` (PTB's ``pattern``: the data's kind field),
    each decoded and judged (``refusal``) before ``on_press`` sees it: data the bot never
    wrote is answered as out of date, a press its message does not offer is refused."""

    async def judged(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        locale = locale_of(user)
        try:
            cb = Callback.decode(query.data)
        except BadCallback:
            await query.answer(out_of_date(locale))
            return
        refused = refusal(query, cb, locale)
        if refused is not None:
            await query.answer(refused)
            return
        await on_press(update, context, cb)

    return CallbackQueryHandler(judged, pattern=f"^{re.escape(kind.value)}\\|", block=block)


async def unknown_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every press no kind's handler took (data of no kind the bot writes): answered, as
    every press is."""
    query, user = update.callback_query, update.effective_user
    if query is not None and user is not None:
        await query.answer(out_of_date(locale_of(user)))
