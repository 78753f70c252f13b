"""Telegram's refusals, each with Telegram's own description, over real HTTP."""

from __future__ import annotations

import json
from typing import Any

from playground.errors import MESSAGE_NOT_MODIFIED, QUERY_TOO_OLD
from tests.helpers.telegram_scene import JOIN, Scene


def test_unknown_token_and_method(scene: Scene) -> None:
    response = scene.http.post(f"{scene.lt.bot_api_url}1:nope/getMe")
    assert response.status_code == 401
    assert response.json() == {"ok": False, "error_code": 401, "description": "Unauthorized"}
    # a method not served is no wrong token: 501 with a description, never 404
    assert scene.call("sendVoice", chat_id=scene.group["id"], voice="x") == (
        501,
        {
            "ok": False,
            "error_code": 501,
            "description": "Not Implemented: the local Telegram does not serve the method "
            "'sendVoice'",
        },
    )
    assert scene.call("noSuchMethod")[0] == 501
    assert scene.ok("GETME")["id"] == scene.bot["id"]  # method names ignore case


def test_callback_data_over_64_bytes(scene: Scene) -> None:
    def keyboard(data: str) -> dict[str, Any]:
        return {"inline_keyboard": [[{"text": "x", "callback_data": data}]]}

    group = scene.group["id"]
    assert scene.ok("sendMessage", chat_id=group, text="a", reply_markup=keyboard("é" * 32))
    assert (
        scene.refused("sendMessage", chat_id=group, text="a", reply_markup=keyboard("é" * 33))
        == "Bad Request: BUTTON_DATA_INVALID"
    )
    assert (
        scene.refused("sendMessage", chat_id=group, text="a", reply_markup=keyboard(""))
        == "Bad Request: BUTTON_DATA_INVALID"
    )
    plain = {"inline_keyboard": [[{"text": "x"}]]}
    assert scene.refused("sendMessage", chat_id=group, text="a", reply_markup=plain) == (
        "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the "
        "inline keyboard"
    )


def test_text_empty_or_too_long(scene: Scene) -> None:
    group = scene.group["id"]
    for text in ("", "   \n "):
        assert (
            scene.refused("sendMessage", chat_id=group, text=text)
            == "Bad Request: message text is empty"
        )
    assert scene.refused("sendMessage", chat_id=group) == "Bad Request: message text is empty"
    assert scene.ok("sendMessage", chat_id=group, text="x" * 4096)["text"] == "x" * 4096
    assert (
        scene.refused("sendMessage", chat_id=group, text="x" * 4097)
        == "Bad Request: message is too long"
    )
    assert (
        scene.refused("sendMessage", chat_id=group, text="<b></b>", parse_mode="HTML")
        == "Bad Request: message text is empty"
    )


def test_markup_telegram_cannot_parse(scene: Scene) -> None:
    group = scene.group["id"]
    assert scene.refused("sendMessage", chat_id=group, text="<b>bold", parse_mode="HTML") == (
        "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\""
    )
    assert scene.refused("sendMessage", chat_id=group, text="<x>y</x>", parse_mode="HTML") == (
        'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0'
    )
    assert scene.refused(
        "sendMessage", chat_id=group, text="Score: 1.5", parse_mode="MarkdownV2"
    ) == (
        "Bad Request: can't parse entities: Character '.' is reserved and must be escaped "
        "with the preceding '\\'"
    )
    sent = scene.ok("sendMessage", chat_id=group, text="*UNO*\\!", parse_mode="MarkdownV2")
    assert sent["text"] == "UNO!"
    assert sent["entities"] == [{"type": "bold", "offset": 0, "length": 3}]


def test_edit_to_identical_content(scene: Scene) -> None:
    group = scene.group["id"]
    sent = scene.ok("sendMessage", chat_id=group, text="Lobby", reply_markup=JOIN)
    mid = sent["message_id"]
    assert (
        scene.refused(
            "editMessageText", chat_id=group, message_id=mid, text="Lobby", reply_markup=JOIN
        )
        == f"Bad Request: {MESSAGE_NOT_MODIFIED}"
    )
    assert (
        scene.refused("editMessageReplyMarkup", chat_id=group, message_id=mid, reply_markup=JOIN)
        == f"Bad Request: {MESSAGE_NOT_MODIFIED}"
    )
    # the same text without the keyboard is a change: Telegram drops the keyboard
    edited = scene.ok("editMessageText", chat_id=group, message_id=mid, text="Lobby")
    assert "reply_markup" not in edited and edited["edit_date"] >= sent["date"]
    view = scene.control.messages(group)[-1]
    assert view["history"][0]["reply_markup"] == JOIN and "reply_markup" not in view


