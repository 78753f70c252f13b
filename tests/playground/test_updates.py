"""Updates and objects as Telegram sends them: privacy mode, commands, forum topics, member
changes, edits, replies, pins, commands lists, long polling and webhooks."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from playground.control import ControlError
from playground.server import tcp_socket
from tests.helpers.telegram_scene import Scene


def kinds(updates: list[dict[str, Any]]) -> list[str]:
    return [next(k for k in u if k != "update_id") for u in updates]


def texts(updates: list[dict[str, Any]]) -> list[str]:
    return [u["message"].get("text", "") for u in updates if "message" in u]


def test_privacy_mode_in_groups(scene: Scene) -> None:
    control, group = scene.control, scene.group["id"]
    ann, bob = scene.ann["id"], scene.bob["id"]
    other = control.create_bot("other_table_bot")
    control.add_member(group, other["user"]["id"])
    scene.updates()
    control.send_message(ann, group, "just chatting")
    control.send_message(ann, group, "/new@other_table_bot")
    control.send_message(ann, group, "/new@scene_bot")
    control.send_message(ann, group, "/new")  # no bot has spoken yet: all of them get it
    sent = scene.ok("sendMessage", chat_id=group, text="Lobby")
    control.send_message(bob, group, "a reply", reply_to=sent["message_id"])
    control.send_message(bob, group, "/join")  # this bot spoke last
    assert texts(scene.updates()) == ["/new@scene_bot", "/new", "a reply", "/join"]
    other_bot = scene.lt.world.bots[other["user"]["id"]]
    assert [u["message"]["text"] for u in other_bot.updates if "text" in u.get("message", {})] == [
        "/new@other_table_bot",
        "/new",
    ]
    # an admin bot sees everything
    admin_group = control.create_group("admins", [ann], admins=[ann, scene.bot["id"]])
    scene.updates()
    control.send_message(ann, admin_group["id"], "small talk")
    assert texts(scene.updates()) == ["small talk"]


def test_command_entities(scene: Scene) -> None:
    said = scene.control.send_message(scene.ann["id"], scene.group["id"], "/play@scene_bot r5 now")
    assert said["entities"] == [{"offset": 0, "length": 15, "type": "bot_command"}]
    message = scene.updates()[-1]["message"]
    assert message["text"] == "/play@scene_bot r5 now" and message["entities"] == said["entities"]
    sent = scene.ok("sendMessage", chat_id=scene.group["id"], text="Type /join or @Ann_1 #uno")
    assert [e["type"] for e in sent["entities"]] == ["bot_command", "mention", "hashtag"]


def test_forum_topics(scene: Scene) -> None:
    control, ann = scene.control, scene.ann["id"]
    forum = control.create_group("forum", [ann], forum=True, bots=[scene.token])
    scene.updates()
    thread = control.create_topic(forum["id"], "Game 1")
    created = scene.updates()[-1]["message"]
    assert created["message_thread_id"] == thread and created["is_topic_message"] is True
    assert created["forum_topic_created"]["name"] == "Game 1"
    assert created["chat"]["is_forum"] is True
    said = control.send_message(ann, forum["id"], "/new", thread_id=thread)
    got = scene.updates()[-1]["message"]
    assert got["message_id"] == said["message_id"]
    assert got["message_thread_id"] == thread and got["is_topic_message"] is True
    assert got["reply_to_message"]["message_id"] == thread  # the topic's first message
    sent = scene.ok("sendMessage", chat_id=forum["id"], message_thread_id=thread, text="Lobby")
    assert sent["message_thread_id"] == thread and sent["is_topic_message"] is True
    assert (
        scene.refused("sendMessage", chat_id=forum["id"], message_thread_id=999, text="x")
        == "Bad Request: message thread not found"
    )
    in_topic = control.messages(forum["id"], thread_id=thread)
    assert [m.get("text") for m in in_topic] == [None, "/new", "Lobby"]


def test_members_coming_and_going(scene: Scene) -> None:
    control, group = scene.control, scene.group["id"]
    carl = control.create_user("Carl")
    control.add_member(group, carl["id"])
    joined = scene.updates()[-1]["message"]
    assert joined["new_chat_members"] == [carl]
    assert kinds(scene.updates()) == []
    control.remove_member(group, carl["id"])
    assert scene.updates()[-1]["message"]["left_chat_member"] == carl
    # the bot itself is removed: my_chat_member, then it may no longer post
    control.remove_member(group, scene.bot["id"])
    update = scene.updates()[0]["my_chat_member"]
    assert update["old_chat_member"]["status"] == "member"
    assert update["new_chat_member"]["status"] == "left"
    assert update["new_chat_member"]["user"]["id"] == scene.bot["id"]


def test_chat_member_updates_only_for_admins_that_ask(scene: Scene) -> None:
    control, ann = scene.control, scene.ann["id"]
    group = control.create_group("admins", [ann], admins=[ann, scene.bot["id"]])
    scene.updates()
    carl = control.create_user("Carl")
    control.add_member(group["id"], carl["id"])
    assert "chat_member" not in kinds(scene.updates())  # not in the default allowed_updates
    scene.ok("getUpdates", allowed_updates=["message", "chat_member"], timeout=0)
    control.remove_member(group["id"], carl["id"])
    got = scene.updates()
    assert kinds(got) == ["chat_member", "message"]
    assert got[0]["chat_member"]["new_chat_member"]["status"] == "left"


def test_edited_message(scene: Scene) -> None:
    said = scene.control.send_message(scene.ann["id"], scene.group["id"], "/new@scene_bot")
    scene.updates()
    scene.control.edit_message(
        scene.ann["id"], scene.group["id"], said["message_id"], "/new@scene_bot 3"
    )
    edited = scene.updates()[-1]["edited_message"]
    assert edited["text"] == "/new@scene_bot 3" and edited["edit_date"] >= edited["date"]


def test_replies(scene: Scene) -> None:
    group = scene.group["id"]
    said = scene.control.send_message(scene.ann["id"], group, "/new@scene_bot")
    reply = scene.ok(
        "sendMessage", chat_id=group, text="ok", reply_parameters={"message_id": said["message_id"]}
    )
    assert reply["reply_to_message"]["message_id"] == said["message_id"]
    assert reply["reply_to_message"]["text"] == "/new@scene_bot"
    assert (
        scene.refused(
            "sendMessage", chat_id=group, text="x", reply_parameters={"message_id": 10**6}
        )
        == "Bad Request: message to be replied not found"
    )
    lenient = {"message_id": 10**6, "allow_sending_without_reply": True}
    assert "reply_to_message" not in scene.ok(
        "sendMessage", chat_id=group, text="x", reply_parameters=lenient
    )
    legacy = scene.ok(
        "sendMessage", chat_id=group, text="y", reply_to_message_id=said["message_id"]
    )
    assert legacy["reply_to_message"]["message_id"] == said["message_id"]


def test_pins(scene: Scene) -> None:
    sent = scene.ok("sendMessage", chat_id=scene.group["id"], text="Lobby")
    assert (
        scene.refused("pinChatMessage", chat_id=scene.group["id"], message_id=sent["message_id"])
        == "Bad Request: not enough rights to manage pinned messages in the chat"
    )
    ann = scene.ann["id"]
    group = scene.control.create_group("pins", [ann], admins=[ann, scene.bot["id"]])["id"]
    lobby = scene.ok("sendMessage", chat_id=group, text="Lobby")
    assert scene.ok("pinChatMessage", chat_id=group, message_id=lobby["message_id"]) is True
    assert scene.ok("getChat", chat_id=group)["pinned_message"]["message_id"] == lobby["message_id"]
    assert scene.control.messages(group)[-1]["pinned_message"]["message_id"] == lobby["message_id"]


def test_chat_and_members(scene: Scene) -> None:
    group = scene.group["id"]
    chat = scene.ok("getChat", chat_id=group)
    assert chat["type"] == "supergroup" and chat["title"] == "table"
    admins = scene.ok("getChatAdministrators", chat_id=group)
    assert [(m["user"]["id"], m["status"]) for m in admins] == [(scene.ann["id"], "creator")]
    assert scene.ok("getChatMember", chat_id=group, user_id=scene.bob["id"])["status"] == "member"
    stranger = scene.control.create_user("Stranger")
    assert scene.ok("getChatMember", chat_id=group, user_id=stranger["id"])["status"] == "left"
    assert scene.ok("getChatMemberCount", chat_id=group) == 3
    assert (
        scene.refused("getChatAdministrators", chat_id=scene.ann["id"])
        == "Bad Request: there are no administrators in the private chat"
    )
    assert scene.ok("sendChatAction", chat_id=group, action="typing") is True
    assert (
        scene.refused("sendChatAction", chat_id=group, action="dancing")
        == "Bad Request: wrong parameter action in request"
    )


def test_commands_per_scope_and_language(scene: Scene) -> None:
    commands = [{"command": "new", "description": "Open a game"}]
    persian = [{"command": "new", "description": "بازی تازه"}]
    groups = {"type": "all_group_chats"}
    assert scene.ok("setMyCommands", commands=commands)
    assert scene.ok("setMyCommands", commands=persian, language_code="fa", scope=groups)
    assert scene.ok("getMyCommands") == commands
    assert scene.ok("getMyCommands", scope=groups, language_code="fa") == persian
    assert scene.ok("getMyCommands", scope=groups) == []
    assert (
        scene.refused("setMyCommands", commands=[{"command": "New Game", "description": "x"}])
        == "Bad Request: BOT_COMMAND_INVALID"
    )
    assert scene.ok("deleteMyCommands")
    assert scene.ok("getMyCommands") == []


def test_get_updates_offsets_and_long_polling(scene: Scene) -> None:
    control, group = scene.control, scene.group["id"]
    control.send_message(scene.ann["id"], group, "/a@scene_bot")
    control.send_message(scene.ann["id"], group, "/b@scene_bot")
    first = scene.ok("getUpdates", timeout=0)
    assert texts(first) == ["/a@scene_bot", "/b@scene_bot"]
    assert scene.ok("getUpdates", timeout=0) == first  # not confirmed yet
    assert texts(scene.ok("getUpdates", offset=first[1]["update_id"], timeout=0)) == [
        "/b@scene_bot"
    ]
    assert scene.ok("getUpdates", offset=first[1]["update_id"] + 1, timeout=0) == []

    def later() -> None:
        time.sleep(0.3)
        control.send_message(scene.ann["id"], group, "/c@scene_bot")

    threading.Thread(target=later).start()
    woken = scene.ok("getUpdates", offset=first[1]["update_id"] + 1, timeout=20)
    assert texts(woken) == ["/c@scene_bot"]


def test_a_second_poller_ends_the_first(scene: Scene) -> None:
    import httpx

    url = f"{scene.lt.bot_api_url}{scene.token}/getUpdates"

    async def both() -> tuple[dict[str, Any], dict[str, Any]]:
        async with httpx.AsyncClient(timeout=30) as http:
            first = asyncio.create_task(http.post(url, json={"timeout": 10}))
            await asyncio.sleep(0.3)
            second = asyncio.create_task(http.post(url, json={"timeout": 0}))
            return (await first).json(), (await second).json()

    first, second = asyncio.run(both())
    assert first == {
        "ok": False,
        "error_code": 409,
        "description": "Conflict: terminated by other getUpdates request; make sure that only "
        "one bot instance is running",
    }
    assert second == {"ok": True, "result": []}


@contextmanager
def receiver(
    statuses: list[int],
    reply: dict[str, Any] | None = None,
    hold: tuple[int, threading.Event] | None = None,
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A webhook endpoint answering with ``statuses`` in turn (then 200, with ``reply`` as a
    JSON body if given); yields its URL and the deliveries it saw (headers and body).
    ``hold``: (a chat, an event): that chat's deliveries are answered once the event is set."""
    seen: list[dict[str, Any]] = []

    async def hook(request: Request) -> Response:
        seen.append({"headers": dict(request.headers), "body": await request.json()})
        chat = seen[-1]["body"].get("message", {}).get("chat", {}).get("id")
        if hold is not None and chat == hold[0]:
            while not hold[1].is_set():
                await asyncio.sleep(0.01)
        if statuses:
            return Response(status_code=statuses.pop(0))
        if reply is not None:
            return Response(json.dumps(reply), media_type="application/json")
        return Response()

    sock = tcp_socket("127.0.0.1")
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(
            Starlette(routes=[Route("/hook", hook, methods=["POST"])]), log_level="warning"
        )
    )
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/hook", seen
    finally:
        server.should_exit = True
        thread.join(10)


