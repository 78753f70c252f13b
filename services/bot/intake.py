"""An entry's intake: from one entry of the engine's event log to a render of its game,
in order, by one replica at a time.

Every write to a game (a player's move, a stand-in's, a timer's, a lobby change) is one
entry of the event log (services/engine/README.md "Events"); the log reader hands each
entry to ``Intake.on_entry``, which notes its moves, has its notices posted, and renders
(an entry of the worker's stream of turns' reminders goes to nudges.py instead).
Whoever takes the game's render lock shows the game's *current* state (the table, then the
private hands) and keeps doing so until no newer version has been seen, so a burst of moves
becomes one edit and a game never shows an older state after a newer one, whichever replica
renders it. A game this bot has no memory of is adopted; after a gap in the log every game
it knows is shown again as it is now.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from functools import partial
from typing import Any

from telegram.error import TelegramError

from services.bot.background import FINISHED, Background
from services.bot.engine_calls import call_engine
from services.bot.final_message import REMATCH_EVENTS
from services.bot.hands import Hands
from services.bot.logreader import LogEntry
from services.bot.memory import Claim, GameMemory, Memory
from services.bot.notices import Notices
from services.bot.nudges import Nudges
from services.bot.outbox import Outbox
from services.bot.table import Table
from services.engine.client import NUDGES_KEY, EngineClient, NotFound, PlayerView, ViewsOf
from services.language_preferences import LanguagePreferences
from services.presentation.screens.event_lines import (
    MOVE_EVENTS,
    MOVE_EVENTS_KEPT,
    MOVES_KEPT_MOST,
    NOTICE_EVENTS,
    QUIET_EVENTS,
    RECENT_MOVES,
)

log = logging.getLogger(__name__)

#: A render lock left by a replica that died mid-render is free again after this.
LOCK_MS = 10_000


class Intake:
    def __init__(
        self,
        engine: EngineClient,
        memory: Memory,
        outbox: Outbox,
        background: Background,
        *,
        table: Table,
        hands: Hands,
        notices: Notices,
        nudges: Nudges,
    ) -> None:
        self.engine = engine
        self.memory = memory
        self.outbox = outbox
        self.background = background
        self.table = table
        self.hands = hands
        self.notices = notices
        self.nudges = nudges

    async def on_entry(self, entry: LogEntry) -> bool:
        """Render one entry; False when it must stay pending (another render holds the game
        and has not shown this version yet: if that render dies, the entry is claimed and
        rendered again, so a version is acknowledged only once it is on screen).

        A move's way to the table is a handful of Redis calls and one engine read, each a
        turn of the event loop, which a hundred busy groups keep full: so the entry is
        noted in one call and the render lock taken in another, which hands the render the
        game's memory and last moves with it."""
        if entry.stream == NUDGES_KEY:
            # A turn's reminder fell due (the worker's, read with the log): no render.
            await self.nudges.on_due(entry)
            return True
        public = entry.events
        if public and all(e.get("type") in REMATCH_EVENTS for e in public):
            # A finished game's rematch vote: its final message shows it; no table.
            await self.notices.finals.redraw(entry.game_id)
            return True
        starts = [i for i, e in enumerate(public) if e.get("type") == "round_started"]
        this_round = public[starts[-1] + 1 :] if starts else public
        moves = [e for e in this_round if e.get("type") in MOVE_EVENTS]
        notable = any(e.get("type") in NOTICE_EVENTS for e in public)
        # A new round's table opens with none of the last round's moves. An entry with
        # notices counts as noted once they are posted: a render of a newer state waits
        # for that, so the next round's table comes below the last one's scores.
        noted = partial(
            self.memory.note_entry,
            entry.game_id,
            entry.version,
            moves[-MOVE_EVENTS_KEPT:],
            RECENT_MOVES,
            most=MOVES_KEPT_MOST,
            new_round=bool(starts),
            noted=not notable,
        )
        mem = await noted()
        if mem is None:
            # A rematch's lobby (one player said yes) is the engine's, not a /new under way.
            rematch = any(e.get("type") == "game_created" and "rematch_of" in e for e in public)
            if await self.adopt(entry.game_id, lobby=rematch) is None:
                return True  # gone already
            mem = await noted()
            if mem is None:
                return True
        await self.notices.announce(mem, entry, public)
        if notable:
            await self.memory.mark_noted(entry.game_id, entry.version)
        if public and all(e.get("type") in QUIET_EVENTS for e in public):
            wait = await self.outbox.room(mem.chat_id, spare=1)
            if wait > 0:
                self.render_later(entry.game_id, entry.version, wait)
                return True
        return await self.render(entry.game_id, entry.version)

    def render_later(self, game_id: str, version: int, wait: float) -> None:
        """Show ``version`` once its group's budget has a spare slot, unless a later render
        has shown it by then. Kept in this process only: should it die first, the next
        write of the game shows the change."""

        async def later() -> None:
            delay = wait
            try:
                while delay > 0:
                    await asyncio.sleep(delay)
                    mem = await self.memory.game(game_id)
                    if mem is None or await self.memory.shown_version(game_id) >= version:
                        return
                    delay = await self.outbox.room(mem.chat_id, spare=1)
                await self.render(game_id, version)
            except Exception:
                log.exception("a deferred render failed", extra={"game_id": game_id})

        self.background.spawn(later())

    async def adopt(self, game_id: str, *, lobby: bool = False) -> GameMemory | None:
        """A game this bot has no memory of (its memory was lost, or the game was made
        through the engine directly, a rematch too): its table is posted in its chat from
        now on. ``lobby``: a lobby the engine made (a rematch's) is taken up too."""
        try:
            game = await call_engine(lambda: self.engine.game(game_id))
        except NotFound:
            return None
        if game.status != "playing" and not (lobby and game.status == "lobby"):
            # A lobby is otherwise made through /new, which remembers it with its message;
            # one seen here first is that /new still under way.
            return None
        try:
            title = (await self.outbox.bot.get_chat(game.chat_id)).title or ""
        except TelegramError:
            return None  # not a chat this bot is in: another bot's game
        chat_language = await LanguagePreferences(self.memory.redis).chat(game.chat_id) or "en"
        await self.memory.remember_game(game_id, game.chat_id, game.topic_id, title, chat_language)
        return await self.memory.game(game_id)

    async def rerender_known_games(self) -> None:
        """After missing part of the log: show every game this bot knows as it is now."""
        async for key in self.memory.redis.scan_iter(match=Memory.game_key("*"), count=500):
            game_id = (key.decode() if isinstance(key, bytes) else key).rsplit(":", 1)[1]
            try:
                current = await call_engine(partial(self.engine.game, game_id))
                # The entries missed are gone: a render waits for none of them.
                await self.memory.mark_noted(game_id, current.version)
                await self.render(game_id, current.version)
            except NotFound:
                continue
            except Exception:
                log.exception("re-rendering failed", extra={"game_id": game_id})

    async def render(self, game_id: str, version: int) -> bool:
        """Show the game as it is now, unless a render holding the game will; whether
        ``version`` is (or is sure to be) shown by a render that finished."""
        owner = secrets.token_hex(8)
        claim = await self.memory.claim_render(game_id, version, owner, LOCK_MS)
        if claim.shown:
            return True
        if not claim.held:
            # Another render holds the game and will show this version too, unless it dies.
            self.background.moved(game_id)
            return await self.memory.shown_version(game_id) >= version
        held: Claim | None = claim
        try:
            while True:
                shown = await self.render_now(game_id, version, held)
                held = None  # what the lock came with is out of date after one render
                if await self.memory.done_rendering(game_id, shown, owner, LOCK_MS):
                    return True
        except BaseException:
            await self.memory.drop_lock(game_id, owner)
            raise

    async def render_now(self, game_id: str, version: int = -1, claim: Claim | None = None) -> int:
        """Show the game's current state in its chat and in the private hands; the version
        shown. ``claim``: the game's memory and last moves as the lock for ``version`` was
        taken with them (else they are read)."""
        mem = claim.game if claim is not None else await self.memory.game(game_id)
        if mem is None:
            return 2**53
        # The table's view and every private hand's in one engine request.
        hands = await self.memory.hand_messages(game_id)
        batch: ViewsOf | None = None
        try:
            if hands:
                batch = await call_engine(
                    lambda: self.engine.views(game_id, list(hands), spectator=True)
                )
                spectator = PlayerView(game=batch.game, seat=None, view=batch.spectator)
            else:
                spectator = await call_engine(partial(self.engine.spectator_view, game_id))
        except NotFound:
            await self.memory.forget_game(game_id, mem.chat_id, mem.topic_id)
            return 2**53
        game = spectator.game
        recent: list[dict[str, Any]] | None = None
        if spectator.view is not None and game.status not in FINISHED and mem.noted < game.version:
            # A state newer than the log's entries noted: the table waits for their moves
            # (and a round's scores), else it would tell an older state's moves beside this
            # state's pile, and count them shown.
            mem = await self.table.moves_noted(mem, game.version)
        elif claim is not None:
            # The last moves came with the lock: those of this state's versions.
            recent = claim.moves_up_to(game.version)
        # The table first, then the private hands as it shows the game: a hand never shows
        # a state the table has not (they follow it when it waits for the group's budget).
        table_version = await self.table.show_table(mem, spectator, recent)
        if table_version is not None:
            await self.hands.show_hands(
                mem, spectator, up_to=table_version, hands=hands, batch=batch
            )
        finished = game.status in FINISHED
        if mem.nudge is not None and (finished or game.version > mem.nudge.version):
            # The turn was taken, or the game is over: its reminder goes.
            await self.nudges.remove_nudge(mem.game_id, 2**53 if finished else game.version)
        if finished:
            await self.memory.forget_game(game_id, mem.chat_id, mem.topic_id)
        return game.version
