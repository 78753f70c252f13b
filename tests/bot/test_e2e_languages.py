"""Language per chat and per person through the real services and the local Telegram: a
Persian host's group plays in Persian, while a Gujarati player's toasts and private hand
are in Gujarati; /language changed mid-game is followed at the next render. (Beside the
other end-to-end tests: they share the session's services, and tests that empty the test
Redis must not run while those are up.)"""

from __future__ import annotations

from typing import Any

from harness.players import callbacks
from harness.stack import Stack
from services.presentation.callbacks import Kind
from tests.helpers.bot_scenes import deal, open_lobby


def test_the_group_speaks_its_creators_language_and_each_hand_its_owners(stack: Stack) -> None:
    control = stack.control
    host = control.create_user("مریم", language_code="fa")
    guest = control.create_user("Dev", language_code="gu-IN")
    chat = control.create_group(
        "Friday UNO", [host["id"], guest["id"]], admins=[host["id"]], bots=[stack.token]
    )
    for person in (host, guest):
        control.start_bot(person["id"], stack.token)
    players = stack.players(int(chat["id"]))

    def group_message(what: str, text: str) -> dict[str, Any]:
        found: dict[str, Any] = control.wait_until(
            lambda: next((m for m in reversed(players.bot_messages()) if text in m["text"]), None),
            timeout=30,
            what=what,
        )
        return found

    def private_hand(person: dict[str, Any], text: str) -> dict[str, Any]:
        found: dict[str, Any] = control.wait_until(
            lambda: next(
                (
                    m
                    for m in control.private_messages(person["id"], stack.token)
                    if m["from"].get("is_bot") and text in m["text"]
                ),
                None,
            ),
            timeout=30,
            what=f"{person['first_name']}'s hand",
        )
        return found

    control.send_message(host["id"], chat["id"], "/new")
    question = group_message("the variant question", "کدوم اونو رو بازی کنیم؟")
    classic = next(cb for cb in callbacks(question) if cb.arg == "classic")
    players.press(host["id"], question, classic)
    lobby = group_message("the lobby", "اونو کلاسیک · منتظر بازیکن\u200cها")
    buttons = {cb.arg: cb for cb in callbacks(lobby)}
    assert players.press(guest["id"], lobby, buttons["join"])["text"] == "તમે ગેમમાં છો!"
    # An Add AI button holds the lobby's version: pressed on the lobby as it is now.
    lobby = group_message("the guest seated", "Dev")
    players.press(host["id"], lobby, next(cb for cb in callbacks(lobby) if cb.arg == "ai.strong"))
    group_message("the AI seat", "AI")
    players.press(host["id"], lobby, buttons["start"])
    table = group_message("the table", "دور ۱")
    assert "ستون کارت\u200cکِشی" in table["text"]
    hand_button = next(cb for cb in callbacks(table) if cb.kind is Kind.HAND)
    for person in (host, guest):
        players.press(person["id"], table, hand_button)
    persian = private_hand(host, "اونو کلاسیک در «")
    gujarati = private_hand(guest, "”માં યુનો ક્લાસિક")
    assert "کارت تو دستتونه" in persian["text"]
    assert "તમારી પાસે" in gujarati["text"]


def test_language_changed_mid_game_is_followed_at_the_next_render(
    stack: Stack, make_group: Any
) -> None:
    """/language in the group (an admin) and in a private chat, while a game is played: the
    table and that player's hand speak the new language from their next render on (the
    next move), the other hand keeps its own; every name isolated once, as sent."""
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["R1 R2 R4", "B1 B2 R9"], "discard": "R3"})
    control, token = stack.control, stack.token
    host, guest = scene.person(0)["id"], scene.person(1)["id"]
    table = scene.table()
    scene.open_hand(0)
    guest_hand = scene.open_hand(1)
    control.send_message(host, group.id, "/language fa")
    scene.wait_group("این گروه از حالا به زبان")
    control.send_message(guest, stack.bot_id, "/language gu")
    control.wait_until(
        lambda: any(
            "હવેથી હું તમારી સાથે" in m["text"] for m in control.private_messages(guest, token)
        ),
        timeout=30,
        what="the guest's language answered",
    )
    scene.press(0, "p.R1")

    def now(messages: list[dict[str, Any]], message_id: int) -> dict[str, Any] | None:
        return next((m for m in messages if m["message_id"] == message_id), None)

    persian = control.wait_until(
        lambda: (
            (m := now(control.messages(group.id), table["message_id"]))
            and "دور ۱" in m["text"]
            and m
        ),
        timeout=30,
        what="the table in Persian",
    )
    assert "ستون کارت\u200cکِشی ۲۴" in persian["text"]  # the draw pile, in Persian digits
    gujarati = control.wait_until(
        lambda: (
            (m := now(control.private_messages(guest, token), guest_hand["message_id"]))
            and "તમારી પાસે" in m["text"]
            and m
        ),
        timeout=30,
        what="the guest's hand in Gujarati",
    )
    english = scene.players.wait_hand(host, lambda m: "you hold 2 cards" in m["text"], "P0's hand")
    for shown in (persian, gujarati, english):
        text = shown["text"]
        assert "\u2068\u2068" not in text and "\u2069\u2069" not in text, text
    assert "\u2068P0\u2069" in persian["text"]  # the names are still isolated


def test_a_forum_topic_plays_in_its_own_language(stack: Stack, make_group: Any) -> None:
    """An admin's /language in a forum topic is that topic's (kept in the records' chat
    settings): its games speak it, while the rest of the chat keeps the chat's."""
    group = make_group(2, forum=True, title="Forum")
    control, admin = stack.control, group.people[0]
    topic = control.create_topic(group.id, "اونو")
    players = group.players

    def in_topic(text: str, thread_id: int | None) -> dict[str, Any]:
        found: dict[str, Any] = control.wait_until(
            lambda: next(
                (m for m in reversed(players.bot_messages(thread_id)) if text in m["text"]), None
            ),
            timeout=60,
            what=f"{text!r} in thread {thread_id}",
        )
        return found

    control.send_message(admin["id"], group.id, "/language fa", thread_id=topic)
    in_topic("این موضوع از حالا به زبان", topic)
    open_lobby(stack, group, thread_id=topic)
    in_topic("منتظر بازیکن‌ها", topic)  # the topic's lobby, in Persian
    open_lobby(stack, group)
    lobby = in_topic("waiting for players", None)  # the chat's, in its own language
    assert lobby.get("message_thread_id") != topic