def test_edit_or_delete_a_message_that_is_not_there_or_not_ours(scene: Scene) -> None:
    group = scene.group["id"]
    said = scene.control.send_message(scene.ann["id"], group, "hello")
    for method in ("editMessageText", "editMessageReplyMarkup"):
        params = {"chat_id": group, "message_id": 10**6, "text": "x", "reply_markup": JOIN}
        assert scene.refused(method, **params) == "Bad Request: message to edit not found"
        params["message_id"] = said["message_id"]
        assert scene.refused(method, **params) == "Bad Request: message can't be edited"
    assert (
        scene.refused("deleteMessage", chat_id=group, message_id=10**6)
        == "Bad Request: message to delete not found"
    )
    assert (
        scene.refused("deleteMessage", chat_id=group, message_id=said["message_id"])
        == "Bad Request: message can't be deleted"
    )
    mine = scene.ok("sendMessage", chat_id=group, text="mine")
    assert scene.ok("deleteMessage", chat_id=group, message_id=mine["message_id"]) is True
    assert (
        scene.refused("deleteMessage", chat_id=group, message_id=mine["message_id"])
        == "Bad Request: message to delete not found"
    )
    assert (
        scene.refused("editMessageText", chat_id=group, message_id=mine["message_id"], text="y")
        == "Bad Request: message to edit not found"
    )
    # in a private chat a bot may delete the user's messages too
    private = scene.control.send_message(scene.ann["id"], scene.bot["id"], "bye")
    assert scene.ok("deleteMessage", chat_id=scene.ann["id"], message_id=private["message_id"])


def _inline_query(scene: Scene) -> str:
    found = scene.control.inline_query(scene.ann["id"], "cards", bot=scene.token, timeout=0)
    assert found["answered"] is False
    return str(found["query_id"])


def _article(result_id: str) -> dict[str, Any]:
    return {
        "type": "article",
        "id": result_id,
        "title": result_id,
        "input_message_content": {"message_text": result_id},
    }


def test_inline_answers_telegram_refuses(scene: Scene) -> None:
    query_id = _inline_query(scene)
    too_many = [_article(str(n)) for n in range(51)]
    assert (
        scene.refused("answerInlineQuery", inline_query_id=query_id, results=too_many)
        == "Bad Request: RESULTS_TOO_MUCH"
    )
    twice = [_article("a"), _article("a")]
    assert (
        scene.refused("answerInlineQuery", inline_query_id=query_id, results=twice)
        == "Bad Request: RESULT_ID_DUPLICATE"
    )
    fifty = [_article(str(n)) for n in range(50)]
    assert scene.ok("answerInlineQuery", inline_query_id=query_id, results=fifty, cache_time=0)
    assert (
        scene.refused("answerInlineQuery", inline_query_id=query_id, results=fifty)
        == f"Bad Request: {QUERY_TOO_OLD}"
    )


def test_inline_query_answered_after_it_expired(scene: Scene) -> None:
    world = scene.lt.world
    query_id = _inline_query(scene)
    saved, world.inline_query_seconds = world.inline_query_seconds, 0.0
    try:
        assert (
            scene.refused("answerInlineQuery", inline_query_id=query_id, results=[_article("a")])
            == f"Bad Request: {QUERY_TOO_OLD}"
        )
    finally:
        world.inline_query_seconds = saved


def _pressed(scene: Scene) -> str:
    group = scene.group["id"]
    sent = scene.ok("sendMessage", chat_id=group, text="Lobby", reply_markup=JOIN)
    answer = scene.control.press_button(
        scene.ann["id"], group, sent["message_id"], "join", timeout=0
    )
    assert answer["answered"] is False
    query = scene.updates()[-1]["callback_query"]
    assert query["data"] == "join" and query["message"]["message_id"] == sent["message_id"]
    return str(query["id"])


