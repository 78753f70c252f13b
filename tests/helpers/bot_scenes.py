"""Scripted tables for the bot's end-to-end tests: a group of people with the bot, a game
dealt exactly (RULES.md §1 notation) in it, its table found, its players' private hands
opened."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from harness.players import Players, callbacks, version_of
from harness.stack import Stack
from services.engine.client import GameInfo, SeatSpec
from services.presentation.callbacks import Callback, Kind

#: The bot's answer to a press of a button from an older version of the game.
OUT_OF_DATE = "This button is out of date."

DRAW_PILE = "G1 G2 G3 G4 G5 G6 G7 G8 G9 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 B1 B2 B3 B4 B5 B6"


@dataclass
class Group:
    """A supergroup with the bot, its people, and those people as players."""

    chat: dict[str, Any]
    people: list[dict[str, Any]]
    players: Players

    @property
    def id(self) -> int:
        return int(self.chat["id"])


@dataclass
class Scene:
    stack: Stack
    group: Group
    game: GameInfo
    thread_id: int | None = None
    #: per seat, the version of the last press: the next press waits for a newer hand
    pressed: dict[int, int] = field(default_factory=dict)

    @property
    def players(self) -> Players:
        return self.group.players

    def person(self, seat: int) -> dict[str, Any]:
        return self.group.people[seat]

    def table(self) -> dict[str, Any]:
        return self.players.wait_table(
            "the table",
            lambda m: any(cb.game_id == self.game.game_id for cb in callbacks(m)),
            thread_id=self.thread_id,
        )

    def open_hand(self, seat: int) -> dict[str, Any]:
        user = self.person(seat)["id"]
        table = self.table()
        hand_button = next(cb for cb in callbacks(table) if cb.kind is Kind.HAND)
        self.players.press(user, table, hand_button)
        return self.players.wait_hand(user, lambda m: True, "the hand")

    def hand_offers(self, seat: int, *codes: str) -> dict[str, Any]:
        """Wait until the seat's hand offers every one of ``codes`` as a button."""
        user = self.person(seat)["id"]
        after = self.pressed.get(seat, -1)
        return self.players.wait_hand(
            user,
            lambda m: (
                set(codes) <= {cb.arg for cb in callbacks(m) if cb.kind is Kind.ACT}
                and version_of(m) > after
            ),
            f"seat {seat}'s hand to offer {codes}",
        )

    def press(self, seat: int, code: str) -> dict[str, Any]:
        """Press ``code`` in the seat's private hand once it is offered; the answer."""
        hand = self.hand_offers(seat, code)
        cb = next(cb for cb in callbacks(hand) if cb.kind is Kind.ACT and cb.arg == code)
        self.pressed[seat] = cb.version
        return self.players.press_hand(self.person(seat)["id"], hand, cb)

    def choose_inline(self, seat: int, code: str) -> None:
        """The seat's player picks ``code`` from their inline-mode hand once it offers it:
        Telegram posts it in the group as the player's message."""
        control, user = self.stack.control, self.person(seat)["id"]

        def offered() -> tuple[str, str] | None:
            found = control.inline_query(user, self.game.game_id, chat_id=self.group.id)
            for result in found["results"]:
                if Callback.decode(result["id"]).arg == code:
                    return found["query_id"], result["id"]
            return None

        query_id, result_id = control.wait_until(offered, timeout=30, what=f"{code} offered inline")
        control.choose_inline_result(user, query_id, result_id, chat_id=self.group.id)

    def group_text(self) -> str:
        return "\n".join(m.get("text", "") for m in self.players.bot_messages(self.thread_id))

    def wait_group(self, words: str, timeout: float = 60) -> None:
        self.stack.control.wait_until(
            lambda: words in self.group_text(), timeout=timeout, what=f"{words!r} in the group"
        )

    def act_button(self, message: dict[str, Any], code: str) -> Callback:
        return next(cb for cb in callbacks(message) if cb.kind is Kind.ACT and cb.arg == code)


def engine_game(stack: Stack, game_id: str) -> GameInfo:
    """The game as the engine has it now."""

    async def get() -> GameInfo:
        async with stack.engine_client() as engine:
            return await engine.game(game_id)

    return asyncio.run(get())


def deal(
    stack: Stack,
    group: Group,
    setup: dict[str, Any],
    *,
    ai: list[int] = (),  # type: ignore[assignment]
    topic: int = 0,
    turn_seconds: int | None = None,
) -> Scene:
    """A game in play in ``group`` dealt by ``setup``; seats are the group's people in order
    (``ai`` lists seats an AI plays instead)."""
    seats = []
    for seat in range(len(setup["hands"])):
        if seat in ai:
            seats.append(SeatSpec(name=f"AI {seat}", ai="strong"))
        else:
            person = group.people[seat]
            seats.append(SeatSpec(name=person["first_name"], user_id=person["id"]))
    setup = {"draw_pile": DRAW_PILE, "current": 0, **setup}

    async def create() -> GameInfo:
        async with stack.engine_client() as engine:
            return await engine.create_test_game(
                group.id, seats, setup, topic_id=topic, turn_seconds=turn_seconds
            )

    game = asyncio.run(create())
    scene = Scene(stack, group, game, topic or None)
    scene.table()
    return scene


def open_lobby(
    stack: Stack, group: Group, variant: str = "classic", thread_id: int | None = None
) -> None:
    """The group's first person sends /new (in the topic ``thread_id``, if any) and picks
    ``variant`` from the keyboard the bot asks with; the lobby's text is the caller's to
    wait for."""
    control, host, players = stack.control, group.people[0], group.players
    control.send_message(host["id"], group.id, "/new", thread_id=thread_id)

    def variant_question() -> dict[str, Any] | None:
        for m in reversed(players.bot_messages(thread_id)):
            if m.get("message_thread_id") == thread_id and any(
                cb.kind is Kind.VARIANT for cb in callbacks(m)
            ):
                return m
        return None

    question = control.wait_until(variant_question, timeout=60, what="the variant keyboard")
    choice = next(cb for cb in callbacks(question) if cb.arg == variant)
    players.press(host["id"], question, choice)
