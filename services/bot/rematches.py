"""A press of a finished game's Rematch or Leave button (RULES.md §7 "Rematch"): the vote
is the engine's to take or refuse; the final message shows it once the vote's entry of the
event log arrives (final_message.py)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from services.bot.context import locale_of, services
from services.bot.engine_calls import EngineDown, call_engine
from services.engine.client import EngineError
from services.presentation.callbacks import Callback
from services.presentation.screens.refusals import not_answering, out_of_date
from services.presentation.screens.rematch import NO, YES, vote_refused, voted


async def rematch_button(update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback) -> None:
    """A press of Rematch (``yes``) or Leave (``no``): the engine takes the vote or says
    why not; the final message shows it once the vote's entry of the log arrives."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    locale = locale_of(user)
    if cb.arg not in (YES, NO):
        await query.answer(out_of_date(locale))
        return
    engine = services(context).engine
    vote = cb.arg == YES
    try:
        await call_engine(lambda: engine.rematch(cb.game_id, user.id, vote))
    except EngineDown as e:
        await query.answer(not_answering(locale, maybe_applied=e.maybe_applied))
        return
    except EngineError as e:
        await query.answer(vote_refused(locale, e))
        return
    await query.answer(voted(locale, vote))
