"""Publishing a game in its chat from the engine's event log: the table, the private
hands and the notices, each edited or sent when the game changes.

Every write to a game (a player's move, a stand-in's, a timer's, a lobby change) is one
entry of the event log (services/engine/README.md "Events"); the log reader hands each
entry to ``Publisher.on_entry``. Whoever takes the game's render lock shows the game's
*current* state (the spectator view, and each private hand from its owner's view) and
keeps doing so until no newer version has been seen, so a burst of moves becomes one edit
and a game never shows an older state after a newer one, whichever replica renders it.
What happened in words (the last moves, a round's scores) comes from the entries' events.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from functools import partial
from typing import Any

from telegram import InlineKeyboardMarkup
from telegram.error import TelegramError

from services.bot import keyboards
from services.bot.logreader import LogEntry
from services.bot.memory import Claim, GameMemory, Memory, Nudge
from services.bot.outbox import Outbox, Outcome
from services.bot.ratelimit import TAKEN
from services.engine.client import (
    EngineClient,
    Forbidden,
    GameInfo,
    NotFound,
    PlayerView,
    variant_facts,
)
from services.language_preferences import LanguagePreferences
from services.presentation.locales.bidi import with_direction
from services.presentation.screens.event_lines import (
    MOVE_EVENTS,
    MOVE_EVENTS_KEPT,
    MOVES_KEPT_MOST,
    NOTICE_EVENTS,
    QUIET_EVENTS,
    RECENT_MOVES,
    event_lines,
)
from services.presentation.screens.hand import game_over_hand, owes, private_hand
from services.presentation.screens.keyboard import Screen
from services.presentation.screens.lobby import lobby
from services.presentation.screens.mini_app import MiniApp, with_mini_app
from services.presentation.screens.notices import blocked, game_ended, notice, turn_nudge
from services.presentation.screens.replay import replay_keyboard
from services.presentation.screens.table import table

log = logging.getLogger(__name__)

#: A render lock left by a replica that died mid-render is free again after this.
LOCK_MS = 10_000
#: After this many messages from people below it, the table's next write posts it anew at
#: the bottom rather than editing it up the chat (the same one write): with two, the table
#: stays among the chat's last three messages (README "Rendering").
REPOST_AFTER = 2
#: Seconds into a human's turn after which they are told once in private (README).
NUDGE_AFTER = 15.0
#: How often a wait for the group's budget looks for a newer move another replica saw.
POLL_S = 0.25
#: The longest a render of a state newer than the log entries noted waits for them (their
#: moves, and a round's scores posted before the next round's table): the engine writes
#: the state and its entry at once, so they are a read of the log away.
NOTE_WAIT_S = 5.0
NOTE_POLL_S = 0.05
#: Game statuses after which nothing may look live.
FINISHED = ("over", "ended")


class Publisher:
    def __init__(
        self,
        engine: EngineClient,
        memory: Memory,
        outbox: Outbox,
        mini_app: MiniApp | None = None,
        *,
        repost_after: int = REPOST_AFTER,
        nudge_after: float = NUDGE_AFTER,
    ) -> None:
        self.engine = engine
        self.mini_app = mini_app
        self.memory = memory
        self.outbox = outbox
        self.repost_after = repost_after
        self.nudge_after = nudge_after
        self._later: set[asyncio.Task[None]] = set()
        #: per game, set when a newer version of it is seen (a table write waiting for its
        #: slot goes at the first free one then)
        self._moved: dict[str, asyncio.Event] = {}
        self._tidying: set[str] = set()
        #: per game, the version whose decision a nudge waits on, and its task
        self._nudges: dict[str, tuple[int, asyncio.Task[None]]] = {}

    async def on_entry(self, entry: LogEntry) -> bool:
        """Render one entry; False when it must stay pending (another render holds the game
        and has not shown this version yet: if that render dies, the entry is claimed and
        rendered again, so a version is acknowledged only once it is on screen).

        A move's way to the table is a handful of Redis calls and one engine read, each a
        turn of the event loop, which a hundred busy groups keep full: so the entry is
        noted in one call and the render lock taken in another, which hands the render the
        game's memory and last moves with it."""
        public = entry.events
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
            if await self.adopt(entry.game_id) is None:
                return True  # gone already
            mem = await noted()
            if mem is None:
                return True
        await self.announce(mem, entry, public)
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

        task = asyncio.create_task(later())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    def nudge_later(self, mem: GameMemory, spectator: PlayerView) -> None:
        """A human who owes a decision and has not acted ``nudge_after`` seconds into it
        (half the turn time, if that is sooner) is told once in their private chat, in
        their language: an edit notifies nobody, and a private message costs none of the
        group's budget. The game has one such reminder at a time, kept in its memory
        (``Memory.keep_nudge``), and the render of any newer version removes it."""
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
        task = asyncio.create_task(nudge())
        self._later.add(task)
        self._nudges[mem.game_id] = (version, task)

        def done(task: asyncio.Task[None]) -> None:
            self._later.discard(task)
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

    async def adopt(self, game_id: str) -> GameMemory | None:
        """A game this bot has no memory of (its memory was lost, or the game was made
        through the engine directly): its table is posted in its chat from now on."""
        try:
            game = await self.engine.game(game_id)
        except NotFound:
            return None
        if game.status != "playing":
            # A lobby is always made through /new, which remembers it with its message;
            # one seen here first is that /new still under way.
            return None
        try:
            title = (await self.outbox.bot.get_chat(game.chat_id)).title or ""
        except TelegramError:
            return None  # not a chat this bot is in: another bot's game
        chat_language = await LanguagePreferences(self.memory.redis).chat(game.chat_id) or "en"
        await self.memory.remember_game(game_id, game.chat_id, game.topic_id, title, chat_language)
        return await self.memory.game(game_id)

    async def announce(
        self, mem: GameMemory, entry: LogEntry, public: list[dict[str, Any]]
    ) -> None:
        """Messages of their own, once each: a round's scores, the game's end, a Dumb Fu
        penalty's reason."""
        notable = [e for e in public if e.get("type") in NOTICE_EVENTS]
        if not notable:
            return
        game = await self.engine.game(entry.game_id)
        locale = mem.locale
        for n, event in enumerate(notable):
            if not await self.memory.first_time(f"{entry.game_id}:{entry.version}:{n}"):
                continue
            scores: list[int] | None = None
            if event["type"] == "game_ended" and game.status != "lobby":
                view = (await self.engine.spectator_view(entry.game_id)).view
                scores = [s.score for s in view.seats] if view is not None else None
            text = with_direction(locale, notice(locale, game, event, scores=scores))
            if event["type"] in ("round_ended", "game_over", "game_ended"):
                # Posted at the bottom, where the players look; the old table is superseded
                # (the next round's is posted below the scores; an ended game's is deleted).
                table = (await self.memory.game(mem.game_id) or mem).table_message
                await self.memory.update_game(mem.game_id, table="", tfp="", scrolled=0)
                if table is not None:
                    await self.memory.supersede_table(mem.game_id, table)
            await self.outbox.send(
                mem.chat_id, text, self.replay_markup(locale, game, event), topic_id=mem.topic_id
            )

    def replay_markup(
        self, locale: str, game: GameInfo, event: dict[str, Any]
    ) -> InlineKeyboardMarkup | None:
        """The game's final message offers its replay: a game dealt and then won or ended
        (one ended in its lobby has nothing to replay)."""
        if event["type"] not in ("game_over", "game_ended") or game.status == "lobby":
            return None
        return keyboards.markup(replay_keyboard(locale, self.mini_app, game.game_id, in_group=True))

    async def tell_blocked(self, mem: GameMemory, game: GameInfo, user_id: int) -> None:
        """The player blocked the bot: their hand stays reachable through inline mode, and
        the group is told so once."""
        if not await self.memory.first_time(f"blocked:{mem.game_id}:{user_id}"):
            return
        seat = next((s for s in game.seats if s.user_id == user_id), None)
        if seat is not None:
            await self.outbox.send(mem.chat_id, blocked(mem.locale, seat), topic_id=mem.topic_id)

    async def rerender_known_games(self) -> None:
        """After missing part of the log: show every game this bot knows as it is now."""
        async for key in self.memory.redis.scan_iter(match=Memory.game_key("*"), count=500):
            game_id = (key.decode() if isinstance(key, bytes) else key).rsplit(":", 1)[1]
            try:
                current = await self.engine.game(game_id)
                # The entries missed are gone: a render waits for none of them.
                await self.memory.mark_noted(game_id, current.version)
                await self.render(game_id, current.version)
            except NotFound:
                continue
            except Exception:
                log.exception("re-rendering failed", extra={"game_id": game_id})

    # -- render by version ------------------------------------------------------------------

    async def render(self, game_id: str, version: int) -> bool:
        """Show the game as it is now, unless a render holding the game will; whether
        ``version`` is (or is sure to be) shown by a render that finished."""
        owner = secrets.token_hex(8)
        claim = await self.memory.claim_render(game_id, version, owner, LOCK_MS)
        if claim.shown:
            return True
        if not claim.held:
            # Another render holds the game and will show this version too, unless it dies.
            self.moved(game_id)
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
        try:
            spectator = await self.engine.spectator_view(game_id)
        except NotFound:
            await self.memory.forget_game(game_id, mem.chat_id, mem.topic_id)
            return 2**53
        game = spectator.game
        recent: list[dict[str, Any]] | None = None
        if spectator.view is not None and game.status not in FINISHED and mem.noted < game.version:
            # A state newer than the log's entries noted: the table waits for their moves
            # (and a round's scores), else it would tell an older state's moves beside this
            # state's pile, and count them shown.
            mem = await self.moves_noted(mem, game.version)
        elif claim is not None:
            # The last moves came with the lock: those of this state's versions.
            recent = claim.moves_up_to(game.version)
        # The table first, then the private hands as it shows the game: a hand never shows
        # a state the table has not (they follow it when it waits for the group's budget).
        table_version = await self.show_table(mem, spectator, recent)
        if table_version is not None:
            await self.show_hands(mem, spectator, up_to=table_version)
        finished = game.status in FINISHED
        if mem.nudge is not None and (finished or game.version > mem.nudge.version):
            await self.remove_nudge(mem.game_id, 2**53 if finished else game.version)
        self.nudge_later(mem, spectator)
        if finished:
            await self.memory.forget_game(game_id, mem.chat_id, mem.topic_id)
        return game.version

    async def moves_noted(self, mem: GameMemory, version: int) -> GameMemory:
        """The game's memory once the log's entries up to ``version`` are noted (their
        moves, their notices posted), waiting at most ``NOTE_WAIT_S``: then as it is."""
        loop = asyncio.get_running_loop()
        until = loop.time() + NOTE_WAIT_S
        while await self.memory.noted_version(mem.game_id) < version and loop.time() < until:
            moved = self._moved.setdefault(mem.game_id, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(moved.wait(), timeout=NOTE_POLL_S)
        return await self.memory.game(mem.game_id) or mem

    async def table_of(
        self, mem: GameMemory, spectator: PlayerView, recent: list[dict[str, Any]]
    ) -> tuple[Screen, str]:
        """The table's message as ``spectator`` sees the game, and who in it is frozen."""
        game, view = spectator.game, spectator.view
        if view is None:
            shown = lobby(mem.locale, game)
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
            await self.tidy(mem, at_once=True)
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
            await self.tidy(mem, shown=version)
            return version
        # The group's slot and the token's in one call when the group has room now.
        reserved: bool | str = TAKEN
        if not await self.outbox.go_now(mem.chat_id):
            reserved = True
            await self.wait_for_slot(mem, version)
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
            await self.wait_for_slot(mem, version)  # the edit spent the slot
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
                self.tidy_later(mem, shown=version)
        return version

    async def fresh_table(self, mem: GameMemory) -> tuple[GameMemory, Screen, str, int] | None:
        """The table as the game is now (after a wait for the budget) and its version, or
        None when there is none to show: the game is gone or over (the next render retires
        its table)."""
        try:
            spectator = await self.engine.spectator_view(mem.game_id)
        except NotFound:
            return None
        if spectator.game.status in FINISHED:
            return None
        version = spectator.game.version
        mem = await self.moves_noted(mem, version)
        recent = await self.memory.moves(mem.game_id, up_to=version)
        shown, frozen = await self.table_of(mem, spectator, recent)
        return mem, shown, frozen, version

    async def wait_for_slot(self, mem: GameMemory, version: int) -> None:
        """Take the group's slot for a table write that cannot go now (README "Rendering"):
        the first free one once a move newer than ``version`` is in, else the first with
        one more free after it. Sent at the first free slot, a lone move's write would
        leave the next move, seconds away, a whole interval to wait; held, both go out in
        one write when that move comes. Held at most one interval past the first free
        slot: then it queues for the next slot, so other writes cannot starve it."""
        loop = asyncio.get_running_loop()
        hold_until = loop.time() + await self.outbox.room(mem.chat_id, spare=1)
        while loop.time() < hold_until:
            moved = self._moved.setdefault(mem.game_id, asyncio.Event())
            newer = await self.memory.seen_version(mem.game_id) > version
            spare = 0 if newer else 1
            if await self.outbox.take_now(mem.chat_id, spare=spare):
                return
            wait = await self.outbox.room(mem.chat_id, spare=spare)
            timeout = min(max(wait, 0.01), POLL_S, max(hold_until - loop.time(), 0.01))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(moved.wait(), timeout=timeout)
        await asyncio.sleep(max(await self.outbox.reserve(mem.chat_id), 0.0))

    def moved(self, game_id: str) -> None:
        """A newer version of ``game_id`` was seen: wake what waits for one here."""
        event = self._moved.pop(game_id, None)
        if event is not None:
            event.set()

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

        async def later() -> None:
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
                        # Queue for the group's next slot rather than race the table's
                        # writes for a free one: a brisk game's table write, woken by each
                        # move, would win every race and keep the old table live for good.
                        await asyncio.sleep(max(await self.outbox.reserve(mem.chat_id), 0.0))
                        old = await self.memory.superseded(mem.game_id) or old
                        await self.outbox.delete_many(mem.chat_id, old, reserved=True)
                        await self.memory.deleted(mem.game_id, old)
                        since = max(shown, await self.memory.shown_version(mem.game_id))
                        continue  # any superseded meanwhile go with the next slot
                    moved = self._moved.setdefault(mem.game_id, asyncio.Event())
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(moved.wait(), timeout=wait)
            except Exception:
                log.exception("deleting superseded tables failed", extra={"game_id": mem.game_id})
            finally:
                self._tidying.discard(mem.game_id)

        task = asyncio.create_task(later())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def show_hands(
        self, mem: GameMemory, spectator: PlayerView, *, up_to: int | None = None
    ) -> bool:
        """Show each private hand of the game as it is now, unless it is newer than ``up_to``
        (the version the table shows: the next render shows it, after the table); whether
        the game has any."""
        if spectator.view is None and spectator.game.status not in FINISHED:
            return True
        hands = await self.memory.hand_messages(mem.game_id)
        if not hands:
            return False
        # Each hand speaks its owner's language, not the group's.
        choices = await LanguagePreferences(self.memory.redis).choices(list(hands))
        await asyncio.gather(
            *(
                self.show_hand(
                    mem,
                    user,
                    hand.message_id,
                    hand.fingerprint,
                    locale=choices[user] or hand.language or mem.locale,
                    app_language=hand.language,
                    up_to=up_to,
                )
                for user, hand in hands.items()
            )
        )
        return True

    async def show_hand(
        self,
        mem: GameMemory,
        user_id: int,
        message_id: int | None,
        fingerprint: str = "",
        *,
        locale: str | None = None,
        app_language: str = "",
        worth: float | None = None,
        up_to: int | None = None,
    ) -> bool:
        """Edit (or post) ``user_id``'s hand message in their private chat, in ``locale``
        (None: their /language choice, else their app's ``app_language``, else the one
        their hand was opened in, else the chat's); whether the player has one there now.
        ``fingerprint``: what the message shows now (unchanged: no edit); ``worth``: a
        refresh sent only if the private chat's budget has room that soon, and not at all
        while another edit of the hand is under way (that one shows it)."""
        async with self.memory.editing_hand(mem.game_id, user_id, wait=worth is None) as mine:
            if not mine:
                return True
            # What the message shows as stored now: the caller's may predate an edit that
            # finished while this one waited for the lock.
            known = await self.memory.hand_message(mem.game_id, user_id)
            if known is not None and message_id in (None, known.message_id):
                message_id, fingerprint = known.message_id, known.fingerprint
            return await self._show_hand(
                mem,
                user_id,
                message_id,
                fingerprint,
                locale=locale,
                app_language=app_language or (known.language if known is not None else ""),
                worth=worth,
                up_to=up_to,
            )

    async def _show_hand(
        self,
        mem: GameMemory,
        user_id: int,
        message_id: int | None,
        fingerprint: str,
        *,
        locale: str | None,
        app_language: str,
        worth: float | None,
        up_to: int | None = None,
    ) -> bool:
        try:
            player = await self.engine.view(mem.game_id, user_id)
        except (Forbidden, NotFound):
            await self.memory.drop_hand_message(mem.game_id, user_id)
            return False
        if up_to is not None and player.game.version > up_to:
            return message_id is not None  # ahead of the table: shown after it
        finished = player.game.status in FINISHED
        if finished and message_id is None:
            return False  # nothing to post about a game that is over
        if player.view is None and not finished:
            return message_id is not None
        if locale is None:
            # The hand speaks its owner's language, not the group's.
            locale = await LanguagePreferences(self.memory.redis).person(
                user_id, fallback=app_language or mem.locale
            )
        if finished or player.view is None:
            # Nothing of an ended game looks live: no "your turn", no buttons.
            shown = game_over_hand(locale, player.game, mem.chat_title)
        else:
            shown = private_hand(locale, player.game, player.view, mem.chat_title)
        shown = Screen(with_direction(locale, shown.text), shown.keyboard)
        if player.game.status != "playing":
            shown = Screen(shown.text, None)
        shown = with_mini_app(shown, locale, self.mini_app, mem.game_id, in_group=False)
        # The buttons' versions count only for the player who owes the decision: the game
        # may move on without touching their cards or choices (someone leaves, goes away,
        # a window closes), and a press on a version behind would be refused as out of date.
        new_fingerprint = keyboards.fingerprint(
            shown, versions=player.view is not None and owes(player.view)
        )
        if message_id is not None:
            if new_fingerprint == fingerprint:
                return True
            outcome = await self.outbox.edit(
                user_id, message_id, shown.text, keyboards.markup(shown.keyboard), worth=worth
            )
            if outcome is Outcome.SKIPPED:
                return True  # shown by the next change, or the next press
            if outcome in (Outcome.SHOWN, Outcome.UNCHANGED):
                await self.memory.set_hand_message(
                    mem.game_id, user_id, message_id, new_fingerprint, app_language
                )
                return True
            if outcome is Outcome.UNREACHABLE:
                await self.memory.drop_hand_message(mem.game_id, user_id)
                await self.tell_blocked(mem, player.game, user_id)
                return False
        message = await self.outbox.send(user_id, shown.text, keyboards.markup(shown.keyboard))
        if message is None:
            await self.memory.drop_hand_message(mem.game_id, user_id)
            return False
        await self.memory.set_hand_message(
            mem.game_id, user_id, message.message_id, new_fingerprint, app_language
        )
        return True
