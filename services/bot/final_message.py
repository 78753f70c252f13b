"""A finished game's final message (the one with its Replay button, posted by notices.py):
where it is and its words, and its redraw with the rematch's vote (RULES.md §7 "Rematch"),
its Rematch and Leave buttons while the vote is open, as each vote's entry of the event log
arrives. The presses are rematches.py's; the rematch itself is a new game of the engine's,
which the bot takes up from its own entries as any game it did not create (intake.py
``adopt``)."""

from __future__ import annotations

from services.bot import keyboards
from services.bot.engine_calls import call_engine
from services.bot.memory import Memory
from services.bot.memory.store import PREFIX, TTL_SECONDS, fields_of
from services.bot.outbox import Outbox
from services.bot.telegram_html import telegram_html
from services.engine.client import EngineClient, GameInfo, NotFound
from services.presentation.screens.keyboard import Keyboard
from services.presentation.screens.mini_app import MiniApp
from services.presentation.screens.rematch import final_keyboard, votes_text
from services.presentation.screens.replay import replay_keyboard

#: The events of a finished game's vote: its entries redraw the final message, no table.
REMATCH_EVENTS = frozenset({"rematch_vote", "rematch_started"})


def final_key(game_id: str) -> str:
    """A finished game's final message: a hash of ``chat``, ``message``, ``locale`` and
    ``html`` (its words before the vote), kept a day as the engine keeps the game."""
    return f"{PREFIX}final:{game_id}"


class FinalMessages:
    """Each finished game's final message (where it is, its words, its chat's language),
    and its redraw with the vote as the engine has it now."""

    def __init__(
        self, engine: EngineClient, memory: Memory, outbox: Outbox, mini_app: MiniApp | None
    ) -> None:
        self.engine = engine
        self.memory = memory
        self.outbox = outbox
        self.mini_app = mini_app

    def keyboard(self, locale: str, game: GameInfo) -> Keyboard | None:
        replay = replay_keyboard(locale, self.mini_app, game.game_id, in_group=True)
        return final_keyboard(locale, game, replay)

    async def remember(
        self, game_id: str, chat_id: int, message_id: int, locale: str, html: str
    ) -> None:
        await self.memory.redis.hset(
            final_key(game_id),
            mapping={"chat": chat_id, "message": message_id, "locale": locale, "html": html},
        )
        await self.memory.redis.expire(final_key(game_id), TTL_SECONDS)

    async def redraw(self, game_id: str) -> None:
        """The final message with the vote as it stands (a later vote's redraw reads the
        engine again, so an edit waiting for the chat's budget never shows an older vote
        than the one before it did)."""
        raw = await self.memory.redis.hgetall(final_key(game_id))
        if not raw:
            return
        shown = fields_of(raw)
        try:
            game = await call_engine(lambda: self.engine.game(game_id))
        except NotFound:
            return
        locale = shown["locale"]
        html = shown["html"]
        votes = votes_text(locale, game)
        if votes is not None:
            html = f"{html}\n\n{telegram_html(votes)}"
        await self.outbox.edit(
            int(shown["chat"]),
            int(shown["message"]),
            html,
            keyboards.markup(self.keyboard(locale, game)),
        )
