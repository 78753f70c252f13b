"""A hostile person against the real bot, engine and worker through the local Telegram:
presses a modified client makes up (another chat's game, a panel's word on the table, data
that is not the bot's at all), a kicked player coming back, a stale inline choice, a
4,000-character word. Every press is judged against its own chat, its own message and the
game it names (services/bot/README.md "Presses the bot did not draw")."""

from __future__ import annotations

from typing import Any

from harness.players import callbacks
from harness.stack import Stack
from services.presentation.callbacks import Callback, Kind
from tests.helpers.bot_scenes import OUT_OF_DATE, Group, deal, engine_game, open_lobby

NOT_ON_MESSAGE = "This button is not on this message."
KICKED = "You were removed from this game, so you can't take a seat in it again."


def lobby_of(stack: Stack, group: Group) -> tuple[dict[str, Any], str]:
    """A lobby opened in ``group`` by its first person: its message and its game's id."""
    open_lobby(stack, group)
    lobby = group.players.wait_table("the lobby", lambda m: "waiting for players" in m["text"])
    return lobby, callbacks(lobby)[0].game_id


def failures_logged(stack: Stack) -> int:
    """The updates the bot's error handler logged as failed (services/bot/app.py)."""
    return sum(bot.log().count("handling 'Update' failed") for bot in stack.bots)


def test_a_lobby_word_for_another_chats_game_is_refused(stack: Stack, make_group: Any) -> None:
    """An admin of their own group forges Add AI and Start for another group's lobby on a
    message of their own group: refused in words, and that lobby is as it was."""
    victims, attackers = make_group(2), make_group(1)
    _, game_id = lobby_of(stack, victims)
    own_lobby, _ = lobby_of(stack, attackers)
    attacker = attackers.people[0]["id"]
    for word in ("ai.strong", "ai.random", "start", "leave", "rules"):
        answer = attackers.players.press(attacker, own_lobby, f"l|{game_id}|0|{word}", forged=True)
        assert answer["text"] == NOT_ON_MESSAGE, (word, answer)
    game = engine_game(stack, game_id)
    assert (game.status, len(game.seats)) == ("lobby", 1)


def test_an_outsider_cannot_join_from_their_private_chat(stack: Stack, make_group: Any) -> None:
    group = make_group(2)
    _, game_id = lobby_of(stack, group)
    outsider = stack.control.create_user("Out")
    stack.control.start_bot(outsider["id"], stack.token)  # the bot's greeting, no buttons
    greeting = stack.control.wait_until(
        lambda: next(
            (
                m
                for m in stack.control.private_messages(outsider["id"], stack.token)
                if m["from"].get("is_bot")
            ),
            None,
        ),
        timeout=30,
        what="the bot's greeting",
    )
    answer = group.players.press_hand(outsider["id"], greeting, f"l|{game_id}|0|join", forged=True)
    assert answer["text"] == NOT_ON_MESSAGE
    assert [s.user_id for s in engine_game(stack, game_id).seats] == [group.people[0]["id"]]


def test_a_kicked_player_stays_out(stack: Stack, make_group: Any) -> None:
    """/kick in a game in play: the stand-in keeps the seat; /back, /join and the kicked
    player's presses say why not."""
    group = make_group(3)
    scene = deal(
        stack, group, {"hands": ["R1 R2 R4", "B1 B2 R9 B3", "G5 G6 R7 G7"], "discard": "R3"}
    )
    control, game_id = stack.control, scene.game.game_id
    host, kicked = scene.person(0)["id"], scene.person(1)["id"]
    scene.open_hand(1)
    said = control.send_message(kicked, group.id, "hello")
    control.send_message(host, group.id, "/kick", reply_to=said["message_id"])
    scene.wait_group("Removed from the game.")
    assert engine_game(stack, game_id).seats[1].left
    control.send_message(kicked, group.id, "/back")
    scene.wait_group(KICKED)
    hand = scene.players.hand(kicked)
    assert hand is not None
    answer = scene.players.press_hand(kicked, hand, callbacks(hand)[0])
    assert answer["text"] == KICKED
    assert engine_game(stack, game_id).seats[1].left


def test_a_panels_word_acts_only_on_its_own_panel(stack: Stack, make_group: Any) -> None:
    """/forgetme's and /settings' words pressed on the table, and a move pressed on the
    /forgetme question: refused, and neither message changes."""
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    control, host = stack.control, scene.person(0)["id"]
    control.send_message(host, group.id, "/forgetme")
    question = control.wait_until(
        lambda: next(
            (m for m in group.players.bot_messages() if Kind.FORGET in map(kind, callbacks(m))),
            None,
        ),
        timeout=30,
        what="the /forgetme question",
    )
    table = scene.table()
    version = engine_game(stack, scene.game.game_id).version
    for data in (f"f||0|{host}", "s||0|p.h", "s||0|u.15"):
        assert scene.players.press(host, table, data, forged=True)["text"] == NOT_ON_MESSAGE
    draw = f"a|{scene.game.game_id}|{version}|d"
    assert scene.players.press(host, question, draw, forged=True)["text"] == NOT_ON_MESSAGE
    assert engine_game(stack, scene.game.game_id).version == version
    now = scene.table()
    assert (now["message_id"], now["text"]) == (table["message_id"], table["text"])
    asked = next(
        m for m in group.players.bot_messages() if m["message_id"] == question["message_id"]
    )
    assert asked["text"] == question["text"]


