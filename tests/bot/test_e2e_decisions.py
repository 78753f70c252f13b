"""Every decision of every variant through the local Telegram: the buttons appear while
owed, do what they say, and go; inline mode; refusals answered politely."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from harness.players import callbacks
from services.presentation.callbacks import Callback, Kind
from services.presentation.i18n import gettext
from tests.helpers.bot_scenes import Scene, deal
from tests.helpers.chat_text import plain_text


def test_inline_hand_plays_a_card_once(stack: Any, make_group: Any) -> None:
    """RULES.md §2 "A turn", played from inline mode: playable cards first, then the
    actions, then the inert cards; a chosen result is applied once."""
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["R5 R6 B9", "G7 G8 Y2"], "discard": "R3"})
    control, user = stack.control, scene.person(0)["id"]
    table = scene.table()
    tag_button = next(b for row in table["reply_markup"]["inline_keyboard"] for b in row
                      if "switch_inline_query_current_chat" in b)  # fmt: skip
    found = control.inline_query(
        user, tag_button["switch_inline_query_current_chat"], chat_id=group.id
    )
    assert found["answered"] and found["is_personal"] and found["cache_time"] == 0
    kinds = [Callback.decode(r["id"]) for r in found["results"]]
    assert [cb.arg for cb in kinds if cb.kind is Kind.ACT] == ["p.R5", "p.R6", "d"]
    assert [cb.kind for cb in kinds][-1] is Kind.INERT  # B9 cannot be played on R3
    chosen = next(r for r in found["results"] if Callback.decode(r["id"]).arg == "p.R5")
    control.choose_inline_result(user, found["query_id"], chosen["id"], chat_id=group.id)
    # The same choice arriving again (a retry, a second replica) changes nothing more.
    control.choose_inline_result(user, found["query_id"], chosen["id"], chat_id=group.id)
    scene.wait_group("played 🟥 5")
    scene.players.wait_table("two cards left", lambda m: "P0 2" in m["text"])
    assert scene.group_text().count("played 🟥 5") == 1
    # Someone without a seat gets no hand, politely.
    outsider = control.create_user("Zed")
    control.add_member(group.id, outsider["id"])
    theirs = control.inline_query(outsider["id"], scene.game.game_id, chat_id=group.id)
    assert theirs["answered"] and theirs["results"] == [] and theirs["button"]


def test_challenge_a_bluffed_wild_draw_four(stack: Any, make_group: Any) -> None:
    """RULES.md §2 "Challenge": guilty, the player of the W+4 draws 4."""
    scene = deal(stack, make_group(2), {"hands": ["W+4 R1 R2", "B1 B2 B3"], "discard": "R3"})
    scene.open_hand(0)
    scene.open_hand(1)
    assert not scene.press(0, "p.W+4")["text"]
    assert not scene.press(0, "c.G")["text"]
    hand = scene.hand_offers(1, "ch", "a")
    assert "challenge" in hand["text"]
    table = scene.players.wait_table("challenge on the table", lambda m: "Challenge" in str(m))
    assert {"a", "ch"} <= {cb.arg for cb in callbacks(table)}
    # Someone without a seat cannot answer for P1.
    outsider = stack.control.create_user("Zed")
    stack.control.add_member(scene.group.id, outsider["id"])
    refused = scene.players.press(outsider["id"], table, scene.act_button(table, "ch"))
    assert "Not your hand" in refused["text"]
    assert not scene.press(1, "ch")["text"]
    scene.wait_group("challenged")
    scene.players.wait_table("guilty", lambda m: "guilty" in m["text"] and "P0 6" in m["text"])


def test_accept_an_honest_wild_draw_four(stack: Any, make_group: Any) -> None:
    scene = deal(stack, make_group(2), {"hands": ["W+4 G1 G2", "B1 B2 B3"], "discard": "R3"})
    scene.open_hand(1)
    scene.open_hand(0)
    scene.press(0, "p.W+4")
    scene.press(0, "c.G")
    assert not scene.press(1, "a")["text"]
    scene.players.wait_table("took 4", lambda m: "P1 7" in m["text"])


def test_no_mercy_stack_then_take(stack: Any, make_group: Any) -> None:
    """RULES.md §4 "Stacking": +2 answered with +4, the total passes on and is taken."""
    scene = deal(
        stack,
        make_group(2),
        {"variant": "no_mercy", "hands": ["R+2 R1 R2", "B+4 B1 B2"], "discard": "R3"},
    )
    scene.open_hand(0)
    scene.open_hand(1)
    scene.press(0, "p.R+2")
    hand = scene.hand_offers(1, "p.B+4", "a")
    assert "stack" in hand["text"]
    scene.press(1, "p.B+4")
    # P0 holds nothing to stack: the engine makes them take the total at once.
    scene.players.wait_table("P0 took 6", lambda m: "P0 8" in m["text"])
    # The stack and its card read as one line.
    scene.wait_group("P1 stacked 🟦 +4 on +2")


def test_seven_o_swap_target(stack: Any, make_group: Any) -> None:
    """RULES.md §2 house rule Seven-O: the 7's player picks whom to swap with."""
    scene = deal(
        stack,
        make_group(3),
        {"hands": ["R7 R1", "B1 B2 B3", "G1"], "discard": "R3", "options": {"seven_o": True}},
    )
    scene.open_hand(0)
    scene.press(0, "p.R7")
    hand = scene.hand_offers(0, "s.1", "s.2")
    assert "swap" in hand["text"]
    scene.press(0, "s.1")
    scene.wait_group("swapped hands with")


