"""People doing what the bot cannot prevent, through the local Telegram with the real
services: a player blocks the bot mid-game, presses a button that is out of date or sends
made-up callback data (a modified client), leaves the group mid-game; and the round's
score message."""

from __future__ import annotations

import asyncio
from typing import Any

from harness.players import callbacks, version_of
from harness.stack import Stack
from services.presentation.callbacks import Callback, Kind
from tests.helpers.bot_scenes import OUT_OF_DATE, deal, engine_game, open_lobby

NOT_ON_MESSAGE = "This button is not on this message."
LEFT_THE_GROUP = "You left the group, so the AI plays your seat."


def engine_events(stack: Stack, game_id: str) -> list[dict[str, Any]]:
    async def get() -> list[dict[str, Any]]:
        async with stack.engine_client() as engine:
            page = await engine.events(game_id, limit=1000)
            return [e.event for e in page.events]

    return asyncio.run(get())


def test_a_player_who_blocked_the_bot_plays_on_through_inline_mode(
    stack: Stack, make_group: Any
) -> None:
    """Telegram refuses the hand's edits (403) once its player blocked the bot: the group is
    told once, the player plays from inline mode, and unblocking brings the hand back."""
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["R1 R2 R4 R6", "R5 R7 B3"], "discard": "R3"})
    control, token = stack.control, stack.token
    blocker = scene.person(1)["id"]
    scene.open_hand(0)
    hand = scene.open_hand(1)
    control.block_bot(blocker, token)
    scene.press(0, "p.R1")  # now the blocker owes a move: their hand's edit is refused
    scene.wait_group("P1 has blocked me")
    scene.choose_inline(1, "p.R5")
    scene.players.wait_table("P1 played", lambda m: "P1 2" in m["text"])
    scene.press(0, "p.R2")
    scene.choose_inline(1, "p.R7")
    scene.players.wait_table(
        "P1 at one card", lambda m: "P1 1" in m["text"] and "P0 2" in m["text"]
    )
    assert scene.group_text().count("has blocked me") == 1
    # The blocked chat was left alone: its hand message as it was when blocked.
    now = next(
        m for m in control.private_messages(blocker, token) if m["message_id"] == hand["message_id"]
    )
    assert len(now["history"]) == len(hand["history"])
    # The table's "Private hand" button sends them to the bot's chat to unblock it.
    table = scene.table()
    hand_button = next(cb for cb in callbacks(table) if cb.kind is Kind.HAND)
    answer = scene.players.press(blocker, table, hand_button)
    assert answer["url"] and f"start={scene.game.game_id}" in answer["url"]
    # Unblocked, through that link: the hand is back, as it is now.
    control.unblock_bot(blocker, token)
    control.send_message(blocker, stack.bot_id, f"/start {scene.game.game_id}")
    back = scene.players.wait_hand(
        blocker, lambda m: m["message_id"] != hand["message_id"], "the hand posted again"
    )
    assert "you hold 1 card" in back["text"]
    assert scene.group_text().count("has blocked me") == 1


def test_a_stale_press_is_answered_and_refreshes_the_hand(stack: Stack, make_group: Any) -> None:
    """A press carrying an older version (an old keyboard's button, sent by a modified
    client or pressed before the edit arrived) moves nothing: it is answered as out of
    date, and the hand it was pressed on is shown as it is now, if that changed (its stored
    fingerprint): an unchanged hand is not edited, so no call comes back "message is not
    modified"."""
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    me = scene.person(0)["id"]
    scene.open_hand(0)
    scene.open_hand(1)
    first = scene.hand_offers(0, "p.R1")
    old_r2 = scene.act_button(first, "p.R2")
    scene.press(0, "p.R1")
    scene.press(1, "d")  # the game moves on; P0's hand has not changed, so it is not edited
    scene.players.wait_table("P1 drew", lambda m: "P1 4" in m["text"])
    current = engine_game(stack, scene.game.game_id).version
    hand = scene.players.hand(me)
    assert hand is not None and version_of(hand) < current  # older buttons than the game
    since = stack.control.calls(token=stack.token)[-1]["seq"]
    for _ in range(3):
        assert scene.players.press_hand(me, hand, old_r2, forged=True)["text"] == OUT_OF_DATE
    scene.press(1, "k")  # now P0 owes: their hand is shown at the new version, in place
    refreshed = scene.players.wait_hand(
        me, lambda m: version_of(m) > current, "the hand shown at P0's turn"
    )
    assert refreshed["message_id"] == hand["message_id"]  # edited in place, not posted again
    wasted = [
        c
        for c in stack.control.calls(token=stack.token, since=since)
        if c.get("chat_id") == me and "not modified" in (c.get("description") or "")
    ]
    assert not wasted
    # A hand's move pressed on the table: not one of the table's buttons.
    current = engine_game(stack, scene.game.game_id).version
    table = scene.table()
    stale_draw = Callback(Kind.ACT, scene.game.game_id, old_r2.version, "d")
    answer = scene.players.press(scene.person(1)["id"], table, stale_draw, forged=True)
    assert answer["text"] == NOT_ON_MESSAGE
    assert engine_game(stack, scene.game.game_id).version == current
    assert "played 🟥 2" not in scene.group_text()


