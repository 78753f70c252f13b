"""The Mini App's Invite: the app shares its lobby into a chat with
``switchInlineQuery("lobby <game id>")``, and the bot answers that inline query with one
article, the lobby's own text with a button opening the app on that lobby (a direct link:
it works in any chat, where a ``web_app`` button does not). A game not in its lobby any
more answers no article, its button saying why."""

from __future__ import annotations

from telegram import (
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
)
from telegram.constants import ParseMode
from telegram.ext import ContextTypes

from services.bot.context import locale_of, services
from services.bot.engine_calls import EngineDown, call_engine
from services.bot.keyboards import markup
from services.bot.telegram_html import telegram_html
from services.engine.client import EngineError
from services.move_ids import is_game_id
from services.presentation.locales.bidi import with_direction
from services.presentation.screens.lobby import lobby_text
from services.presentation.screens.mini_app import invite_button
from services.presentation.screens.refusals import game_is_over, not_answering

#: The one article's id: never a card's (``play.chosen_inline_result`` ignores it).
INVITE_RESULT = "invite"


async def answer_invite(
    query: InlineQuery, context: ContextTypes.DEFAULT_TYPE, game_id: str
) -> None:
    """``query`` shares ``game_id``'s lobby: its article, in the inviter's language."""
    user = query.from_user
    locale = locale_of(user)
    uno = services(context)
    app = uno.publisher.mini_app
    why = game_is_over(locale)
    game = None
    if is_game_id(game_id):  # typed text, never a path to the engine
        try:
            game = await call_engine(lambda: uno.engine.game(game_id))
        except EngineError:
            game = None
        except EngineDown:
            why = not_answering(locale)
    if game is None or game.status != "lobby" or app is None:
        await query.answer(
            [],
            cache_time=0,
            is_personal=True,
            button=InlineQueryResultsButton(why, start_parameter="help"),
        )
        return
    text = lobby_text(locale, game)
    title, _, rest = text.plain.partition("\n")
    article = InlineQueryResultArticle(
        id=INVITE_RESULT,
        title=title,
        description=rest.strip()[:200],
        input_message_content=InputTextMessageContent(
            telegram_html(with_direction(locale, text)), parse_mode=ParseMode.HTML
        ),
        reply_markup=markup(((invite_button(locale, app, game_id),),)),
    )
    await query.answer([article], cache_time=0, is_personal=True)