def test_roulette_victim_names_a_colour(stack: Any, make_group: Any) -> None:
    """RULES.md §4 WCR: the next player names the colour."""
    scene = deal(
        stack,
        make_group(2),
        {"variant": "no_mercy", "hands": ["WCR R1 R2", "B1 B2"], "discard": "R3",
         "draw_pile": "B5 Y5 G5 R5 R6 R7 R8 R9"},
    )  # fmt: skip
    scene.open_hand(0)
    scene.open_hand(1)
    scene.press(0, "p.WCR")
    hand = scene.hand_offers(1, "c.R", "c.Y", "c.G", "c.B")
    assert "roulette" in hand["text"]
    scene.press(1, "c.G")
    scene.wait_group("in the roulette")


def test_flip_turns_the_table(stack: Any, make_group: Any) -> None:
    """RULES.md §3 "Both sides": F flips everything; the dark colours follow."""
    scene = deal(
        stack,
        make_group(2),
        {"variant": "flip", "hands": ["RF/P5 R1/T2 R2/O3", "B1/V1 B2/V2"], "discard": "R3/O4",
         "draw_pile": "G1/T1 G2/T2 G3/T3 G4/T4"},
    )  # fmt: skip
    scene.open_hand(0)
    scene.players.wait_table("light side", lambda m: "light side" in m["text"])
    scene.press(0, "p.RF")
    scene.players.wait_table("dark side", lambda m: "dark side" in m["text"])
    scene.wait_group("everything flipped")


def p1_frozen_by_dumb_fu(stack: Any, group: Any, third_hand: str) -> Scene:
    """Minions with three players: P0 plays a Dumb Fu and names blue, so P1 (holding
    B1 B2 B3) is frozen and owes the turn; P2 holds ``third_hand``."""
    scene = deal(
        stack,
        group,
        {"variant": "minions", "hands": ["WDF R1 R2", "B1 B2 B3", third_hand], "discard": "R3"},
    )
    scene.open_hand(0)
    scene.press(0, "p.WDF")
    scene.press(0, "c.B")
    scene.players.wait_table("frozen", lambda m: "🧊" in m["text"])
    return scene


def test_dumb_fu_frozen_player_talking(stack: Any, make_group: Any) -> None:
    """RULES.md §6 Dumb Fu: the frozen player's message costs 4 cards, and the chat is
    told why."""
    group = make_group(3)
    scene = p1_frozen_by_dumb_fu(stack, group, "G1 G2 G3")
    stack.control.send_message(scene.person(1)["id"], group.id, "haha")
    scene.wait_group("moved while frozen by Dumb Fu")
    scene.players.wait_table("P1 drew 4", lambda m: "P1 7" in m["text"])