def test_made_up_callback_data_is_answered_and_changes_nothing(
    stack: Stack, make_group: Any
) -> None:
    """Data the bot never wrote, from a modified client, on the table or the hand: every
    press is answered in words (never "Something went wrong"), and the game is as it was.
    On the table only the table's own buttons are taken (services/bot/pressed.py)."""
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    host, other = scene.person(0)["id"], scene.person(1)["id"]
    stranger = stack.control.create_user("Zed")
    stack.control.add_member(group.id, stranger["id"])
    scene.open_hand(0)
    hand = scene.hand_offers(0, "p.R1")
    table = scene.table()
    game_id = scene.game.game_id
    before = engine_game(stack, game_id)
    version = before.version
    forged = [
        (host, hand, "garbage", OUT_OF_DATE),
        (host, hand, "a|||", OUT_OF_DATE),
        (host, hand, f"a|{game_id}|{version}|p.B9", "You don't hold that card."),
        (host, hand, f"a|{game_id}|{version}|zz", "That is not possible now."),
        (stranger["id"], table, f"a|{game_id}|{version}|p.R1", NOT_ON_MESSAGE),
        (host, table, f"l|{game_id}|0|end-it", NOT_ON_MESSAGE),
        (host, table, f"l|{game_id}|0|start", NOT_ON_MESSAGE),
        (other, table, f"a|{game_id}|{version}|d", NOT_ON_MESSAGE),
        (host, table, f"a|nosuchgame00|{version}|d", NOT_ON_MESSAGE),
        (host, table, f"v|{game_id}|0|classic", NOT_ON_MESSAGE),
        (host, table, f"f|x|0|{other}", NOT_ON_MESSAGE),
    ]
    for user, message, data, said in forged:
        press = scene.players.press_hand if message is hand else scene.players.press
        answer = press(user, message, data, forged=True)
        assert said in (answer["text"] or ""), (data, answer)
    after = engine_game(stack, game_id)
    assert (after.version, after.status) == (before.version, "playing")
    # The hand still plays.
    assert not scene.press(0, "p.R1")["text"]
    scene.players.wait_table("P0 played", lambda m: "P0 2" in m["text"])


def test_a_player_who_left_the_group_is_played_for(stack: Stack, make_group: Any) -> None:
    """README "A member leaves the group": the stand-in takes the seat and the table says
    so, once, though an admin bot hears it twice (chat_member and the service message);
    the player's presses and inline queries are answered and move nothing; back in the
    group, /back gives them the seat again."""
    group = make_group(3)
    control = stack.control
    control.set_admin(group.id, stack.bot_id)  # chat_member updates too
    scene = deal(
        stack, group, {"hands": ["R1 R2 R4", "B1 B2 R9 B3", "G5 G6 R7 G7"], "discard": "R3"}
    )
    leaver = scene.person(1)["id"]
    scene.open_hand(0)
    hand = scene.open_hand(1)
    control.remove_member(group.id, leaver)
    scene.players.wait_table("the seat to the stand-in", lambda m: "P1 left" in m["text"])
    game_id = scene.game.game_id
    assert engine_game(stack, game_id).seats[1].left
    # Their hand's buttons and their inline mode: answered, nothing sent to the engine.
    version = engine_game(stack, game_id).version
    for cb in [*callbacks(hand)[:1], Callback(Kind.ACT, game_id, version, "d")]:
        answer = scene.players.press_hand(leaver, hand, cb, forged=True)
        assert LEFT_THE_GROUP in answer["text"] and answer["show_alert"], (cb, answer)
    found = control.inline_query(leaver, game_id, bot=stack.token)
    assert found["results"] == [] and "left" in found["button"]["text"]
    # The game goes on: P1's turn is the stand-in's. P0, who owes the move, has their
    # hand brought to the new version though the departure changed nothing in it, so
    # their press is not refused as out of date.
    scene.players.wait_hand(
        scene.person(0)["id"], lambda m: version_of(m) >= version, "P0's hand at the new version"
    )
    assert not scene.press(0, "p.R1")["text"]
    scene.players.wait_table("the stand-in moved", lambda m: "P1 4" not in m["text"])
    assert engine_game(stack, game_id).seats[1].left
    lefts = [e for e in engine_events(stack, game_id) if e["type"] == "player_left"]
    assert len(lefts) == 1
    # Back in the group, /back takes the seat back.
    control.add_member(group.id, leaver)
    control.send_message(leaver, group.id, "/back")
    scene.wait_group("Welcome back!")
    assert not engine_game(stack, game_id).seats[1].left


