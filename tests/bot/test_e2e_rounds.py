"""A game of every variant through the local Telegram, from /new to the end of a round:
the lobby's buttons, the table kept at the bottom, private hands, a strong and a hard AI seat
played by the worker, the round's scores posted below it."""

from __future__ import annotations

from typing import Any

import pytest

from harness.players import callbacks, preferred_move, version_of
from harness.stack import Stack
from services.presentation.callbacks import Kind
from tests.helpers.bot_scenes import Group, open_lobby


def owes(hand_text: str) -> bool:
    """Whether the hand's line says its player owes a decision."""
    return any(
        words in hand_text
        for words in ("your turn", "choose", "drew a card", "makes you take", "swap", "name a")
    )


def round_over(players: Any) -> bool:
    return "Round 1 goes to" in "".join(m["text"] for m in players.bot_messages())


def wait_for_a_turn(players: Any, group: Group) -> None:
    def ready() -> bool:
        hands = [players.hand(p["id"]) or {} for p in group.people]
        return round_over(players) or any(owes(h.get("text", "")) for h in hands)

    # Up to 90 s: once both people are knocked out (No Mercy) the AI seats play on alone,
    # and the round's end reaches the chat at the group's pace (a write every 3 s) behind
    # their moves; on a machine loaded by two other CPU-bound jobs that took over 30 s once.
    try:
        players.control.wait_until(ready, timeout=90, what="someone's turn")
    except AssertionError as e:
        texts = [(players.hand(p["id"]) or {}).get("text") for p in group.people]
        table = players.table()
        raise AssertionError(f"{e}; hands {texts}; table {table and table['text']}") from None


@pytest.mark.parametrize(
    "variant",
    [
        "classic",
        *(
            pytest.param(v, marks=pytest.mark.slow)
            for v in ("flip", "no_mercy", "minecraft", "minions")
        ),
    ],
)
def test_a_round_to_its_end(stack: Stack, make_group: Any, variant: str) -> None:
    group = make_group(2)
    players, control = group.players, stack.control
    host, guest = group.people
    open_lobby(stack, group, variant)
    lobby = players.wait_table("the lobby", lambda m: "waiting for players" in m["text"])
    lobby_buttons = {cb.arg: cb for cb in callbacks(lobby)}
    answer = players.press(guest["id"], lobby, lobby_buttons["join"])
    assert answer["text"] == "You're in!"
    # An Add AI button holds the lobby's version: pressed on the lobby as it is now.
    lobby = players.wait_table("two seats", lambda m: "P1" in m["text"])
    players.press(host["id"], lobby, next(cb for cb in callbacks(lobby) if cb.arg == "ai.strong"))
    lobby = players.wait_table("three seats", lambda m: "AI 1" in m["text"] and "P1" in m["text"])
    # A hard AI seat too: the worker plays both levels (services/worker/ai/hard.py).
    players.press(host["id"], lobby, next(cb for cb in callbacks(lobby) if cb.arg == "ai.hard"))
    lobby = players.wait_table("four seats", lambda m: "AI 2" in m["text"])
    refused = players.press(guest["id"], lobby, lobby_buttons["start"])
    assert "host" in refused["text"]
    players.press(host["id"], lobby, lobby_buttons["start"])
    table = players.wait_table("the table", lambda m: "round 1" in m["text"])
    assert table["message_id"] == lobby["message_id"]  # the lobby became the table
    # Both open their hands in the private chat from the table's button.
    for person in group.people:
        hand_button = next(cb for cb in callbacks(table) if cb.kind is Kind.HAND)
        players.press(person["id"], table, hand_button)
        hand = players.wait_hand(person["id"], lambda m: True, "a hand message")
        assert "Friday UNO" in hand["text"]

    moves = 0
    while "Round 1 goes to" not in "".join(m["text"] for m in players.bot_messages()):
        acted = False
        for person in group.people:
            hand = players.hand(person["id"])
            assert hand is not None
            if not owes(hand["text"]):
                continue
            cb = preferred_move(callbacks(hand))
            if cb is None:
                continue
            answer = players.press_hand(person["id"], hand, cb)
            assert not answer["text"], (cb, answer, hand["text"])
            moves += 1
            acted = True
            edits_before = len(hand["history"])
            control.wait_until(
                lambda uid=person["id"], before=cb.version, edits=edits_before: (
                    version_of(players.hand(uid) or {}) > before
                    # a hand left with nothing to press (knocked out, No Mercy) was edited
                    or len((players.hand(uid) or {}).get("history", [])) > edits
                    or round_over(players)
                ),
                timeout=20,
                what=f"the hand to move past version {cb.version}",
            )
        if not acted:
            wait_for_a_turn(players, group)
        assert moves < 800
    texts = [m["text"] for m in players.bot_messages()]
    assert any("Round 1 goes to" in t for t in texts)
    # The round's table was edited in place (private hands post nothing in the group), and
    # its scores were posted at the bottom, the next round's table below them.
    history = next(m for m in control.messages(group.id) if m["message_id"] == lobby["message_id"])[
        "history"
    ]
    assert len(history) > 3
    scores = next(m for m in players.bot_messages() if "Round 1 goes to" in m["text"])
    assert scores["message_id"] > lobby["message_id"]