def test_dumb_fu_frozen_player_catching_still_catches_and_draws_4(
    stack: Any, make_group: Any
) -> None:
    """RULES.md §6 Dumb Fu [decision frozen-call-or-catch]: a frozen player's catch still
    happens (+2 to the caught player) and costs the catcher 4 cards; the chat is told why."""
    scene = p1_frozen_by_dumb_fu(stack, make_group(3), "B4 G2")
    scene.open_hand(1)
    scene.press(1, "p.B1")
    scene.open_hand(2)
    scene.press(2, "p.B4")
    table = scene.players.wait_table("catch", lambda m: "Catch" in str(m.get("reply_markup")))
    answer = scene.players.press(scene.person(1)["id"], table, scene.act_button(table, "x.2"))
    assert not answer["text"]
    scene.wait_group("P1 moved while frozen by Dumb Fu and draws 4 cards.")
    table = scene.players.wait_table("P2 caught", lambda m: "P2 3" in m["text"])
    assert "P1 6" in table["text"]
    assert "P2 drew 2 · P1 moved while frozen: +4 · P1 drew 4" in table["text"]


def test_jump_in_out_of_turn(stack: Any, make_group: Any) -> None:
    """RULES.md §2 house rule Jump-In: an identical card, out of turn."""
    scene = deal(
        stack,
        make_group(3),
        {"hands": ["B1 B2", "G1 G2", "R3 Y9"], "discard": "R3", "options": {"jump_in": True}},
    )
    scene.open_hand(2)
    assert not scene.press(2, "p.R3")["text"]
    scene.players.wait_table("P2 jumped in", lambda m: "P2 1" in m["text"])


def test_two_catchers_tap_at_once(stack: Any, make_group: Any) -> None:
    """RULES.md §2 "UNO": P0 goes down to one card without calling; P1 and P2 press Catch
    at the same moment on the table: one catch counts (+2 once), the other is answered."""
    group = make_group(3)
    scene = deal(stack, group, {"hands": ["R1 R2", "B1 B2 B3", "G1 G2 G3"], "discard": "R3"})
    scene.open_hand(0)
    scene.press(0, "p.R1")
    table = scene.players.wait_table("catch", lambda m: "Catch" in str(m.get("reply_markup")))
    catch = scene.act_button(table, "x.0")
    with ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(
                lambda seat: scene.players.press(scene.person(seat)["id"], table, catch), [1, 2]
            )
        )
    texts = sorted(a["text"] or "" for a in answers)
    assert texts[0] == "" and texts[1] in (
        "This button is out of date.",
        "There's nobody to catch.",
    )
    scene.players.wait_table("P0 caught once", lambda m: "P0 3" in m["text"])
    scene.wait_group("caught P0: +2")
    assert scene.group_text().count("caught P0") == 1


def test_uno_called_in_time_leaves_nothing_to_catch(stack: Any, make_group: Any) -> None:
    scene = deal(stack, make_group(2), {"hands": ["R1 R2", "B1 B2 B3"], "discard": "R3"})
    scene.open_hand(0)
    assert not scene.press(0, "u")["text"]
    assert not scene.press(0, "p.R1")["text"]
    table = scene.players.wait_table("P0 at one card", lambda m: "P0 1" in m["text"])
    assert "Catch" not in str(table.get("reply_markup"))
    scene.wait_group("P0 called UNO!")