def test_the_round_winner_is_shown_what_they_scored(stack: Stack, make_group: Any) -> None:
    """RULES.md §2 "Scoring": the winner's gain is the other hands' points."""
    scene = deal(stack, make_group(2), {"hands": ["R1", "B5 W+4"], "discard": "R3"})
    scene.open_hand(0)
    scene.press(0, "p.R1")
    scene.wait_group("Round 1 goes to P0")
    assert "P0: 55  (+55)" in scene.group_text()


def test_a_member_who_leaves_the_group_leaves_its_lobby(stack: Stack, make_group: Any) -> None:
    group = make_group(2)
    control, players = stack.control, group.players
    guest = group.people[1]
    open_lobby(stack, group)
    lobby = players.wait_table("the lobby", lambda m: "waiting for players" in m["text"])
    join = next(cb for cb in callbacks(lobby) if cb.arg == "join")
    assert players.press(guest["id"], lobby, join)["text"] == "You're in!"
    players.wait_table("P1 seated", lambda m: "• P1" in m["text"])
    control.remove_member(group.id, guest["id"])
    players.wait_table(
        "P1's seat gone", lambda m: "• P1" not in m["text"] and "1 player" in m["text"]
    )


def test_add_ai_pressed_twice_on_one_lobby_adds_one_seat(stack: Stack, make_group: Any) -> None:
    """A second Add hard AI while the lobby is slow to redraw (a double tap, or a press on
    the lobby as it was before the seat was added): one AI is added, the press is answered
    at once with what it did, and the repeat is refused in words."""
    from concurrent.futures import ThreadPoolExecutor

    group = make_group(2)
    open_lobby(stack, group)
    players, host = group.players, group.people[0]["id"]
    lobby = players.wait_table("the lobby", lambda m: "waiting for players" in m["text"])
    hard = next(cb for cb in callbacks(lobby) if cb.arg == "ai.hard")
    with ThreadPoolExecutor(2) as pool:
        answers = sorted(pool.map(lambda _: players.press(host, lobby, hard)["text"], [0, 1]))
    changed = "The lobby has changed since this button was drawn: look at it and press again."
    assert answers[0] == "Added: hard AI. The lobby shows it in a moment."
    assert answers[1] in ("Already done: the lobby shows it in a moment.", changed)
    # Pressed on the lobby as it was, once the seat is in: refused. (Forged: the local
    # Telegram takes a press only of what the message shows now, and it may be redrawn.)
    again = players.press(host, lobby, hard, forged=True)
    assert again["text"] == changed
    shown = players.wait_table("the AI seat", lambda m: "AI 1" in m["text"])
    assert "🤖 AI 1 · hard AI" in shown["text"] and "AI 2" not in shown["text"]
    game = engine_game(stack, hard.game_id)
    assert [s.ai for s in game.seats] == [None, "hard"]
    # The redrawn lobby's button adds another.
    fresh = next(cb for cb in callbacks(shown) if cb.arg == "ai.hard")
    assert players.press(host, shown, fresh)["text"].startswith("Added: hard AI.")
    players.wait_table("a second AI seat", lambda m: "AI 2" in m["text"])


def test_new_during_a_game_tells_a_seated_player_they_are_in_it(
    stack: Stack, make_group: Any
) -> None:
    """/new while a game is on: a seated player is told they are in it and how to see
    their cards; someone else is told to /join it."""
    group = make_group(3)
    scene = deal(stack, group, {"hands": ["R1 R2 R4", "B1 B2 R9"], "discard": "R3"})
    control = stack.control
    control.send_message(scene.person(1)["id"], group.id, "/new")
    scene.wait_group("You are already playing in this game: 🃏 My cards shows your cards.")
    control.send_message(scene.person(2)["id"], group.id, "/new")
    scene.wait_group("A game is already on here: /join it.")