def test_webhook_with_secret_and_retries(scene: Scene) -> None:
    assert (
        scene.refused("setWebhook", url="http://127.0.0.1:1/x", secret_token="not/allowed")
        == "Bad Request: secret token contains unallowed characters"
    )
    with receiver([500, 502]) as (url, seen):
        _status, body = scene.call("setWebhook", url=url, secret_token="abc_DEF-123")
        assert body == {"ok": True, "result": True, "description": "Webhook was set"}
        said = scene.control.send_message(scene.ann["id"], scene.group["id"], "/new@scene_bot")
        scene.control.wait_until(lambda: len(seen) >= 3, timeout=20, what="three deliveries")
        assert [d["body"]["message"]["message_id"] for d in seen[:3]] == [said["message_id"]] * 3
        assert {d["headers"]["x-telegram-bot-api-secret-token"] for d in seen} == {"abc_DEF-123"}
        info = scene.ok("getWebhookInfo")
        assert info["url"] == url and info["pending_update_count"] == 0
        assert info["last_error_message"] == "Wrong response from the webhook: 502 Bad Gateway"
        assert scene.ok("deleteWebhook")
    assert scene.ok("getWebhookInfo") == {
        "url": "",
        "has_custom_certificate": False,
        "pending_update_count": 0,
    }