def test_a_forgetme_question_is_confirmed_only_by_the_person_it_was_asked_for(
    stack: Stack, make_group: Any
) -> None:
    """Another member presses the host's /forgetme question with data naming themselves (a
    modified client's press): refused in words, nobody is forgotten, and the question still
    waits for the host, whose own press then confirms it."""
    group = make_group(2)
    control = stack.control
    host, other = (p["id"] for p in group.people)
    control.send_message(host, group.id, "/forgetme")
    question = control.wait_until(
        lambda: next(
            (m for m in group.players.bot_messages() if Kind.FORGET in map(kind, callbacks(m))),
            None,
        ),
        timeout=30,
        what="the /forgetme question",
    )
    answer = group.players.press(other, question, f"f||0|{other}", forged=True)
    assert answer["text"] == "Only the person who asked can confirm this."
    asked = next(
        m for m in group.players.bot_messages() if m["message_id"] == question["message_id"]
    )
    assert (asked["text"], callbacks(asked)) == (question["text"], callbacks(question))
    assert not any("Done:" in m["text"] for m in group.players.bot_messages())
    group.players.press(host, question, callbacks(question)[0])
    done = control.wait_until(
        lambda: next((m for m in group.players.bot_messages() if "Done:" in m["text"]), None),
        timeout=30,
        what="the /forgetme confirmation",
    )
    assert done["message_id"] == question["message_id"] and "P0" in done["text"]


def kind(cb: Callback) -> Kind:
    return cb.kind


def test_data_that_is_not_the_bots_is_answered_without_an_error(
    stack: Stack, make_group: Any
) -> None:
    """An empty action code, a version of 20 digits, a path for a game id, an unknown game
    on a lobby word: each is answered as out of date or not on this message, and nothing
    is logged as failed."""
    scene = deal(stack, make_group(2), {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    me, game_id = scene.person(0)["id"], scene.game.game_id
    scene.open_hand(0)
    hand = scene.hand_offers(0, "p.R1")
    table = scene.table()
    version = engine_game(stack, game_id).version
    before = failures_logged(stack)
    forged = [
        (hand, f"a|{game_id}|{version}|"),
        (hand, f"a|{game_id}|{'9' * 20}|d"),
        (hand, f"a|../../v1/games/{game_id}|{version}|d"),
        (hand, f"h|{game_id}/view|0|"),
        (table, "l|nosuchgame00|0|rules"),
        (table, f"l|{game_id}|0|"),
    ]
    for message, data in forged:
        press = scene.players.press_hand if message is hand else scene.players.press
        answer = press(me, message, data, forged=True)
        assert answer["text"] in (OUT_OF_DATE, NOT_ON_MESSAGE), (data, answer)
    assert engine_game(stack, game_id).version == version
    assert failures_logged(stack) == before
    assert not scene.press(0, "p.R1")["text"]  # the hand still plays


def test_an_inline_choice_that_did_not_count_says_so(stack: Stack, make_group: Any) -> None:
    """A card chosen from an inline answer older than the game: the engine refuses it, and
    the card the choice posted in the group says it did not count, and why."""
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["R1 R2 R4", "B1 B2 B3"], "discard": "R3"})
    control, me = stack.control, scene.person(0)["id"]
    found = control.inline_query(me, scene.game.game_id, chat_id=group.id)
    old = next(r["id"] for r in found["results"] if Callback.decode(r["id"]).arg == "p.R2")
    scene.open_hand(0)
    scene.press(0, "p.R1")
    scene.players.wait_table("P0 played", lambda m: "P0 2" in m["text"])
    posted = control.choose_inline_result(me, found["query_id"], old, chat_id=group.id)

    def edited() -> dict[str, Any] | None:
        now = next(m for m in control.messages(group.id) if m["message_id"] == posted["message_id"])
        return now if "Did not count" in now.get("text", "") else None

    shown = control.wait_until(edited, timeout=30, what="the posted card marked as not counted")
    assert OUT_OF_DATE in shown["text"]
    assert "P0 2" in (scene.players.table() or {}).get("text", "")  # R2 was not played


def test_a_long_word_after_top_is_echoed_cut_short(stack: Stack, make_group: Any) -> None:
    group = make_group(1)
    stack.control.send_message(group.people[0]["id"], group.id, "/top " + "w" * 4000)
    reply = stack.control.wait_until(
        lambda: next(
            (m for m in group.players.bot_messages() if "I don't know" in m["text"]), None
        ),
        timeout=30,
        what="the /top reply",
    )
    assert len(reply["text"]) < 400 and "w" * 20 in reply["text"]
