"""Which Bot API calls spend a chat's flood budget, over real HTTP: sends, edits and
deletions share it (tdlib/td#2592, tdlib/telegram-bot-api#648); answers to callback and
inline queries do not."""

from __future__ import annotations

from playground.bot_api import METHODS
from playground.limits import METERED_METHODS
from tests.helpers.telegram_scene import JOIN, Scene

TOO_MANY = "Too Many Requests: retry after "


def test_edits_and_deletions_spend_the_groups_messages(scene: Scene) -> None:
    group = scene.group["id"]
    scene.control.set_limits(True, group_per_minute=4)
    first = scene.ok("sendMessage", chat_id=group, text="Lobby", reply_markup=JOIN)
    second = scene.ok("sendMessage", chat_id=group, text="Table")
    scene.ok(
        "editMessageText",
        chat_id=group,
        message_id=first["message_id"],
        text="Lobby: Ann",
        reply_markup=JOIN,
    )
    scene.ok("deleteMessage", chat_id=group, message_id=second["message_id"])
    # the bucket is empty: every metered method is refused, and nothing changes
    for method, params in [
        ("sendMessage", {"text": "more"}),
        ("editMessageText", {"message_id": first["message_id"], "text": "Lobby: Bob"}),
        ("editMessageReplyMarkup", {"message_id": first["message_id"]}),
        ("deleteMessage", {"message_id": first["message_id"]}),
        ("deleteMessages", {"message_ids": [first["message_id"]]}),
    ]:
        status, body = scene.call(method, chat_id=group, **params)
        assert status == 429, (method, body)
        assert body["description"].startswith(TOO_MANY) and body["parameters"]["retry_after"] > 0
    lobby = next(m for m in scene.control.messages(group) if m["message_id"] == first["message_id"])
    assert lobby["text"] == "Lobby: Ann" and not lobby["deleted"] and lobby["reply_markup"]


def test_a_refused_edit_spends_nothing(scene: Scene) -> None:
    group = scene.group["id"]
    scene.control.set_limits(True, group_per_minute=2)
    sent = scene.ok("sendMessage", chat_id=group, text="Lobby")
    unchanged = scene.refused(
        "editMessageText", chat_id=group, message_id=sent["message_id"], text="Lobby"
    )
    assert unchanged.startswith("Bad Request: message is not modified")
    scene.ok("editMessageText", chat_id=group, message_id=sent["message_id"], text="Lobby: Ann")


def test_private_edits_share_the_private_chats_budget(scene: Scene) -> None:
    ann = scene.ann["id"]
    scene.control.set_limits(True, private_burst=2, private_per_second=0.01)
    sent = scene.ok("sendMessage", chat_id=ann, text="hand")
    scene.ok("editMessageText", chat_id=ann, message_id=sent["message_id"], text="hand: 7 cards")
    status, _ = scene.call("editMessageText", chat_id=ann, message_id=sent["message_id"], text="x")
    assert status == 429


def test_answers_to_queries_are_not_metered(scene: Scene) -> None:
    group = scene.group["id"]
    scene.control.set_limits(True, group_per_minute=1)
    sent = scene.ok("sendMessage", chat_id=group, text="Lobby", reply_markup=JOIN)
    assert scene.call("sendMessage", chat_id=group, text="more")[0] == 429
    for _ in range(3):
        scene.control.press_button(scene.ann["id"], group, sent["message_id"], "join", timeout=0)
        query = scene.updates()[-1]["callback_query"]
        assert scene.ok("answerCallbackQuery", callback_query_id=query["id"], text="in") is True
    for n in range(3):
        found = scene.control.inline_query(
            scene.ann["id"], f"cards {n}", chat_id=group, bot=scene.token, timeout=0
        )
        article = {
            "type": "article",
            "id": "a",
            "title": "a",
            "input_message_content": {"message_text": "a"},
        }
        assert scene.ok(
            "answerInlineQuery", inline_query_id=found["query_id"], results=[article], cache_time=0
        )


def test_an_inline_messages_edit_spends_the_chat_it_was_posted_in(scene: Scene) -> None:
    """ "editing of the message in question is still subject to per chat limits"
    (tdlib/telegram-bot-api#648, of an inline message's edits)."""
    ann, group = scene.ann["id"], scene.group["id"]
    result = {
        "type": "article",
        "id": "game",
        "title": "Start a game",
        "input_message_content": {"message_text": "UNO table"},
        "reply_markup": JOIN,
    }
    found = scene.control.inline_query(ann, "", chat_id=group, bot=scene.token, timeout=0)
    assert scene.ok("answerInlineQuery", inline_query_id=found["query_id"], results=[result])
    scene.control.choose_inline_result(ann, found["query_id"], "game", chat_id=group)
    chosen = next(u["chosen_inline_result"] for u in scene.updates() if "chosen_inline_result" in u)
    scene.control.set_limits(True, group_per_minute=1)
    assert scene.ok("sendMessage", chat_id=group, text="Ann's turn")
    status, body = scene.call(
        "editMessageText", inline_message_id=chosen["inline_message_id"], text="Ann drew"
    )
    assert status == 429 and body["parameters"]["retry_after"] > 0


def test_every_metered_method_is_served() -> None:
    assert {name.lower() for name in METERED_METHODS} <= set(METHODS)