def test_stale_and_foreign_presses_are_answered(stack: Any, make_group: Any) -> None:
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["W+4 R1 R2", "B1 B2 B3"], "discard": "R3"})
    # An inline result chosen after the game moved on is refused: nothing is played.
    control, user = stack.control, scene.person(0)["id"]
    found = control.inline_query(user, scene.game.game_id, chat_id=group.id)
    old_r2 = next(r for r in found["results"] if Callback.decode(r["id"]).arg == "p.R2")
    scene.open_hand(0)
    scene.open_hand(1)
    scene.press(0, "p.R1")
    scene.players.wait_table("P0 played", lambda m: "P0 2" in m["text"])
    control.choose_inline_result(user, found["query_id"], old_r2["id"], chat_id=group.id)
    scene.press(1, "d")  # the game moves on; R2 was never played
    scene.players.wait_table("P1 drew", lambda m: "P1 4" in m["text"])
    assert "played 🟥 2" not in scene.group_text()
    # A person who never started the bot asks for a private hand: sent to start it.
    outsider = control.create_user("Zed")
    control.add_member(group.id, outsider["id"])
    table = scene.table()
    hand_button = next(cb for cb in callbacks(table) if cb.kind is Kind.HAND)
    answer = scene.players.press(outsider["id"], table, hand_button)
    assert answer["url"] and "start=" in answer["url"]


def test_an_unplayable_inline_card_posts_why_in_the_groups_language(
    stack: Any, make_group: Any
) -> None:
    """BOT-UX.md "The hand, in inline mode": choosing a card that can't be played now
    posts nothing that looks like a play. Telegram posts whatever result is chosen, so it
    says the card can't be played now and why, in the group's language (a Persian player
    in an English group), with its 🃏 My cards button in the group's language too; the
    game does not move."""
    group = make_group(2)
    scene = deal(stack, group, {"hands": ["R5 B9", "G7 G8 Y2"], "discard": "R3"})
    control, user = stack.control, scene.person(0)["id"]
    control.send_message(user, stack.bot_id, "/language fa")
    control.wait_until(
        lambda: any("فارسی" in m["text"] for m in control.private_messages(user, stack.token)),
        timeout=30,
        what="the player's language answered",
    )
    found = control.inline_query(user, scene.game.game_id, chat_id=group.id)
    inert = next(r for r in found["results"] if Callback.decode(r["id"]).kind is Kind.INERT)
    # The list speaks the player's language, the reason included.
    why = gettext("fa", "it doesn't match the pile")
    assert inert["description"] == plain_text(gettext("fa", "can't be played now: {why}", why=why))
    posted = control.choose_inline_result(user, found["query_id"], inert["id"], chat_id=group.id)
    said = plain_text(posted["text"])
    assert said == "🟦 9 can't be played now: it doesn't match the pile"
    buttons = [b["text"] for row in posted["reply_markup"]["inline_keyboard"] for b in row]
    assert buttons == ["🃏 My cards"]
    scene.choose_inline(0, "p.R5")  # the game had not moved: R5 is still P0's to play
    scene.wait_group("P0 played 🟥 5")


def test_a_wild_played_from_inline_mode_offers_its_colours_on_the_table(
    stack: Any, make_group: Any
) -> None:
    """RULES.md §2 "Wild cards": the player of a wild chosen from the inline hand (whose list
    has closed) finds the colour choice on the table; another player's press of it is
    refused in words, theirs names the colour."""
    scene = deal(stack, make_group(2), {"hands": ["W R1 R2", "B1 B2 B3"], "discard": "R3"})
    scene.choose_inline(0, "p.W")
    table = scene.players.wait_table(
        "the colours on the table", lambda m: "c.G" in {cb.arg for cb in callbacks(m)}
    )
    assert [cb.arg for cb in callbacks(table) if cb.arg.startswith("c.")] == [
        "c.R", "c.Y", "c.G", "c.B"
    ]  # fmt: skip
    assert "choose a colour" in table["text"] and "in their hand" not in table["text"]
    refused = scene.players.press(scene.person(1)["id"], table, scene.act_button(table, "c.G"))
    assert refused["text"] == "Only the player the table names (▶) chooses the colour."
    assert not scene.players.press(scene.person(0)["id"], table, scene.act_button(table, "c.G"))[
        "text"
    ]
    shown = scene.players.wait_table("the colour chosen", lambda m: "chose 🟩" in m["text"])
    assert not [cb for cb in callbacks(shown) if cb.arg.startswith("c.")]