def test_callback_query_answered_twice_or_too_late(scene: Scene) -> None:
    query_id = _pressed(scene)
    assert scene.ok("answerCallbackQuery", callback_query_id=query_id, text="hi") is True
    assert (
        scene.refused("answerCallbackQuery", callback_query_id=query_id)
        == f"Bad Request: {QUERY_TOO_OLD}"
    )
    world = scene.lt.world
    late = _pressed(scene)
    saved, world.callback_query_seconds = world.callback_query_seconds, 0.0
    try:
        assert (
            scene.refused("answerCallbackQuery", callback_query_id=late)
            == f"Bad Request: {QUERY_TOO_OLD}"
        )
    finally:
        world.callback_query_seconds = saved


def test_private_messages_need_a_started_unblocked_bot(scene: Scene) -> None:
    assert (
        scene.refused("sendMessage", chat_id=scene.bob["id"], text="hi")
        == "Forbidden: bot can't initiate conversation with a user"
    )
    assert scene.ok("sendMessage", chat_id=scene.ann["id"], text="hi")
    scene.control.block_bot(scene.ann["id"], scene.token)
    assert (
        scene.refused("sendMessage", chat_id=scene.ann["id"], text="hi")
        == "Forbidden: bot was blocked by the user"
    )
    kinds = [
        u["my_chat_member"]["new_chat_member"]["status"]
        for u in scene.updates()
        if "my_chat_member" in u
    ]
    assert kinds == ["kicked"]
    scene.control.start_bot(scene.ann["id"], scene.token)
    assert scene.ok("sendMessage", chat_id=scene.ann["id"], text="welcome back")
    assert scene.refused("sendMessage", chat_id=10**15, text="hi") == "Bad Request: chat not found"


def test_edits_in_the_private_chat_of_a_user_who_blocked_the_bot(scene: Scene) -> None:
    """Telegram refuses an edit there as it refuses a message (403, the same description);
    unblocking (without /start) lets both through again, and tells the bot."""
    ann = scene.ann["id"]
    sent = scene.ok("sendMessage", chat_id=ann, text="your hand", reply_markup=JOIN)
    scene.updates()
    scene.control.block_bot(ann, scene.token)
    target = {"chat_id": ann, "message_id": sent["message_id"]}
    blocked = "Forbidden: bot was blocked by the user"
    assert scene.call("editMessageText", **target, text="new hand")[0] == 403
    assert scene.refused("editMessageText", **target, text="new hand") == blocked
    assert scene.refused("editMessageReplyMarkup", **target) == blocked
    # Checked before the message: a missing one is not looked for.
    assert scene.refused("editMessageText", chat_id=ann, message_id=10**6, text="x") == blocked
    shown = scene.control.private_messages(ann, scene.token)[-1]
    assert shown["text"] == "your hand" and shown["history"] == []
    scene.control.unblock_bot(ann, scene.token)
    assert scene.ok("editMessageText", **target, text="new hand")["text"] == "new hand"
    assert scene.ok("sendMessage", chat_id=ann, text="welcome back")
    statuses = [
        (
            u["my_chat_member"]["old_chat_member"]["status"],
            u["my_chat_member"]["new_chat_member"]["status"],
        )
        for u in scene.updates()
        if "my_chat_member" in u
    ]
    assert statuses == [("member", "kicked"), ("kicked", "member")]
    # No /start was sent to unblock: Ann's only message is the scene's first /start.
    said = [m["text"] for m in scene.control.private_messages(ann, scene.token)]
    assert [t for t in said if t.startswith("/")] == ["/start"]


def test_groups_the_bot_is_not_in(scene: Scene) -> None:
    other = scene.control.create_group("other", [scene.ann["id"]])
    assert (
        scene.refused("sendMessage", chat_id=other["id"], text="hi")
        == "Forbidden: bot is not a member of the supergroup chat"
    )
    basic = scene.control.create_group("basic", [scene.ann["id"]], supergroup=False)
    assert (
        scene.refused("sendMessage", chat_id=basic["id"], text="hi")
        == "Forbidden: bot is not a member of the group chat"
    )
    scene.control.remove_member(scene.group["id"], scene.bot["id"])
    assert (
        scene.refused("sendMessage", chat_id=scene.group["id"], text="hi")
        == "Forbidden: bot is not a member of the supergroup chat"
    )


def _first_refusal(scene: Scene, chat_ids: list[int], count: int) -> tuple[int, dict[str, Any]]:
    for n in range(count):
        status, body = scene.call("sendMessage", chat_id=chat_ids[n % len(chat_ids)], text=str(n))
        if status == 429:
            return n, body
        assert body["ok"], body
    raise AssertionError(f"no 429 in {count} messages")


