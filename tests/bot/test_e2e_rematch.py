"""A rematch in the chat (RULES.md §7 "Rematch"), end to end: a round is played out in a
group of the local Telegram, the bot's final message of the game offers Rematch and Leave,
each press is the engine's to take (a second one is refused in its words), the message
shows who has voted, and once both players said yes the bot posts the new game's table
below it, as it does any game it takes up. Each step waits for what the chat shows."""

from __future__ import annotations

import asyncio
from typing import Any

from harness.players import Players, callbacks, is_table
from harness.rounds import play_a_round
from harness.services import ENGINE_TOKEN
from harness.stack import Stack
from services.engine.client import EngineClient, GameInfo
from services.presentation.callbacks import Callback, Kind


def final_message(players: Players) -> dict[str, Any] | None:
    """The bot's message offering a rematch (the game's final one)."""
    for message in reversed(players.bot_messages()):
        if any(cb.kind is Kind.REMATCH for cb in callbacks(message)):
            return message
    return None


def rematch_press(message: dict[str, Any], arg: str) -> Callback:
    return next(cb for cb in callbacks(message) if cb.kind is Kind.REMATCH and cb.arg == arg)


def test_two_players_pressing_rematch_get_the_new_games_table(
    stack: Stack, make_group: Any
) -> None:
    group = make_group(2)
    players, control = group.players, stack.control
    ann, bob = group.people
    seated = [(int(p["id"]), p["first_name"]) for p in group.people]

    async def play() -> GameInfo:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            return await play_a_round(engine, group.id, seated)

    game = asyncio.run(play())
    assert game.status == "over"

    final = control.wait_until(
        lambda: final_message(players), timeout=120, what="the final message's Rematch button"
    )
    assert "🏆" in final["text"]
    labels = [b.get("text") for row in final["reply_markup"]["inline_keyboard"] for b in row]
    assert "🔁 Rematch" in labels and "🚪 Leave" in labels

    answer = players.press(int(ann["id"]), final, rematch_press(final, "yes"))
    assert answer["text"] == "You're in for the rematch."

    def voted() -> dict[str, Any] | None:
        message = final_message(players)
        return message if message is not None and "Again: P0" in message["text"] else None

    shown = control.wait_until(voted, timeout=60, what="Ann's vote on the final message")
    again = players.press(int(ann["id"]), shown, rematch_press(shown, "no"))
    assert again["text"] == "You have voted already."

    answer = players.press(int(bob["id"]), shown, rematch_press(shown, "yes"))
    assert answer["text"] == "You're in for the rematch."

    def started() -> dict[str, Any] | None:
        for message in players.bot_messages():
            if message["message_id"] == final["message_id"]:
                return message if "The rematch has started." in message["text"] else None
        return None

    done = control.wait_until(started, timeout=60, what="the rematch started on the message")
    assert "Again: P0, P1" in done["text"]
    assert final_message(players) is None  # the vote is closed: its buttons are gone

    async def rematch_of() -> GameInfo:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            old = await engine.game(game.game_id)
            assert old.rematch.next_game_id is not None
            return await engine.game(old.rematch.next_game_id)

    new = asyncio.run(rematch_of())
    assert new.status == "playing" and [s.user_id for s in new.seats] == [a for a, _ in seated]
    table = players.wait_table(
        "the rematch's table",
        lambda m: m["message_id"] > final["message_id"] and "P0" in m["text"] and "P1" in m["text"],
    )
    assert is_table(table["text"])


def test_one_player_saying_yes_gets_the_rematchs_lobby(stack: Stack, make_group: Any) -> None:
    group = make_group(2)
    players, control = group.players, stack.control
    ann, bob = group.people
    seated = [(int(p["id"]), p["first_name"]) for p in group.people]

    async def play() -> GameInfo:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            return await play_a_round(engine, group.id, seated)

    asyncio.run(play())
    final = control.wait_until(
        lambda: final_message(players), timeout=120, what="the final message's Rematch button"
    )
    answer = players.press(int(bob["id"]), final, rematch_press(final, "no"))
    assert answer["text"] == "You're leaving this table."
    players.press(int(ann["id"]), final, rematch_press(final, "yes"))
    lobby = players.wait_table(
        "the rematch's lobby",
        lambda m: m["message_id"] > final["message_id"] and "waiting for players" in m["text"],
    )
    assert "P0" in lobby["text"]

    def told() -> bool:
        message = next(m for m in players.bot_messages() if m["message_id"] == final["message_id"])
        return "Leaving: P1" in message["text"] and "The rematch has started." in message["text"]

    control.wait_until(told, timeout=60, what="both votes on the final message")