def test_inline_answers_are_cached_as_telegram_caches_them(scene: Scene) -> None:
    ann = scene.ann["id"]
    results = [
        {"type": "article", "id": "1", "title": "t", "input_message_content": {"message_text": "t"}}
    ]

    def ask() -> dict[str, Any]:
        return scene.control.inline_query(ann, "hand", bot=scene.token, timeout=0)

    first = ask()
    query_id = scene.updates()[-1]["inline_query"]["id"]
    assert query_id == first["query_id"]
    assert scene.ok(
        "answerInlineQuery", inline_query_id=query_id, results=results, is_personal=True
    )
    again = ask()  # within the default cache_time of 300 s: no new inline_query
    assert again["answered"] and again["results"] == results and scene.updates() == []
    bob = scene.control.inline_query(scene.bob["id"], "hand", bot=scene.token, timeout=0)
    assert bob["answered"] is False  # personal: Bob's query goes to the bot
    assert kinds(scene.updates()) == ["inline_query"]


def test_a_group_upgraded_to_a_supergroup(scene: Scene) -> None:
    ann = scene.ann["id"]
    old = scene.control.create_group("small", [ann], supergroup=False, bots=[scene.token])
    assert old["type"] == "group" and old["id"] > -(10**12)
    scene.updates()
    new = scene.control.upgrade_group(old["id"])
    assert new["type"] == "supergroup" and str(new["id"]).startswith("-100")
    got = [u["message"] for u in scene.updates()]
    assert got[0]["migrate_to_chat_id"] == new["id"]
    assert got[1]["migrate_from_chat_id"] == old["id"]
    status, body = scene.call("sendMessage", chat_id=old["id"], text="hi")
    assert (status, body) == (
        400,
        {
            "ok": False,
            "error_code": 400,
            "description": "Bad Request: group chat was upgraded to a supergroup chat",
            "parameters": {"migrate_to_chat_id": new["id"]},
        },
    )
    assert scene.ok("sendMessage", chat_id=new["id"], text="hi")["chat"]["id"] == new["id"]