def test_429_past_20_messages_a_minute_in_a_group(scene: Scene) -> None:
    n, body = _first_refusal(scene, [scene.group["id"]], 40)
    assert n >= 20
    retry = body["parameters"]["retry_after"]
    assert 1 <= retry <= 3
    assert body == {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {retry}",
        "parameters": {"retry_after": retry},
    }
    # another group is not held up
    other = scene.control.create_group("other", [scene.ann["id"]], bots=[scene.token])
    assert scene.ok("sendMessage", chat_id=other["id"], text="fine")


def test_429_in_a_private_chat_about_one_a_second(scene: Scene) -> None:
    n, body = _first_refusal(scene, [scene.ann["id"]], 20)
    assert n >= 3 and body["parameters"]["retry_after"] == 1


def test_429_past_the_overall_rate(scene: Scene) -> None:
    # 30 a second is more than one client in a row can send here; a lower setting shows the
    # same refusal (test_limits.py checks the default numbers on a fake clock)
    scene.control.set_limits(True, group_per_minute=10_000, global_per_second=5)
    groups = [
        scene.control.create_group(f"g{n}", [scene.ann["id"]], bots=[scene.token])["id"]
        for n in range(4)
    ]
    n, body = _first_refusal(scene, groups, 200)
    assert n >= 5 and body["parameters"]["retry_after"] == 1


def test_limits_off_when_a_test_says_so(scene: Scene) -> None:
    scene.control.set_limits(False)
    for n in range(40):
        assert scene.ok("sendMessage", chat_id=scene.group["id"], text=str(n))


def test_get_updates_conflicts(scene: Scene) -> None:
    scene.ok("setWebhook", url="http://127.0.0.1:9/hook")
    assert scene.refused("getUpdates") == (
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to "
        "delete the webhook first"
    )
    _status, body = scene.call("deleteWebhook")
    assert body == {"ok": True, "result": True, "description": "Webhook was deleted"}
    assert scene.ok("getUpdates") == []


def test_form_and_query_string_parameters(scene: Scene) -> None:
    url = f"{scene.lt.bot_api_url}{scene.token}/sendMessage"
    markup = json.dumps(JOIN)
    form = scene.http.post(
        url, data={"chat_id": str(scene.group["id"]), "text": "form", "reply_markup": markup}
    ).json()
    assert form["ok"] and form["result"]["reply_markup"] == JOIN
    multipart = scene.http.post(
        url, files={"chat_id": (None, str(scene.group["id"])), "text": (None, "multipart")}
    ).json()
    assert multipart["ok"] and multipart["result"]["text"] == "multipart"
    query = scene.http.get(url, params={"chat_id": scene.group["id"], "text": "query"}).json()
    assert query["ok"] and query["result"]["text"] == "query"
    bare = json.dumps({"chat_id": scene.group["id"], "text": "bare"}).encode()
    untyped = scene.http.post(url, content=bare).json()  # a JSON body with no content type
    assert untyped["ok"] and untyped["result"]["text"] == "bare"
    broken = scene.http.post(
        url, content=b'{"chat_id": 1,', headers={"content-type": "application/json"}
    )
    assert broken.status_code == 400 and broken.json()["ok"] is False


def test_entities_telegram_cannot_parse(scene: Scene) -> None:
    group = scene.group["id"]

    def send(entities: Any) -> str:
        return scene.refused("sendMessage", chat_id=group, text="hello", entities=entities)

    assert send([{"type": "shiny", "offset": 0, "length": 2}]) == (
        "Bad Request: can't parse MessageEntity: Unsupported type specified"
    )
    assert send([{"type": "text_link", "offset": 0, "length": 2}]) == (
        "Bad Request: can't parse MessageEntity: Can't find field \"url\""
    )
    assert send([{"type": "bold", "length": 2}]) == (
        "Bad Request: can't parse MessageEntity: Can't find field \"offset\""
    )
    given = [
        {"type": "bold", "offset": 0, "length": 99},
        {"type": "italic", "offset": 1, "length": 1},
    ]
    sent = scene.ok("sendMessage", chat_id=group, text="hello", entities=given)
    assert sent["entities"] == [
        {"type": "bold", "offset": 0, "length": 5},  # cut to the text
        {"type": "italic", "offset": 1, "length": 1},
    ]
