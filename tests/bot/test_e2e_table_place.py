"""Where the group's table is, through the local Telegram with the real services: at the
bottom of the chat once people's messages (the players' own inline cards too) have pushed
it up, whose decision it is named first, a round's scores and a game's end posted below,
a new round's table opening afresh, nothing of an ended game looking live, a table posted
anew retiring the one above at once, and a player slow to act told in private, in their
language, once at a time."""

from __future__ import annotations

import json
from typing import Any

from harness.players import callbacks, is_table
from harness.stack import Stack
from services.presentation.callbacks import Kind
from tests.helpers.bot_scenes import Group, Scene, deal

HANDS = {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"}


def group_messages(stack: Stack, scene: Scene) -> list[dict[str, Any]]:
    """Every message of the group still there, people's and the bot's, oldest first."""
    return [m for m in stack.control.messages(scene.group.id) if not m["deleted"]]


def live(message: dict[str, Any]) -> bool:
    """Whether a bot message looks like a table in play: a decision owed, or buttons (the
    final message's Rematch and Leave are the finished game's, not a move)."""
    moves = [cb for cb in callbacks(message) if cb.kind is not Kind.REMATCH]
    return "▶" in (message.get("text") or "") or bool(moves)


def test_the_table_moves_to_the_bottom_when_cards_push_it_up(stack: Stack, make_group: Any) -> None:
    scene = deal(stack, make_group(2), HANDS)
    first = scene.table()
    scene.choose_inline(0, "p.R1")  # the player's card, posted in the group
    scene.players.wait_table("P0 played", lambda m: "P0 2" in m["text"])
    stack.control.send_message(scene.person(1)["id"], scene.group.id, "nice one")
    scene.choose_inline(1, "d")
    table = scene.players.wait_table("P1 drew", lambda m: "P1 4" in m["text"])
    # Two messages below pushed it up: the write posted it anew, at the bottom.
    assert table["message_id"] != first["message_id"]
    assert group_messages(stack, scene)[-1]["message_id"] == table["message_id"]
    assert table["text"].startswith("▶ P1"), table["text"]  # whose decision, first
    # The one it replaced does not look live: deleted when the budget allowed.
    stack.control.wait_until(
        lambda: all(
            m["deleted"]
            for m in stack.control.messages(scene.group.id)
            if m["message_id"] == first["message_id"]
        ),
        timeout=30,
        what="the superseded table deleted",
    )


def test_end_posts_one_message_with_the_scores_and_leaves_nothing_live(
    stack: Stack, make_group: Any
) -> None:
    scene = deal(stack, make_group(2), {**HANDS, "scores": [40, 15]})
    scene.open_hand(0)
    scene.open_hand(1)
    scene.players.wait_hand(scene.person(0)["id"], lambda m: "your turn" in m["text"], "P0's turn")
    before = len(group_messages(stack, scene))
    stack.control.send_message(scene.person(0)["id"], scene.group.id, "/end")
    scene.wait_group("The game was ended.")
    ended = [m for m in scene.players.bot_messages() if "The game was ended." in m["text"]]
    assert len(ended) == 1
    assert "P0: 40" in ended[0]["text"] and "P1: 15" in ended[0]["text"], ended[0]["text"]
    # Nothing in the group looks live: the table is gone, not left saying "▶ P0 …".
    stack.control.wait_until(
        lambda: not any(live(m) for m in scene.players.bot_messages()),
        timeout=30,
        what="no live table left",
    )
    bot_posts = [m for m in group_messages(stack, scene)[before:] if m["from"].get("is_bot")]
    assert [m["message_id"] for m in bot_posts] == [ended[0]["message_id"]]
    for seat in (0, 1):
        hand = scene.players.wait_hand(
            scene.person(seat)["id"], lambda m: "This game is over." in m["text"], "hand over"
        )
        assert "your turn" not in hand["text"] and not callbacks(hand)


def test_after_the_winning_card_no_table_is_posted_as_live(stack: Stack, make_group: Any) -> None:
    scene = deal(
        stack, make_group(2), {"hands": ["R5", "G7 B2 Y9"], "discard": "R1", "scores": [495, 0]}
    )
    scene.open_hand(0)
    scene.open_hand(1)
    scene.press(0, "p.R5")
    scene.wait_group("wins the game!")
    stack.control.wait_until(
        lambda: not any(live(m) for m in scene.players.bot_messages()),
        timeout=30,
        what="no live table left",
    )
    last = scene.players.bot_messages()[-1]
    assert "wins the game!" in last["text"], last["text"]  # the game's end, at the bottom
    hand = scene.players.wait_hand(
        scene.person(1)["id"], lambda m: "This game is over." in m["text"], "hand over"
    )
    assert not callbacks(hand)


def test_a_new_round_opens_below_its_scores_with_none_of_the_last_rounds_moves(
    stack: Stack, make_group: Any
) -> None:
    scene = deal(stack, make_group(2), {"hands": ["R2 R5", "R7 B2 Y9"], "discard": "R1"})
    scene.open_hand(0)
    scene.open_hand(1)
    scene.press(0, "p.R2")
    scene.players.wait_table("P0 played", lambda m: "P0 played" in m["text"])
    scene.press(1, "p.R7")
    scene.press(0, "p.R5")
    scene.wait_group("Round 1 goes to")
    table = scene.players.wait_table("round 2", lambda m: "round 2" in m["text"])
    assert "played 🟥" not in table["text"], table["text"]
    scores = next(m for m in scene.players.bot_messages() if "Round 1 goes to" in m["text"])
    assert scores["message_id"] < table["message_id"]  # the scores above, the table below
    stack.control.wait_until(
        lambda: (
            not any(
                is_table(m["text"]) and "round 1" in m["text"] for m in scene.players.bot_messages()
            )
        ),
        timeout=30,
        what="round 1's table deleted",
    )


def test_a_player_slow_to_act_is_told_once_in_private(stack: Stack, make_group: Any) -> None:
    scene = deal(stack, make_group(2), HANDS, turn_seconds=16)
    user = scene.person(0)["id"]

    def nudges() -> list[dict[str, Any]]:
        return [
            m
            for m in stack.control.private_messages(user, stack.token)
            if "Your turn in" in (m.get("text") or "")
        ]

    stack.control.wait_until(nudges, timeout=30, what="P0 told it is their turn")
    assert len(nudges()) == 1
    assert not any("Your turn in" in m["text"] for m in scene.players.bot_messages())


def reminders(stack: Stack, user: int) -> list[dict[str, Any]]:
    """Every "your turn" reminder the bot sent the user in private, deleted ones too."""
    return [
        m
        for m in stack.control.private_messages(user, stack.token)
        if "Your turn in" in (m.get("text") or "")
    ]


def live_reminders(stack: Stack, user: int) -> list[dict[str, Any]]:
    return [m for m in reminders(stack, user) if not m["deleted"]]


def test_a_turns_reminder_is_gone_once_the_turn_is_taken_and_once_the_game_ends(
    stack: Stack, make_group: Any
) -> None:
    """The worker finds each reminder due (the engine set it with the turn); the bot sends
    it, one live at a time, and removes it when the turn is taken and when /end ends the
    game, so an hour's play leaves no stack of them in a private chat."""
    scene = deal(stack, make_group(2), HANDS, turn_seconds=16)
    first, second = scene.person(0)["id"], scene.person(1)["id"]
    scene.open_hand(0)
    scene.open_hand(1)
    stack.control.wait_until(
        lambda: live_reminders(stack, first), timeout=30, what="P0 told it is their turn"
    )
    assert len(reminders(stack, first)) == 1
    scene.press(0, "p.R1")
    stack.control.wait_until(
        lambda: not live_reminders(stack, first),
        timeout=30,
        what="P0's reminder removed once they played",
    )
    stack.control.wait_until(
        lambda: live_reminders(stack, second), timeout=30, what="P1 told it is their turn"
    )
    assert len(reminders(stack, second)) == 1 and len(reminders(stack, first)) == 1
    stack.control.send_message(first, scene.group.id, "/end")
    scene.wait_group("The game was ended.")
    stack.control.wait_until(
        lambda: not live_reminders(stack, second),
        timeout=30,
        what="P1's reminder removed once the game ended",
    )


def written_to(call: dict[str, Any], message_id: int) -> bool:
    """Whether a Bot API call wrote to (edited or deleted) the message ``message_id``."""
    params = call.get("params") or {}
    ids = params.get("message_ids")
    if isinstance(ids, str):
        ids = json.loads(ids)
    named = [int(i) for i in ids or []] + [int(params.get("message_id") or 0)]
    return message_id in named


def test_a_table_posted_anew_retires_the_one_above_with_the_groups_next_write(
    stack: Stack, make_group: Any
) -> None:
    """The table posted at the bottom leaves none above it looking live: the group's next
    write deletes the one it replaced, before the next move's table write (README
    "Rendering", 5)."""
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4 R5", "B1 B2 B3 R7"], "discard": "R3"})
    first = scene.table()
    since = stack.control.calls(token=stack.token)[-1]["seq"]
    stack.control.send_message(scene.person(1)["id"], scene.group.id, "nice one")
    scene.choose_inline(0, "p.R1")  # two messages below it: this move's table goes below
    table = scene.players.wait_table("P0 played", lambda m: "P0 3" in m["text"])
    assert table["message_id"] != first["message_id"]
    scene.choose_inline(1, "p.R7")
    scene.players.wait_table("P1 played", lambda m: "P1 3" in m["text"])
    writes = [
        c
        for c in stack.control.calls(token=stack.token, since=since)
        if c.get("chat_id") == scene.group.id and c["ok"] and c["method"] != "getChatMember"
    ]
    retired = next(n for n, c in enumerate(writes) if written_to(c, first["message_id"]))
    posted = next(n for n, c in enumerate(writes) if c["method"] == "sendMessage")
    assert retired == posted + 1, [c["method"] for c in writes]
    assert writes[retired]["method"] in ("deleteMessage", "deleteMessages")
    assert not [m for m in group_messages(stack, scene) if m["message_id"] == first["message_id"]]


def test_a_slow_players_reminder_speaks_their_language_and_goes_when_they_move(
    stack: Stack, make_group: Any
) -> None:
    """The reminder of a turn not taken is in the player's language (their app's, as their
    hand speaks it), the game's only one, and removed once they move; the next player's
    is removed when the game ends."""
    control = stack.control
    people = [
        control.create_user("P0", username=None),
        control.create_user("Sara", username=None, language_code="fa"),
    ]
    chat = control.create_group(
        "Friday UNO", [p["id"] for p in people], admins=[people[0]["id"]], bots=[stack.token]
    )
    for person in people:
        control.start_bot(person["id"], stack.token)
    group = Group(chat, people, stack.players(int(chat["id"])))
    scene = deal(stack, group, {**HANDS, "current": 1}, turn_seconds=16)
    sara = people[1]["id"]
    table = scene.table()
    hand_button = next(cb for cb in callbacks(table) if cb.kind is Kind.HAND)
    scene.players.press(sara, table, hand_button)
    # Her hand speaks Persian (so the scripted players' English-reading helpers can't find
    # it): the private message with the game's buttons.
    hand = control.wait_until(
        lambda: next(
            (m for m in control.private_messages(sara, stack.token) if callbacks(m)), None
        ),
        timeout=30,
        what="Sara's hand",
    )

    def reminders(seat: int) -> list[dict[str, Any]]:
        return [
            m
            for m in control.private_messages(people[seat]["id"], stack.token)
            if "⏰" in (m.get("text") or "")
        ]

    told = control.wait_until(lambda: reminders(1), timeout=30, what="Sara reminded")
    assert len(told) == 1 and "Your turn" not in told[0]["text"], told[0]["text"]
    assert "Friday UNO" in told[0]["text"]
    hand = next(m for m in control.private_messages(sara, stack.token) if callbacks(m))
    play = next(cb for cb in callbacks(hand) if cb.arg == "p.B3")
    assert not scene.players.press_hand(sara, hand, play)["text"]
    control.wait_until(
        lambda: all(m["deleted"] for m in reminders(1)), timeout=30, what="Sara's reminder gone"
    )
    control.wait_until(lambda: reminders(0), timeout=30, what="P0 reminded")
    assert len([m for m in reminders(0) + reminders(1) if not m["deleted"]]) == 1
    control.send_message(people[0]["id"], group.id, "/end")
    scene.wait_group("The game was ended.")
    control.wait_until(
        lambda: all(m["deleted"] for m in reminders(0)), timeout=30, what="P0's reminder gone"
    )