def test_inline_paging_and_button(scene: Scene) -> None:
    ann = scene.ann["id"]
    page = [
        {"type": "article", "id": "1", "title": "t", "input_message_content": {"message_text": "t"}}
    ]
    button = {"text": "How to play", "start_parameter": "rules"}
    first = scene.control.inline_query(ann, "cards", bot=scene.token, timeout=0)
    asked = scene.updates()[-1]["inline_query"]
    assert asked["query"] == "cards" and asked["offset"] == "" and asked["chat_type"] == "sender"
    assert scene.ok(
        "answerInlineQuery",
        inline_query_id=first["query_id"],
        results=page,
        next_offset="1",
        button=button,
        cache_time=0,
    )
    group = scene.group["id"]
    second = scene.control.inline_query(
        ann, "cards", chat_id=group, offset="1", bot=scene.token, timeout=0
    )
    asked = scene.updates()[-1]["inline_query"]
    assert asked["offset"] == "1" and asked["chat_type"] == "supergroup"
    assert second["query_id"] == asked["id"] != first["query_id"]
    answered = scene.lt.world.inline_queries[first["query_id"]].answer
    assert answered is not None
    assert answered["next_offset"] == "1" and answered["button"] == button


def test_switch_pm_parameters_are_the_old_form_of_the_button(scene: Scene) -> None:
    """Before Bot API 6.7 the button above inline results was ``switch_pm_text`` +
    ``switch_pm_parameter``; Telegram still takes them, as the same button."""
    ann = scene.ann["id"]
    found = scene.control.inline_query(ann, "rules", bot=scene.token, timeout=0)
    assert scene.ok(
        "answerInlineQuery",
        inline_query_id=found["query_id"],
        results=[],
        switch_pm_text="How to play",
        switch_pm_parameter="rules",
        cache_time=0,
    )
    answered = scene.lt.world.inline_queries[found["query_id"]].answer
    assert answered is not None
    assert answered["button"] == {"text": "How to play", "start_parameter": "rules"}


