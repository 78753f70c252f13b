"""The records through the real services and the local Telegram: a game the worker recorded
answers /stats and /top, and /forgetme, confirmed by the asker's own button, forgets them."""

from __future__ import annotations

import asyncio
from typing import Any

from bot_stack import Group, Stack
from scenes import deal
from telegram_play import callbacks

from services.bot.callbacks import Kind
from services.engine.client import GameInfo


def reply(stack: Stack, group: Group, person: dict[str, Any], command: str, words: str) -> str:
    """``person`` sends ``command`` in the group; the bot's reply holding ``words``, waiting
    for it (the worker records a game's end shortly after it is written)."""

    def answered() -> str | None:
        sent = stack.control.send_message(person["id"], group.id, command)
        found = stack.control.wait_until(
            lambda: next(
                (
                    m
                    for m in group.players.bot_messages()
                    if (m.get("reply_to_message") or {}).get("message_id") == sent["message_id"]
                ),
                None,
            ),
            timeout=60,
            what=f"the answer to {command}",
        )
        text: str = found["text"]
        return text if words in text else None

    # Generous bounds: the group's flood budget spaces the bot's replies, and a loaded
    # machine records the game's end later.
    found: str = stack.control.wait_until(answered, timeout=180, what=f"{words!r} in /stats")
    return found


def test_a_recorded_game_shows_in_stats_and_top_until_forgotten(
    stack: Stack, make_group: Any
) -> None:
    group = make_group(2)
    winner, loser = group.people
    # One card from the target: the winner's last card ends the game (RULES.md §2).
    scene = deal(stack, group, {"hands": ["R5", "G7 B2 Y9"], "discard": "R1", "scores": [495, 0]})
    scene.open_hand(0)
    scene.press(0, "p.R5")

    stats = reply(stack, group, winner, "/stats", "games 1")
    assert "In this chat:" in stats and "Everywhere:" in stats
    assert "Classic: games 1 · wins 1" in stats
    board = reply(stack, group, loser, "/top", "P0")
    lines = board.splitlines()
    assert lines[0] == "🏆 Classic — this chat, by rating"
    assert lines[2].startswith("1. P0 — rating")
    assert lines[3].startswith("2. P1 — rating")
    wins = reply(stack, group, loser, "/top wins global", "P0")
    assert "everywhere, by wins" in wins and "1. P0 — 1 win · 1 game" in wins
    flip = reply(stack, group, loser, "/top flip", "Flip")
    assert "No one on this board yet" in flip

    stack.control.send_message(winner["id"], group.id, "/forgetme")
    question = stack.control.wait_until(
        lambda: next(
            (m for m in group.players.bot_messages() if "Are you sure?" in m["text"]), None
        ),
        timeout=60,
        what="the /forgetme question",
    )
    button = next(cb for cb in callbacks(question) if cb.kind is Kind.FORGET)
    refused = group.players.press(loser["id"], question, button)
    assert refused["text"] == "Only the person who asked can confirm this."
    assert "games 1" in reply(stack, group, winner, "/stats", "Classic")
    group.players.press(winner["id"], question, button)
    stack.control.wait_until(
        lambda: any("Done:" in m["text"] for m in group.players.bot_messages()),
        timeout=60,
        what="the /forgetme confirmation",
    )
    assert "No finished games on record" in reply(stack, group, winner, "/stats", "No finished")
    after = reply(stack, group, loser, "/top", "P1")
    assert "P0" not in after and "1. P1" in after


def test_an_admin_sets_the_chats_defaults_and_new_games_take_them(
    stack: Stack, make_group: Any
) -> None:
    group = make_group(2)
    admin, member = group.people  # the first person is the group's admin
    stack.control.send_message(admin["id"], group.id, "/settings")
    panel = stack.control.wait_until(
        lambda: next((m for m in group.players.bot_messages() if "⚙️" in m["text"]), None),
        timeout=60,
        what="the /settings panel",
    )
    assert "Default variant: Classic" in panel["text"] and "Turn time: 60 seconds" in panel["text"]
    choices = {cb.arg: cb for cb in callbacks(panel) if cb.kind is Kind.SETTINGS}
    refused = group.players.press(member["id"], panel, choices["v.flip"])
    assert refused["text"] == "Only chat admins can change the settings."
    assert group.players.press(admin["id"], panel, choices["v.flip"])["text"] == "Saved."
    assert group.players.press(admin["id"], panel, choices["t.30"])["text"] == "Saved."
    stack.control.wait_until(
        lambda: any(
            "Default variant: Flip" in m["text"] and "Turn time: 30 seconds" in m["text"]
            for m in group.players.bot_messages()
        ),
        timeout=60,
        what="the panel showing the new settings",
    )

    stack.control.send_message(member["id"], group.id, "/new")
    question = stack.control.wait_until(
        lambda: next((m for m in group.players.bot_messages() if "Which UNO" in m["text"]), None),
        timeout=60,
        what="the variant question",
    )
    first = question["reply_markup"]["inline_keyboard"][0][0]
    assert first["text"] == "⭐ Flip"
    classic = next(cb for cb in callbacks(question) if cb.arg == "classic")
    group.players.press(member["id"], question, classic)

    async def created_game() -> GameInfo | None:
        async with stack.engine_client() as engine:
            return await engine.chat_game(group.id, 0)

    game = stack.control.wait_until(lambda: asyncio.run(created_game()), timeout=60, what="game")
    assert game.variant == "classic" and game.turn_seconds == 30
