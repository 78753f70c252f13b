"""The private hands: each player's hand message in their private chat, edited (or
posted) to show the game as their own view does, in their language.

On a render every hand's view comes with the table's in one engine request (``ViewsOf``),
not one request a hand. A hand never shows a state the group's table has not (``up_to``:
the version the table shows), and one edit of a hand runs at a time across replicas
(``Memory.editing_hand``), so the event log's refresh and a stale press's refresh do not
both send the same edit. A player who blocked the bot loses the message, and the group is
told once (notices.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from services.bot import keyboards
from services.bot.background import FINISHED
from services.bot.engine_calls import call_engine
from services.bot.memory import GameMemory, HandMessage, Memory
from services.bot.notices import Notices
from services.bot.outbox import Outbox, Outcome
from services.engine.client import EngineClient, Forbidden, NotFound, PlayerView, ViewsOf
from services.language_preferences import LanguagePreferences
from services.presentation.locales.bidi import with_direction
from services.presentation.screens.hand import game_over_hand, owes, private_hand
from services.presentation.screens.keyboard import Screen
from services.presentation.screens.mini_app import MiniApp, with_mini_app


def players(batch: ViewsOf | None) -> dict[int, PlayerView]:
    """Each seated person's own view out of ``batch``; one out of the game (shown the
    spectator's there) is left out, as the single view refuses them."""
    if batch is None:
        return {}
    return {
        v.user_id: PlayerView(game=batch.game, seat=v.seat, view=v.view)
        for v in batch.views
        if v.seat is not None and v.removed is None
    }


class Hands:
    def __init__(
        self,
        engine: EngineClient,
        memory: Memory,
        outbox: Outbox,
        notices: Notices,
        mini_app: MiniApp | None = None,
    ) -> None:
        self.engine = engine
        self.memory = memory
        self.outbox = outbox
        self.notices = notices
        self.mini_app = mini_app

    async def show_hands(
        self,
        mem: GameMemory,
        spectator: PlayerView,
        *,
        up_to: int | None = None,
        hands: dict[int, HandMessage] | None = None,
        batch: ViewsOf | None = None,
    ) -> bool:
        """Show each private hand of the game as it is now, unless it is newer than ``up_to``
        (the version the table shows: the next render shows it, after the table); whether
        the game has any. ``hands``: the game's hand messages, when the caller read them;
        ``batch``: every hand's view, read with the table's in one request."""
        if spectator.view is None and spectator.game.status not in FINISHED:
            return True
        if hands is None:
            hands = await self.memory.hand_messages(mem.game_id)
        if not hands:
            return False
        if batch is None or (up_to is not None and batch.game.version < up_to):
            # The table moved on past the views read with it (it waited for the group's
            # budget): every hand's view again, still in one request.
            try:
                batch = await call_engine(lambda: self.engine.views(mem.game_id, list(hands)))
            except NotFound:
                batch = None
        views = players(batch)
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
                    views=views,
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
        views: Mapping[int, PlayerView] | None = None,
    ) -> bool:
        """Edit (or post) ``user_id``'s hand message in their private chat, in ``locale``
        (None: their /language choice, else their app's ``app_language``, else the one
        their hand was opened in, else the chat's); whether the player has one there now.
        ``fingerprint``: what the message shows now (unchanged: no edit); ``worth``: a
        refresh sent only if the private chat's budget has room that soon, and not at all
        while another edit of the hand is under way (that one shows it); ``views``: the
        players' views as read for every hand at once (one not among them is out of the
        game), else the player's own is asked for."""
        async with self.memory.editing_hand(mem.game_id, user_id, wait=worth is None) as mine:
            if not mine:
                return True
            # What the message shows as stored now: the caller's may predate an edit that
            # finished while this one waited for the lock.
            known = await self.memory.hand_message(mem.game_id, user_id)
            if known is not None and message_id in (None, known.message_id):
                message_id, fingerprint = known.message_id, known.fingerprint
            player = views.get(user_id) if views is not None else await self._view(mem, user_id)
            return await self._show_hand(
                mem,
                user_id,
                player,
                message_id,
                fingerprint,
                locale=locale,
                app_language=app_language or (known.language if known is not None else ""),
                worth=worth,
                up_to=up_to,
            )

    async def _view(self, mem: GameMemory, user_id: int) -> PlayerView | None:
        """``user_id``'s own view of the game; None when they are out of it, or it is gone."""
        try:
            return await call_engine(lambda: self.engine.view(mem.game_id, user_id))
        except (Forbidden, NotFound):
            return None

    async def _show_hand(
        self,
        mem: GameMemory,
        user_id: int,
        player: PlayerView | None,
        message_id: int | None,
        fingerprint: str,
        *,
        locale: str | None,
        app_language: str,
        worth: float | None,
        up_to: int | None = None,
    ) -> bool:
        if player is None:
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
                await self.notices.tell_blocked(mem, player.game, user_id)
                return False
        message = await self.outbox.send(user_id, shown.text, keyboards.markup(shown.keyboard))
        if message is None:
            await self.memory.drop_hand_message(mem.game_id, user_id)
            return False
        await self.memory.set_hand_message(
            mem.game_id, user_id, message.message_id, new_fingerprint, app_language
        )
        return True