def test_inline_messages_with_buttons(scene: Scene) -> None:
    ann, group = scene.ann["id"], scene.group["id"]
    keyboard = {"inline_keyboard": [[{"text": "Draw", "callback_data": "draw"}]]}
    result = {
        "type": "article",
        "id": "game",
        "title": "Start a game",
        "input_message_content": {"message_text": "<b>UNO</b> table", "parse_mode": "HTML"},
        "reply_markup": keyboard,
    }
    found = scene.control.inline_query(ann, "", chat_id=group, bot=scene.token, timeout=0)
    assert scene.ok("answerInlineQuery", inline_query_id=found["query_id"], results=[result])
    posted = scene.control.choose_inline_result(ann, found["query_id"], "game", chat_id=group)
    assert posted["text"] == "UNO table" and posted["via_bot"]["id"] == scene.bot["id"]
    got = scene.updates()
    chosen = next(u["chosen_inline_result"] for u in got if "chosen_inline_result" in u)
    inline_id = chosen["inline_message_id"]
    assert chosen["result_id"] == "game" and chosen["from"]["id"] == ann
    assert any(u.get("message", {}).get("via_bot") for u in got)  # privacy lets it through

    scene.control.press_button(ann, group, posted["message_id"], "draw", timeout=0)
    query = scene.updates()[-1]["callback_query"]
    assert query["inline_message_id"] == inline_id and "message" not in query
    assert scene.ok("editMessageText", inline_message_id=inline_id, text="Ann drew") is True
    assert scene.control.messages(group)[-1]["text"] == "Ann drew"
    assert (
        scene.refused("editMessageText", inline_message_id="nope", text="x")
        == "Bad Request: MESSAGE_ID_INVALID"
    )


def test_a_modified_client_presses_any_data(scene: Scene) -> None:
    """The official apps press only the buttons a message shows now; a modified client can
    send any callback data for a bot's message it sees (an old keyboard's, or made up), and
    Telegram hands it to the bot as it came."""
    ann, group = scene.ann["id"], scene.group["id"]
    old = {"inline_keyboard": [[{"text": "Play", "callback_data": "play|1"}]]}
    sent = scene.ok("sendMessage", chat_id=group, text="hand", reply_markup=old)
    new = {"inline_keyboard": [[{"text": "Play", "callback_data": "play|2"}]]}
    scene.ok(
        "editMessageReplyMarkup", chat_id=group, message_id=sent["message_id"], reply_markup=new
    )
    scene.updates()
    with pytest.raises(ControlError) as refused:
        scene.control.press_button(ann, group, sent["message_id"], "play|1", timeout=0)
    assert refused.value.status == 404  # as the apps do: that button is gone
    for data in ("play|1", "made up ✓"):
        scene.control.press_button(ann, group, sent["message_id"], data, timeout=0, forged=True)
        query = scene.updates()[-1]["callback_query"]
        assert query["data"] == data and query["message"]["message_id"] == sent["message_id"]
        assert query["from"]["id"] == ann


