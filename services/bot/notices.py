"""The messages of their own a game's log entries call for, each posted once across
replicas and retries: a round's scores, the game's end, a Dumb Fu penalty's reason
(``announce``), and the word that a player blocked the bot (``tell_blocked``).

A notice that ends a round or the game supersedes the table above it: the next round's
table is posted below the scores, and an ended game's table is deleted (tidying.py).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from services.bot import keyboards
from services.bot.engine_calls import call_engine
from services.bot.final_message import FinalMessages
from services.bot.logreader import LogEntry
from services.bot.memory import GameMemory, Memory
from services.bot.outbox import Outbox
from services.bot.telegram_html import telegram_html
from services.engine.client import EngineClient, GameInfo
from services.presentation.locales.bidi import with_direction
from services.presentation.screens.event_lines import NOTICE_EVENTS
from services.presentation.screens.mini_app import MiniApp
from services.presentation.screens.notices import blocked, notice


class Notices:
    def __init__(
        self, engine: EngineClient, memory: Memory, outbox: Outbox, mini_app: MiniApp | None
    ) -> None:
        self.engine = engine
        self.memory = memory
        self.outbox = outbox
        self.mini_app = mini_app
        self.finals = FinalMessages(engine, memory, outbox, mini_app)

    async def announce(
        self, mem: GameMemory, entry: LogEntry, public: list[dict[str, Any]]
    ) -> None:
        """Messages of their own, once each: a round's scores, the game's end, a Dumb Fu
        penalty's reason."""
        notable = [e for e in public if e.get("type") in NOTICE_EVENTS]
        if not notable:
            return
        game = await call_engine(partial(self.engine.game, entry.game_id))
        locale = mem.locale
        for n, event in enumerate(notable):
            if not await self.memory.first_time(f"{entry.game_id}:{entry.version}:{n}"):
                continue
            scores: list[int] | None = None
            if event["type"] == "game_ended" and game.status != "lobby":
                spectator = await call_engine(partial(self.engine.spectator_view, entry.game_id))
                view = spectator.view
                scores = [s.score for s in view.seats] if view is not None else None
            text = with_direction(locale, notice(locale, game, event, scores=scores))
            if event["type"] in ("round_ended", "game_over", "game_ended"):
                # Posted at the bottom, where the players look; the old table is superseded
                # (the next round's is posted below the scores; an ended game's is deleted).
                table = (await self.memory.game(mem.game_id) or mem).table_message
                await self.memory.update_game(mem.game_id, table="", tfp="", scrolled=0)
                if table is not None:
                    await self.memory.supersede_table(mem.game_id, table)
            final = self.is_final(game, event)
            markup = keyboards.markup(self.finals.keyboard(locale, game)) if final else None
            sent = await self.outbox.send(mem.chat_id, text, markup, topic_id=mem.topic_id)
            if final and sent is not None:
                # Redrawn with the rematch's vote as it comes (final_message.py).
                await self.finals.remember(
                    game.game_id, mem.chat_id, sent.message_id, locale, telegram_html(text)
                )

    @staticmethod
    def is_final(game: GameInfo, event: dict[str, Any]) -> bool:
        """Whether ``event``'s message is the game's final one, which offers its replay and
        a rematch: a game dealt and then won or ended (one ended in its lobby has nothing to
        replay or play again)."""
        return event["type"] in ("game_over", "game_ended") and game.status != "lobby"

    async def tell_blocked(self, mem: GameMemory, game: GameInfo, user_id: int) -> None:
        """The player blocked the bot: their hand stays reachable through inline mode, and
        the group is told so once."""
        if not await self.memory.first_time(f"blocked:{mem.game_id}:{user_id}"):
            return
        seat = next((s for s in game.seats if s.user_id == user_id), None)
        if seat is not None:
            await self.outbox.send(mem.chat_id, blocked(mem.locale, seat), topic_id=mem.topic_id)
