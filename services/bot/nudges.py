"""A turn's reminder in a player's private chat: a human who owes a decision and has not
made it some seconds into it (``UNO_TURN_NUDGE_SECONDS``, 15, or half the turn time if
sooner) is told once, in their language. An edit notifies nobody, and a private message
costs none of the group's budget. A player with the game's Mini App open is told nothing:
the app shows them whose turn it is (services/app_presence.py says who has it open).

What happens by time is the worker's: the engine sets the reminder's deadline with the
state write that makes the decision owed, and drops it with the write that replaces it;
the worker, when it falls due, appends the game and version to a stream the bot reads
with the event log (``NUDGES_KEY``), and ``on_due`` sends it. The game has one reminder
at a time, kept in its memory (``Memory.keep_nudge``), and the render of any newer version
(the turn taken) or of the game's end removes it (``remove_nudge``).
"""

from __future__ import annotations

import logging
from functools import partial

from telegram.error import TelegramError

from services import app_presence
from services.bot.engine_calls import call_engine
from services.bot.logreader import LogEntry
from services.bot.memory import GameMemory, Memory, Nudge
from services.bot.outbox import Outbox
from services.engine.client import EngineClient, NotFound
from services.language_preferences import LanguagePreferences
from services.presentation.locales.bidi import with_direction
from services.presentation.screens.notices import turn_nudge

log = logging.getLogger(__name__)


class Nudges:
    def __init__(self, engine: EngineClient, memory: Memory, outbox: Outbox) -> None:
        self.engine = engine
        self.memory = memory
        self.outbox = outbox

    async def on_due(self, entry: LogEntry) -> None:
        """The worker found the decision of ``entry.version`` still owed at its reminder's
        time: remind its human, unless the game moved on meanwhile (a fire delivered late
        or twice finds it so, or finds the reminder sent already)."""
        game_id, version = entry.game_id, entry.version
        try:
            mem = await self.memory.game(game_id)
            if mem is None or await self.memory.seen_version(game_id) > version:
                return  # not a game this bot shows, or it moved on
            now = await call_engine(partial(self.engine.spectator_view, game_id))
            pending = now.view.pending if now.view is not None else None
            if now.game.version != version or pending is None:
                return
            seat = now.game.seats[pending.player]
            if seat.user_id is None or seat.ai or seat.away or seat.left:
                return
            if seat.user_id in await app_presence.watching(self.memory.redis, game_id):
                return  # the app in front of them shows it is their turn
            if not await self.memory.first_time(f"nudge:{game_id}:{version}"):
                return
            await self.send_nudge(mem, seat.user_id, version)
        except (NotFound, TelegramError) as e:
            log.info("no nudge in %s: %s", game_id, e, extra={"game_id": game_id})

    async def send_nudge(self, mem: GameMemory, user_id: int, version: int) -> None:
        """Tell ``user_id`` in private that the decision of ``version`` waits for them, in
        the language they read their hand in (their /language choice, else their app's as
        their hand or their inline choices told it, else the group's), and keep it as the
        game's one reminder."""
        hand = await self.memory.hand_message(mem.game_id, user_id)
        app_language = (hand.language if hand is not None else "") or mem.app_languages.get(
            user_id, ""
        )
        locale = await LanguagePreferences(self.memory.redis).person(
            user_id, fallback=app_language or mem.locale
        )
        await self.remove_nudge(mem.game_id, version + 1)  # at most one at a time
        text = with_direction(locale, turn_nudge(locale, mem.chat_title))
        message = await self.outbox.send(user_id, text, quiet=False)
        if message is None:
            return
        sent = Nudge(user_id, message.message_id, version)
        replaced = await self.memory.keep_nudge(mem.game_id, sent)
        if replaced is False:  # the decision was made meanwhile
            await self.outbox.delete(user_id, message.message_id)
        elif isinstance(replaced, Nudge):
            await self.outbox.delete(replaced.user_id, replaced.message_id)

    async def remove_nudge(self, game_id: str, before_version: int) -> None:
        """Remove the game's reminder of a decision older than ``before_version`` from its
        player's private chat (whichever replica takes it first)."""
        nudge = await self.memory.take_nudge(game_id, before_version)
        if nudge is not None:
            await self.outbox.delete(nudge.user_id, nudge.message_id)
