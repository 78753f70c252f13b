"""The group's table: one message showing the game as the spectator view does, with the
last moves in words, edited in place while it is near the bottom of the chat and posted
anew below once people's messages pushed it up (the one write either way).

A table write that cannot go now waits for the group's budget (``wait_for_slot``) and is
rendered after the wait (``fresh_table``), so what changed meanwhile goes out in the same
message. The table a write supersedes is left to tidying.py; a finished game's tables are
all deleted at once, its scores or end being posted below by notices.py.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from services.bot import keyboards
from services.bot.background import FINISHED, Background
from services.bot.engine_calls import call_engine
from services.bot.memory import GameMemory, Memory
from services.bot.outbox import Outbox, Outcome
from services.bot.ratelimit import TAKEN
from services.bot.tidying import POLL_S, Tidying
from services.engine.client import EngineClient, NotFound, PlayerView, variant_facts
from services.presentation.locales.bidi import with_direction
from services.presentation.screens.event_lines import event_lines
from services.presentation.screens.keyboard import Screen
from services.presentation.screens.lobby import lobby
from services.presentation.screens.mini_app import MiniApp, with_lobby_in_app, with_mini_app
from services.presentation.screens.notices import game_ended
from services.presentation.screens.table import table

#: After this many messages from people below it, the table's next write posts it anew at
#: the bottom rather than editing it up the chat (the same one write): with two, the table
#: stays among the chat's last three messages (README "Rendering").
REPOST_AFTER = 2
#: The longest a render of a state newer than the log entries noted waits for them (their
#: moves, and a round's scores posted before the next round's table): the engine writes
#: the state and its entry at once, so they are a read of the log away.
NOTE_WAIT_S = 5.0
NOTE_POLL_S = 0.05


class Table:
    def __init__(
        self,
        engine: EngineClient,
        memory: Memory,
        outbox: Outbox,
        background: Background,
        tidying: Tidying,
        mini_app: MiniApp | None = None,
        *,
        repost_after: int = REPOST_AFTER,
    ) -> None:
        self.engine = engine
        self.memory = memory
        self.outbox = outbox
        self.background = background
        self.tidying = tidying
        self.mini_app = mini_app
        self.repost_after = repost_after

    async def show_table(
        self,
        mem: GameMemory,
        spectator: PlayerView,
        recent: list[dict[str, Any]] | None = None,
    ) -> int | None:
        """Show the table; the version it shows now (None: nothing newer than before, the
        game is gone or over meanwhile). ``recent``: the last moves, when the caller has
        them as of ``spectator``."""
        version = spectator.game.version
        if spectator.game.status in FINISHED:
            # Nothing may look live: the scores (or the word that the game was ended) are
            # posted below, and every table this game left is deleted, in one write.
            if mem.table_message is not None:
                await self.memory.supersede_table(mem.game_id, mem.table_message)
                await self.memory.update_game(mem.game_id, table="", tfp="")
            await self.tidying.tidy(mem, at_once=True)
            return version
        if recent is None:
            recent = await self.memory.moves(mem.game_id, up_to=version)
        shown, frozen = await self.table_of(mem, spectator, recent)
        digest = keyboards.fingerprint(shown)
        if (
            digest == mem.table_fingerprint
            and mem.table_message is not None
            and mem.scrolled < self.repost_after
        ):
            await self.memory.update_game(mem.game_id, frozen=frozen, tver=version)
            await self.tidying.tidy(mem, shown=version)
            return version
        # The group's slot and the token's in one call when the group has room now.
        reserved: bool | str = TAKEN
        # A lobby's change (a join, an AI added) takes the first free slot: its next change
        # is no move seconds away to share a write with, and a person who joined looks for
        # their name.
        hold = spectator.game.status != "lobby"
        if not await self.outbox.go_now(mem.chat_id):
            reserved = True
            await self.wait_for_slot(mem, version, hold=hold)
            # Render after the wait, not before: what changed meanwhile goes out in this one
            # message instead of queueing another behind it (this render holds the game's
            # lock, so the moves made meanwhile are left for it to show).
            fresh = await self.fresh_table(mem)
            if fresh is None:
                return None
            mem, shown, frozen, version = fresh
            digest = keyboards.fingerprint(shown)
        above = mem.table_message  # the table this write supersedes, if it posts anew
        if mem.table_message is not None and mem.scrolled < self.repost_after:
            outcome = await self.outbox.edit(
                mem.chat_id,
                mem.table_message,
                shown.text,
                keyboards.markup(shown.keyboard),
                reserved=reserved,
            )
            if outcome in (Outcome.SHOWN, Outcome.UNCHANGED):
                await self.memory.update_game(mem.game_id, tfp=digest, frozen=frozen, tver=version)
                return version
            if outcome is Outcome.UNREACHABLE:
                return version
            above = None  # gone: nothing left to delete
            reserved = True
            await self.wait_for_slot(mem, version, hold=hold)  # the edit spent the slot
            fresh = await self.fresh_table(mem)
            if fresh is None:
                return None
            mem, shown, frozen, version = fresh
            digest = keyboards.fingerprint(shown)
        # People's messages pushed the table up (or there is none): this write posts it
        # at the bottom, where the players look, for the same one slot an edit costs.
        message = await self.outbox.send(
            mem.chat_id,
            shown.text,
            keyboards.markup(shown.keyboard),
            topic_id=mem.topic_id,
            reserved=reserved,
        )
        if message is not None:
            posted = self.memory.table_posted
            if await posted(
                mem.game_id, message.message_id, above, tfp=digest, frozen=frozen, tver=version
            ):
                self.tidying.tidy_later(mem, shown=version)
        return version

    async def table_of(
        self, mem: GameMemory, spectator: PlayerView, recent: list[dict[str, Any]]
    ) -> tuple[Screen, str]:
        """The table's message as ``spectator`` sees the game, and who in it is frozen."""
        game, view = spectator.game, spectator.view
        if view is None:
            shown = with_lobby_in_app(
                lobby(mem.locale, game), mem.locale, self.mini_app, game.game_id
            )
            if game.status == "ended":
                shown = Screen(game_ended(mem.locale, {}), None)
        else:
            facts = variant_facts(game.variant)
            lines = event_lines(mem.locale, game, recent)
            shown = table(mem.locale, game, view, lines, two_sided=facts.two_sided)
            shown = with_mini_app(shown, mem.locale, self.mini_app, game.game_id, in_group=True)
        frozen = ",".join(
            f"{game.seats[s.seat].user_id}:{s.seat}"
            for s in (view.seats if view is not None else [])
            if s.frozen and game.seats[s.seat].user_id is not None
        )
        return Screen(with_direction(mem.locale, shown.text), shown.keyboard), frozen

    async def fresh_table(self, mem: GameMemory) -> tuple[GameMemory, Screen, str, int] | None:
        """The table as the game is now (after a wait for the budget) and its version, or
        None when there is none to show: the game is gone or over (the next render retires
        its table)."""
        try:
            spectator = await call_engine(partial(self.engine.spectator_view, mem.game_id))
        except NotFound:
            return None
        if spectator.game.status in FINISHED:
            return None
        version = spectator.game.version
        mem = await self.moves_noted(mem, version)
        recent = await self.memory.moves(mem.game_id, up_to=version)
        shown, frozen = await self.table_of(mem, spectator, recent)
        return mem, shown, frozen, version

    async def moves_noted(self, mem: GameMemory, version: int) -> GameMemory:
        """The game's memory once the log's entries up to ``version`` are noted (their
        moves, their notices posted), waiting at most ``NOTE_WAIT_S``: then as it is. A
        table tells the moves of the state it shows, never an older state's."""
        loop = asyncio.get_running_loop()
        until = loop.time() + NOTE_WAIT_S
        while await self.memory.noted_version(mem.game_id) < version and loop.time() < until:
            await self.background.wait(self.background.watch(mem.game_id), NOTE_POLL_S)
        return await self.memory.game(mem.game_id) or mem

    async def wait_for_slot(self, mem: GameMemory, version: int, *, hold: bool = True) -> None:
        """Take the group's slot for a table write that cannot go now (README "Rendering"):
        the first free one once a move newer than ``version`` is in, else the first with
        one more free after it. Sent at the first free slot, a lone move's write would
        leave the next move, seconds away, a whole interval to wait; held, both go out in
        one write when that move comes. Held at most one interval past the first free
        slot: then it queues for the next slot, so other writes cannot starve it.
        ``hold=False``: the first free slot, whatever comes next."""
        loop = asyncio.get_running_loop()
        hold_until = loop.time() + (await self.outbox.room(mem.chat_id, spare=1) if hold else 0)
        while loop.time() < hold_until:
            moved = self.background.watch(mem.game_id)
            newer = await self.memory.seen_version(mem.game_id) > version
            spare = 0 if newer else 1
            if await self.outbox.take_now(mem.chat_id, spare=spare):
                return
            wait = await self.outbox.room(mem.chat_id, spare=spare)
            timeout = min(max(wait, 0.01), POLL_S, max(hold_until - loop.time(), 0.01))
            await self.background.wait(moved, timeout)
        await asyncio.sleep(max(await self.outbox.reserve(mem.chat_id), 0.0))
