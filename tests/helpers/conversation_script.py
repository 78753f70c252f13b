"""The scripted conversation that every Bot API client library plays against the local
Telegram, and the behaviour its bot must have.

The bot (written once per library, in that library's idiom):

- ``/start`` in private: replies ``Hello <first name>``.
- ``/new`` in a group: posts ``<b>Lobby</b>: nobody yet`` (HTML) with a Join button
  (``callback_data="join"``); if a lobby is open, replies to the command with
  ``A game is already open``.
- pressing Join: answers ``Welcome to the game`` and edits the lobby to list the players
  (keeping the button); a second press answers the alert ``You are already in``.
- an inline query: two personal article results (``r5`` "red 5", ``r7`` "red 7"),
  ``cache_time=0``; a chosen result makes it post ``<name> played <title>`` in the lobby's
  group.
- ``/flood`` in private: sends ``1``, ``2``, ``3``, waiting ``retry_after`` and retrying
  whenever Telegram answers 429.
- ``/count`` in private: sends ``count: 0`` and edits it to ``count: 1``, ``2``, ``3``,
  waiting ``retry_after`` and retrying whenever Telegram answers 429 (edits spend the
  chat's messages as sends do).
- ``/sticker`` in a group: sends the sticker :data:`STICKER` by its file id.
- an edited private message: replies ``You edited: <text>``.
- ``/clear`` in the group: deletes the lobby message.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from playground.control import TelegramControl

_names = itertools.count(1)

#: A sticker's file id in Telegram's own form, as a bot written for Telegram sends it.
STICKER = "CAACAgIAAxkBAAEQzllpwQJNaY9bim5ZTmvn9GTweReALAAC6JwAAtEFCEp1FOtm_fs1qDoE"

#: Fields Telegram still sends beside their successors, which the client libraries do not
#: model (each keeps them aside); any other field a library does not know is a mistake.
LEGACY_FIELDS = frozenset({"new_chat_participant", "new_chat_member", "left_chat_participant"})

#: An update with one field no library models (``chat.colour``) beside a legacy one: each
#: library's field check must name the first and pass over the second.
UNKNOWN_FIELD_UPDATE: dict[str, Any] = {
    "update_id": 1,
    "message": {
        "message_id": 1,
        "date": 1,
        "chat": {"id": 1, "type": "private", "first_name": "A", "colour": "red"},
        "text": "x",
        "new_chat_member": {"id": 1, "is_bot": False, "first_name": "A"},
    },
}


@dataclass
class Cast:
    token: str
    bot: dict[str, Any]
    ann: dict[str, Any]
    bob: dict[str, Any]
    group: dict[str, Any]

    @property
    def username(self) -> str:
        return str(self.bot["username"])


def cast(control: TelegramControl, library: str) -> Cast:
    """A fresh bot, two users and a group (with the bot in it) for one run of the script."""
    n = next(_names)
    control.set_limits(True)  # Telegram's numbers, whatever an earlier test left
    made = control.create_bot(f"{library}_{n}_bot", f"{library} UNO")
    ann = control.create_user("Ann", username=f"ann_{library}_{n}")
    bob = control.create_user("Bob", language_code="fa")
    group = control.create_group(
        f"{library} table", [ann["id"], bob["id"]], admins=[ann["id"]], bots=[made["token"]]
    )
    return Cast(made["token"], made["user"], ann, bob, group)


def texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m.get("text", "") for m in messages if not m["deleted"]]


def play(control: TelegramControl, c: Cast) -> None:
    """The user side of the conversation; asserts what the users see."""
    wait = control.wait_until
    ann, bob, group = c.ann["id"], c.bob["id"], c.group["id"]

    # /start in private
    control.start_bot(ann, c.token)
    wait(lambda: "Hello Ann" in texts(control.private_messages(ann, c.token)), what="greeting")

    # /new@bot in the group: the lobby with its button, formatted from HTML
    control.send_message(ann, group, f"/new@{c.username}")

    def lobby() -> dict[str, Any] | None:
        return next(
            (m for m in control.messages(group) if (m.get("text") or "").startswith("Lobby")),
            None,
        )

    message = wait(lobby, what="the lobby")
    assert message["text"] == "Lobby: nobody yet"
    assert message["entities"] == [{"type": "bold", "offset": 0, "length": 5}]
    assert message["from"]["id"] == c.bot["id"]
    assert message["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "join"

    # pressing Join: a toast, then the lobby edited in place
    answer = control.press_button(ann, group, message["message_id"], "join")
    assert answer == {
        "answered": True,
        "text": "Welcome to the game",
        "show_alert": False,
        "url": None,
    }
    edited = wait(lambda: (m := lobby()) and m["text"] == "Lobby: Ann" and m, what="the edit")
    assert edited["edit_date"] >= edited["date"]
    assert edited["history"][0]["text"] == "Lobby: nobody yet"
    assert edited["reply_markup"] == message["reply_markup"]
    again = control.press_button(ann, group, message["message_id"], "join")
    assert again["show_alert"] is True and again["text"] == "You are already in"

    # an unaddressed /new from Bob reaches the bot (it spoke last) and gets a reply
    sent = control.send_message(bob, group, "/new")
    reply = wait(
        lambda: next(
            (m for m in control.messages(group) if m.get("text") == "A game is already open"),
            None,
        ),
        what="the reply to Bob",
    )
    assert reply["reply_to_message"]["message_id"] == sent["message_id"]

    # inline mode: personal results, the chosen one posted via the bot, the bot told
    found = control.inline_query(ann, f"@{c.username} red", chat_id=group)
    assert found["answered"] and found["is_personal"] and found["cache_time"] == 0
    assert [r["id"] for r in found["results"]] == ["r5", "r7"]
    posted = control.choose_inline_result(ann, found["query_id"], "r5", chat_id=group)
    assert posted["via_bot"]["id"] == c.bot["id"] and posted["text"] == "red 5"
    wait(lambda: "Ann played red 5" in texts(control.messages(group)), what="chosen result")

    # flood limits: three private messages in a row, one 429 and its retry
    control.set_limits(True, private_burst=1, private_per_second=1.0)
    try:
        since = control.calls(token=c.token)[-1]["seq"]
        control.send_message(ann, c.bot["id"], "/flood")
        wait(
            lambda: texts(control.private_messages(ann, c.token))[-3:] == ["1", "2", "3"],
            timeout=20,
            what="three messages despite the limit",
        )
        refused = [
            call for call in control.calls(token=c.token, since=since) if call["error_code"] == 429
        ]
        assert refused and refused[0]["description"].startswith("Too Many Requests: retry after ")

        # edits share the limit: an edit refused with 429, retried after retry_after
        since = control.calls(token=c.token)[-1]["seq"]
        control.send_message(ann, c.bot["id"], "/count")
        counted = wait(
            lambda: (
                (m := control.private_messages(ann, c.token)[-1])
                and m.get("text") == "count: 3"
                and m
            ),
            timeout=20,
            what="the count edited to 3 despite the limit",
        )
        assert [old["text"] for old in counted["history"]] == ["count: 0", "count: 1", "count: 2"]
        edits = [
            call
            for call in control.calls(token=c.token, since=since)
            if call["method"].lower() == "editmessagetext"
        ]
        assert any(call["error_code"] == 429 for call in edits)
        assert sum(call["ok"] for call in edits) == 3
    finally:
        control.set_limits(True)

    # a user's edit arrives as edited_message
    said = control.send_message(ann, c.bot["id"], "hello")
    control.edit_message(ann, c.bot["id"], said["message_id"], "hello again")
    wait(
        lambda: "You edited: hello again" in texts(control.private_messages(ann, c.token)),
        what="the reply to the edit",
    )

    # a sticker by file id, as a bot written for Telegram sends one
    control.send_message(ann, group, f"/sticker@{c.username}")
    sticker = wait(
        lambda: next((m for m in control.messages(group) if "sticker" in m), None),
        what="the sticker",
    )
    assert sticker["sticker"]["file_id"] == STICKER and sticker["from"]["id"] == c.bot["id"]

    # /clear deletes the lobby
    control.send_message(ann, group, f"/clear@{c.username}")
    wait(
        lambda: next(
            m for m in control.messages(group) if m["message_id"] == message["message_id"]
        )["deleted"],
        what="the lobby deleted",
    )

    # every call the bot made was understood
    assert all(call["error_code"] in (None, 429) for call in control.calls(token=c.token))