def test_a_user_link_names_the_whole_user(scene: Scene) -> None:
    ann = scene.ann
    sent = scene.ok(
        "sendMessage",
        chat_id=scene.group["id"],
        text=f'Your turn, <a href="tg://user?id={ann["id"]}">Ann</a>',
        parse_mode="HTML",
    )
    assert sent["entities"] == [{"type": "text_mention", "user": ann, "offset": 11, "length": 3}]
    assert (
        scene.refused(
            "sendMessage",
            chat_id=scene.group["id"],
            text="[nobody](tg://user?id=1)",
            parse_mode="MarkdownV2",
        )
        == "Bad Request: can't parse entities: user not found"
    )


def test_promotions(scene: Scene) -> None:
    control, group = scene.control, scene.group["id"]
    control.set_admin(group, scene.bot["id"])
    update = scene.updates()[-1]["my_chat_member"]
    assert update["new_chat_member"]["status"] == "administrator"
    assert update["new_chat_member"]["can_pin_messages"] is True
    assert update["from"]["id"] == scene.ann["id"]  # the owner
    scene.ok("getUpdates", allowed_updates=["message", "chat_member", "my_chat_member"], timeout=0)
    control.set_admin(group, scene.bob["id"])
    promoted = scene.updates()[-1]["chat_member"]
    assert promoted["new_chat_member"]["user"]["id"] == scene.bob["id"]
    assert promoted["old_chat_member"]["status"] == "member"
    admins = scene.ok("getChatAdministrators", chat_id=group)
    assert {m["user"]["id"] for m in admins} == {scene.ann["id"], scene.bob["id"], scene.bot["id"]}
    control.set_admin(group, scene.bob["id"], admin=False)
    assert scene.ok("getChatMember", chat_id=group, user_id=scene.bob["id"])["status"] == "member"


def test_a_slow_webhook_delivery_holds_back_only_its_own_chat(scene: Scene) -> None:
    """Telegram delivers over several connections (``max_connections``); one chat's updates
    come one at a time, in order."""
    group = scene.group["id"]
    release = threading.Event()

    def said(chat: int) -> list[str]:
        return [
            d["body"]["message"]["text"] for d in seen if d["body"]["message"]["chat"]["id"] == chat
        ]

    with receiver([], hold=(group, release)) as (url, seen):
        scene.ok("setWebhook", url=url)
        scene.control.send_message(scene.ann["id"], group, "/one@scene_bot")
        scene.control.send_message(scene.bob["id"], group, "/two@scene_bot")
        scene.control.send_message(scene.ann["id"], scene.bot["id"], "meanwhile")
        scene.control.wait_until(
            lambda: said(scene.ann["id"]) == ["meanwhile"],
            what="the private chat's update while the group's first is held",
        )
        assert said(group) == ["/one@scene_bot"]  # its second waits for the first
        release.set()
        scene.control.wait_until(lambda: len(said(group)) == 2, what="the group's second")
        assert said(group) == ["/one@scene_bot", "/two@scene_bot"]
        assert scene.ok("getWebhookInfo")["pending_update_count"] == 0
        scene.ok("deleteWebhook")


def test_a_webhook_answer_may_carry_a_call(scene: Scene) -> None:
    group = scene.group["id"]
    reply = {"method": "sendMessage", "chat_id": group, "text": "answered in the hook"}
    with receiver([], reply) as (url, seen):
        scene.ok("setWebhook", url=url)
        scene.control.send_message(scene.ann["id"], group, "/new@scene_bot")
        scene.control.wait_until(
            lambda: any(
                m.get("text") == "answered in the hook" for m in scene.control.messages(group)
            ),
            what="the call in the webhook's answer",
        )
        scene.ok("deleteWebhook")
    assert seen[0]["body"]["message"]["text"] == "/new@scene_bot"
