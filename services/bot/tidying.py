"""The deletion of a game's superseded tables: a table posted anew below leaves the one
above saying whose turn it was, with its buttons and clock, and two tables must never both
look live. Which messages are superseded is kept in the bot's memory
(``memory/superseded.py``); here they are deleted, all in one deleteMessages, at the
group's next free slot once the turn's table write has gone (``tidy_later``), or at once
when the game is over (``tidy(at_once=True)``).
"""

from __future__ import annotations

import asyncio
import logging

from services.bot.background import Background
from services.bot.memory import GameMemory, Memory
from services.bot.outbox import Outbox

log = logging.getLogger(__name__)

#: How often a wait for the group's budget looks for a newer move another replica saw.
POLL_S = 0.25


class Tidying:
    def __init__(self, memory: Memory, outbox: Outbox, background: Background) -> None:
        self.memory = memory
        self.outbox = outbox
        self.background = background
        #: the games whose tidying task runs in this process (one a game)
        self._tidying: set[str] = set()

    async def tidy(self, mem: GameMemory, *, at_once: bool = False, shown: int = -1) -> None:
        """Delete the game's superseded tables, all in one deleteMessages (``at_once``: the
        game is over, so waiting for the slot is worth it); else leave it to a task that
        takes the group's next free slot (``tidy_later``; ``shown``: the version the table
        shows now). Until then their buttons answer that the table moved."""
        old = await self.memory.superseded(mem.game_id)
        if not old:
            return
        if not at_once:
            self.tidy_later(mem, shown=shown)
            return
        await self.outbox.delete_many(mem.chat_id, old)
        await self.memory.deleted(mem.game_id, old)

    def tidy_later(self, mem: GameMemory, *, shown: int = -1) -> None:
        """Delete the superseded tables in one write, the group's next one once the turn's
        table write has gone (it goes first, once) and before any other: a table
        posted anew below leaves the one above saying whose turn it was, with its buttons
        and clock, and two tables must never both look live (one task per game here).

        [decision] It costs the group a write per table posted anew (half a write a turn
        with inline-mode hands, where every other table write is a repost); deleted ten at
        a time, or in the game's pauses, they cost a twentieth, but the old table looked
        live for seconds beside the new one. ``shown``: the version the table shows now
        (its render may not have finished yet)."""
        if mem.game_id in self._tidying:
            return
        self._tidying.add(mem.game_id)
        self.background.spawn(self._tidy_when_free(mem, shown))

    async def _tidy_when_free(self, mem: GameMemory, shown: int) -> None:
        try:
            # The table's version when these were superseded: one table write past it
            # may go first, and then the deletion takes the next slot, however fast the
            # moves come (else a brisk game would keep the old table live for good).
            since = max(shown, await self.memory.shown_version(mem.game_id))
            while True:
                old = await self.memory.superseded(mem.game_id)
                if not old or await self.memory.game(mem.game_id) is None:
                    return
                seen = await self.memory.seen_version(mem.game_id)
                now_shown = max(shown, await self.memory.shown_version(mem.game_id))
                if seen > now_shown and now_shown <= since:
                    wait = POLL_S  # the turn's table write is pending: it goes first
                else:
                    # Queue for the group's next slot rather than race the table's writes
                    # for a free one: a brisk game's table write, woken by each move, would
                    # win every race and keep the old table live for good.
                    await asyncio.sleep(max(await self.outbox.reserve(mem.chat_id), 0.0))
                    old = await self.memory.superseded(mem.game_id)
                    if not old:
                        return  # deleted meanwhile: the game's end deletes them at once
                    await self.outbox.delete_many(mem.chat_id, old, reserved=True)
                    await self.memory.deleted(mem.game_id, old)
                    since = max(shown, await self.memory.shown_version(mem.game_id))
                    continue  # any superseded meanwhile go with the next slot
                await self.background.wait(self.background.watch(mem.game_id), wait)
        except Exception:
            log.exception("deleting superseded tables failed", extra={"game_id": mem.game_id})
        finally:
            self._tidying.discard(mem.game_id)
