"""A turn's reminder in a player's private chat: a human who owes a decision and has not
acted ``nudge_after`` seconds into it is told once, in their language (an edit notifies
nobody, and a private message costs none of the group's budget). The game has one such
reminder at a time, kept in its memory (``Memory.keep_nudge``), and the render of any newer
version removes it.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.error import TelegramError

from services.bot.background import Background
from services.bot.memory import GameMemory, Memory, Nudge
from services.bot.outbox import Outbox
from services.engine.client import EngineClient, NotFound, PlayerView
from services.language_preferences import LanguagePreferences
from services.presentation.locales.bidi import with_direction
from services.presentation.screens.notices import turn_nudge

log = logging.getLogger(__name__)

#: Seconds into a human's turn after which they are told once in private (README).
NUDGE_AFTER = 15.0


class Nudges:
    def __init__(
        self,
        engine: EngineClient,
        memory: Memory,
        outbox: Outbox,
        background: Background,
        *,
        nudge_after: float = NUDGE_AFTER,
    ) -> None:
        self.engine = engine
        self.memory = memory
        self.outbox = outbox
        self.background = background
        self.nudge_after = nudge_after
        #: per game, the version whose decision a nudge waits on, and its task
        self._nudges: dict[str, tuple[int, asyncio.Task[None]]] = {}

    def nudge_later(self, mem: GameMemory, spectator: PlayerView) -> None:
        """A human who owes a decision and has not acted ``nudge_after`` seconds into it
        (half the turn time, if that is sooner) is told once in their private chat."""
        game, view = spectator.game, spectator.view
        # A game moved on: the nudge of its decision before is not needed (it would only
        # read that the game moved on, a Redis call a turn at a hundred groups).
        earlier = self._nudges.get(mem.game_id)
        if earlier is not None and earlier[0] != game.version:
            earlier[1].cancel()
        if self.nudge_after <= 0 or view is None or view.pending is None:
            return
        seat = game.seats[view.pending.player]
        if seat.user_id is None or seat.ai or seat.away or seat.left:
            return
        user_id, version = seat.user_id, game.version
        delay = min(self.nudge_after, game.turn_seconds / 2)

        async def nudge() -> None:
            await asyncio.sleep(delay)
            try:
                if await self.memory.seen_version(mem.game_id) > version:
                    return  # the game moved on
                now = await self.engine.spectator_view(mem.game_id)
                pending = now.view.pending if now.view is not None else None
                if (
                    now.game.version != version
                    or pending is None
                    or pending.player != seat.seat
                    or not await self.memory.first_time(f"nudge:{mem.game_id}:{version}")
                ):
                    return
                await self.send_nudge(mem, user_id, version)
            except (NotFound, TelegramError) as e:
                log.info("no nudge for %s: %s", user_id, e, extra={"game_id": mem.game_id})
            except Exception:
                log.exception("a turn's nudge failed", extra={"game_id": mem.game_id})

        if earlier is not None and earlier[0] == game.version and not earlier[1].done():
            return  # this decision's nudge waits already
        task = self.background.spawn(nudge())
        self._nudges[mem.game_id] = (version, task)

        def done(task: asyncio.Task[None]) -> None:
            if self._nudges.get(mem.game_id, (0, None))[1] is task:
                del self._nudges[mem.game_id]

        task.add_done_callback(done)

    async def send_nudge(self, mem: GameMemory, user_id: int, version: int) -> None:
        """Tell ``user_id`` in private that the decision of ``version`` waits for them, in
        the language they read their hand in (their /language choice, else their app's as
        their hand or their inline choices told it, else the group's), and keep it as the
        game's one reminder."""
        now = await self.memory.game(mem.game_id) or mem
        hand = await self.memory.hand_message(mem.game_id, user_id)
        app_language = (hand.language if hand is not None else "") or now.app_languages.get(
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
