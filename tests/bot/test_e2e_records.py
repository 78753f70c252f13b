"""The records through the real services and the local Telegram: a game the worker recorded
answers /stats and /top, and /forgetme, confirmed by the asker's own button, forgets them;
a chat admin's /settings are stored and new games take them."""

from __future__ import annotations

import asyncio
from typing import Any

from harness.players import callbacks
from harness.stack import Stack
from services.engine.client import GameInfo
from services.presentation.callbacks import Kind
from services.records import queries
from services.records.database import make_engine
from tests.helpers.bot_scenes import Group, deal


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


class Panel:
    """One /settings message, pressed the way a person would: a button is pressed once the
    message shows it (each press edits the message in place)."""

    def __init__(self, stack: Stack, group: Group, person: dict[str, Any]) -> None:
        self.group = group
        before = {m["message_id"] for m in group.players.bot_messages()}
        stack.control.send_message(person["id"], group.id, "/settings")
        self.control = stack.control
        self.message_id = stack.control.wait_until(
            lambda: next(
                (
                    m["message_id"]
                    for m in group.players.bot_messages()
                    if "⚙️" in m["text"] and m["message_id"] not in before
                ),
                None,
            ),
            timeout=60,
            what="the /settings panel",
        )

    def message(self) -> dict[str, Any]:
        return next(
            m for m in self.group.players.bot_messages() if m["message_id"] == self.message_id
        )

    def shows(self, *lines: str) -> dict[str, Any]:
        def showing() -> dict[str, Any] | None:
            m = self.message()
            return m if all(line in m["text"] for line in lines) else None

        found: dict[str, Any] = self.control.wait_until(
            showing,
            timeout=60,
            what=f"the panel showing {lines}",
        )
        return found

    def press(self, person: dict[str, Any], arg: str) -> str:
        """``person`` presses the button ``arg`` (``p.h``, ``h.jump_in`` ...); the answer."""

        def offering() -> dict[str, Any] | None:
            m = self.message()
            return m if any(cb.arg == arg for cb in callbacks(m)) else None

        message = self.control.wait_until(
            offering,
            timeout=60,
            what=f"the button {arg}",
        )
        button = next(cb for cb in callbacks(message) if cb.arg == arg)
        answer: str = self.group.players.press(person["id"], message, button).get("text") or ""
        return answer


def stored_settings(stack: Stack, chat_id: int) -> queries.ChatSettings:
    engine = make_engine(stack.database_url)
    try:
        return queries.chat_settings(engine, chat_id)
    finally:
        engine.dispose()


def test_an_admin_sets_the_chats_defaults_and_new_games_take_them(
    stack: Stack, make_group: Any
) -> None:
    group = make_group(2)
    admin, member = group.people  # the first person is the group's admin
    panel = Panel(stack, group, admin)
    panel.shows("Default variant: Classic", "House rules: none", "Turn time: 60 seconds")
    refused = panel.press(member, "p.h")
    assert refused == "Only chat admins can change the settings."

    # House rules of the default variant (Classic), toggled on.
    panel.press(admin, "p.h")
    panel.shows("House rules for Classic")
    assert panel.press(member, "h.seven_o") == "Only chat admins can change the settings."
    assert panel.press(admin, "h.seven_o") == "Saved."
    panel.shows("House rules: Seven-O")
    assert panel.press(admin, "h.jump_in") == "Saved."
    panel.shows("House rules: Seven-O, Jump-In")

    # A second panel makes Flip the default; the first one's Seven-O button is now out of
    # step with it (Flip has no Seven-O): refused, and nothing is written.
    other = Panel(stack, group, admin)
    other.press(admin, "p.v")
    assert other.press(admin, "v.flip") == "Saved."
    other.shows("Default variant: Flip", "House rules: Jump-In")
    before = stored_settings(stack, group.id)
    assert panel.press(admin, "h.seven_o") == "Seven-O is not played in Flip."
    assert stored_settings(stack, group.id) == before
    assert before.rules.seven_o and before.rules.jump_in

    choices = (("p.t", "t.30"), ("p.u", "u.15"), ("p.s", "g.200"), ("p.a", "a.hard"))
    for open_panel, choice in choices:
        other.press(admin, "p.m")
        other.press(admin, open_panel)
        assert other.press(admin, choice) == "Saved."
    other.shows(
        "Default variant: Flip",
        "Turn time: 30 seconds",
        "UNO window: 15 seconds",
        "Target: 200 points",
        "Stand-in for a player out of time: hard AI",
    )
    assert stored_settings(stack, group.id).stand_in == "hard"

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
    assert game.uno_window_seconds == 15
    assert game.rules == {"seven_o": True, "jump_in": True, "target_score": 200}
    lobby = group.players.wait_table("the lobby", lambda m: "waiting for players" in m["text"])
    assert "House rules: Seven-O, Jump-In" in lobby["text"]
    assert "Turn: 30 seconds · Target: 200 points · UNO window: 15 seconds" in lobby["text"]


def test_rules_and_top_follow_the_chats_game(stack: Stack, make_group: Any) -> None:
    """/rules shows the running game's variant and answers to the names people type;
    /top after a game shows that variant's board, saying which it is."""
    group = make_group(2)
    loser = group.people[1]
    setup = {"variant": "minecraft", "hands": ["R5", "G7 B2 Y9"], "discard": "R1"}
    scene = deal(stack, group, {**setup, "scores": [495, 0]})
    assert reply(stack, group, loser, "/rules", "📖").startswith("📖 UNO Minecraft")
    assert reply(stack, group, loser, "/rules no mercy", "📖").startswith("📖 UNO No Mercy")
    assert reply(stack, group, loser, "/rules nomercy", "📖").startswith("📖 UNO No Mercy")
    assert reply(stack, group, loser, "/rules بی رحم", "📖").startswith("📖 UNO No Mercy")
    unknown = reply(stack, group, loser, "/rules banana", "banana")
    assert "I don't know banana" in unknown and "No Mercy (no_mercy)" in unknown
    scene.open_hand(0)
    scene.press(0, "p.R5")
    board = reply(stack, group, loser, "/top", "P0")
    assert board.splitlines()[0] == "🏆 Minecraft — this chat, by rating"
    assert "1. P0 — rating" in board


def test_the_last_variant_is_the_chats_last_game_won(stack: Stack) -> None:
    engine = make_engine(stack.database_url)
    try:
        assert queries.last_variant(engine, -987654321) is None
    finally:
        engine.dispose()
