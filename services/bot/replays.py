"""/replay: a finished game's replay in the Mini App (services/webapp, its replay page).

``/replay`` in a group opens the chat's (forum topic's) last finished game, from the
records; ``/replay <game id>`` a game the sender played, as the engine has it (it holds a
finished game a day) or else as the records' archive does. The answer names the game and carries the
button that opens it: a direct link in a group, the page in a private chat. Whether the
person may watch it is the Mini App's to judge (a member of the game's chat), as it is for
the live table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError
from telegram import Update
from telegram.ext import ContextTypes

from services.bot.context import is_group, services, topic_of
from services.bot.engine_calls import EngineDown, call_engine
from services.bot.keyboards import markup
from services.bot.language_commands import reply_language
from services.bot.ratelimit import REPLY_WORTH
from services.engine.client import GameInfo, NotFound
from services.move_ids import is_game_id
from services.presentation.locales.bidi import isolate
from services.presentation.rich import Rich, text
from services.presentation.screens.boards import records_unavailable
from services.presentation.screens.names import variant_name
from services.presentation.screens.people import person
from services.presentation.screens.refusals import not_answering
from services.presentation.screens.replay import replay_keyboard, replay_offer, replay_refusal
from services.records.queries import ArchivedGame

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Offered:
    """A finished game the answer offers: its id, variant and players' names."""

    game_id: str
    variant: str
    players: list[Rich]

    @staticmethod
    def of(game: GameInfo) -> Offered:
        return Offered(game.game_id, game.variant, [person(s) for s in game.seats])

    @staticmethod
    def archived(found: ArchivedGame) -> Offered:
        names = [text(isolate(n or f"#{i + 1}")) for i, n in enumerate(found.names)]
        return Offered(found.game_id, found.variant, names)


async def replay(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None or chat is None:
        return
    locale = await reply_language(update, context)
    uno = services(context)
    asked = (context.args or [""])[0]
    in_group = is_group(chat)
    try:
        if asked:
            game = await _played_by(context, asked, user.id)
            refusal = "not_a_player"
        else:
            game = await _last_of(context, chat.id, topic_of(message)) if in_group else None
            refusal = "no_finished_game"
    except EngineDown:
        await uno.outbox.reply(message, not_answering(locale))
        return
    except SQLAlchemyError:
        log.exception("/replay: the records did not answer")
        await uno.outbox.reply(message, records_unavailable(locale))
        return
    app = uno.publisher.mini_app
    keyboard = replay_keyboard(locale, app, game.game_id, in_group=in_group) if game else None
    if game is None or keyboard is None:
        await uno.outbox.reply(
            message, replay_refusal(locale, refusal if game is None else "no_game")
        )
        return
    text = replay_offer(locale, variant_name(locale, game.variant), game.players)
    await uno.outbox.send(
        chat.id, text, markup(keyboard), topic_id=topic_of(message), worth=REPLY_WORTH
    )


async def _played_by(
    context: ContextTypes.DEFAULT_TYPE, game_id: str, user_id: int
) -> Offered | None:
    """The finished game ``game_id`` if ``user_id`` sat in it (as the engine has it, else as
    the records' archive does); None for any other id."""
    if not is_game_id(game_id):
        return None
    uno = services(context)
    engine = uno.engine
    try:
        game = await call_engine(lambda: engine.game(game_id))
    except NotFound:
        found = await uno.records.archived_game(game_id) if uno.records is not None else None
        if found is None or user_id not in found.user_ids:
            return None
        return Offered.archived(found)
    if game.status not in ("over", "ended") or all(s.user_id != user_id for s in game.seats):
        return None
    return Offered.of(game)


async def _last_of(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, topic_id: int
) -> Offered | None:
    """The chat's last finished game, from the records."""
    uno = services(context)
    if uno.records is None:
        return None
    game_id = await uno.records.last_finished_game(chat_id, topic_id)
    if game_id is None:
        return None
    try:
        return Offered.of(await call_engine(lambda: uno.engine.game(game_id)))
    except NotFound:
        found = await uno.records.archived_game(game_id)
        return Offered.archived(found) if found is not None else None
