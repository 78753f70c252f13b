"""Mini Apps as Telegram's clients open them, over real HTTP: each way of opening, the
launch parameters in the URL fragment, initData signed with the bot's token (accepted by
aiogram's validator, an implementation nobody here wrote; refused once tampered with), the
``web_app`` button refused outside private chats, the menu button, answerWebAppQuery and
sendData."""

from __future__ import annotations

import json
import secrets
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from aiogram.utils.web_app import safe_parse_webapp_init_data

from playground.control import ControlError
from tests.helpers.telegram_scene import Scene

APP = "https://uno.example.org/app"


def web_app_keyboard(text: str = "Open table") -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": text, "web_app": {"url": APP}}]]}


def fragment(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).fragment, keep_blank_values=True))


def checked(scene: Scene, launch: dict[str, Any], token: str | None = None) -> Any:
    """The launch's initData through aiogram's validator, after the URL's own checks."""
    params = fragment(launch["url"])
    assert params["tgWebAppData"] == launch["init_data"]
    assert params["tgWebAppVersion"] and params["tgWebAppPlatform"] == "weba"
    assert json.loads(params["tgWebAppThemeParams"])["bg_color"].startswith("#")
    assert launch["url"].startswith(APP)
    data = safe_parse_webapp_init_data(token or scene.token, launch["init_data"])
    assert data.user is not None and data.user.id == scene.ann["id"]
    return data


def tampered(init_data: str, **changes: str) -> str:
    fields = dict(parse_qsl(init_data, keep_blank_values=True))
    fields.update(changes)
    return urlencode(fields)


def test_an_inline_web_app_button_opens_the_app_with_signed_launch_data(scene: Scene) -> None:
    ann = scene.ann["id"]
    sent = scene.ok("sendMessage", chat_id=ann, text="Your table", reply_markup=web_app_keyboard())
    launch = scene.control.open_web_app(
        ann, "inline_button", chat_id=scene.bot["id"], message_id=sent["message_id"]
    )
    data = checked(scene, launch)
    assert data.query_id == launch["query_id"] and data.auth_date.timestamp() > 0
    assert data.user.first_name == "Ann" and data.user.allows_write_to_pm is True
    # the independent validator refuses a copy changed in any way, or signed for another bot
    other = json.dumps({"id": scene.bob["id"], "first_name": "Bob"})
    for forged in (
        tampered(launch["init_data"], user=other),
        tampered(launch["init_data"], auth_date="1"),
        tampered(launch["init_data"], hash="0" * 64),
    ):
        with pytest.raises(ValueError, match="Invalid init data signature"):
            safe_parse_webapp_init_data(scene.token, forged)
    with pytest.raises(ValueError, match="Invalid init data signature"):
        safe_parse_webapp_init_data("1:another-bots-token", launch["init_data"])


def test_a_web_app_button_is_refused_outside_private_chats(scene: Scene) -> None:
    group = scene.group["id"]
    for markup in (
        web_app_keyboard(),
        {"keyboard": [[{"text": "Open", "web_app": {"url": APP}}]]},
    ):
        assert (
            scene.refused("sendMessage", chat_id=group, text="table", reply_markup=markup)
            == "Bad Request: BUTTON_TYPE_INVALID"
        )
    sent = scene.ok("sendMessage", chat_id=group, text="table")
    assert (
        scene.refused(
            "editMessageReplyMarkup",
            chat_id=group,
            message_id=sent["message_id"],
            reply_markup=web_app_keyboard(),
        )
        == "Bad Request: BUTTON_TYPE_INVALID"
    )
    # nor may an inline result carry one: the chat it lands in is not known
    found = scene.control.inline_query(scene.ann["id"], "x", bot=scene.token, timeout=0)
    article = {
        "type": "article",
        "id": "a",
        "title": "a",
        "input_message_content": {"message_text": "a"},
        "reply_markup": web_app_keyboard(),
    }
    assert (
        scene.refused("answerInlineQuery", inline_query_id=found["query_id"], results=[article])
        == "Bad Request: BUTTON_TYPE_INVALID"
    )
    assert scene.ok(
        "sendMessage",
        chat_id=scene.ann["id"],
        text="table",
        reply_markup={"keyboard": [[{"text": "Open", "web_app": {"url": APP}}]]},
    )


def test_a_keyboard_button_app_sends_data_to_the_bot(scene: Scene) -> None:
    ann = scene.ann["id"]
    keyboard = {"keyboard": [[{"text": "Pick a colour", "web_app": {"url": APP}}]]}
    sent = scene.ok("sendMessage", chat_id=ann, text="Colour?", reply_markup=keyboard)
    launch = scene.control.open_web_app(
        ann, "keyboard_button", chat_id=scene.bot["id"], message_id=sent["message_id"]
    )
    data = checked(scene, launch)
    assert data.query_id is None and launch["query_id"] is None  # no answerWebAppQuery
    scene.updates()
    scene.control.send_web_app_data(ann, launch["launch_id"], "red")
    [update] = scene.updates()
    assert update["message"]["web_app_data"] == {"data": "red", "button_text": "Pick a colour"}
    assert update["message"]["from"]["id"] == ann
    with pytest.raises(ControlError) as again:
        scene.control.send_web_app_data(ann, launch["launch_id"], "blue")
    assert again.value.status == 409  # the app closed when it sent its data


def test_the_menu_button_is_set_per_chat_and_opens_the_app(scene: Scene) -> None:
    ann, bob = scene.ann["id"], scene.bob["id"]
    assert scene.ok("getChatMenuButton") == {"type": "default"}
    menu = {"type": "web_app", "text": "Play", "web_app": {"url": APP}}
    assert scene.ok("setChatMenuButton", chat_id=ann, menu_button=menu) is True
    assert scene.ok("getChatMenuButton", chat_id=ann) == menu
    assert scene.ok("getChatMenuButton") == {"type": "default"}
    assert scene.refused("setChatMenuButton", chat_id=scene.group["id"], menu_button=menu) == (
        "Bad Request: invalid chat_id specified"
    )
    launch = scene.control.open_web_app(ann, "menu_button", chat_id=scene.bot["id"])
    data = checked(scene, launch)
    assert data.query_id == launch["query_id"]
    with pytest.raises(ControlError) as plain:
        scene.control.open_web_app(bob, "menu_button", chat_id=scene.bot["id"])
    assert plain.value.status == 404  # Bob's chat shows the commands, no app
    assert scene.ok("setChatMenuButton", menu_button={"type": "commands"}) is True
    assert scene.ok("getChatMenuButton", chat_id=bob) == {"type": "commands"}


def test_the_inline_results_button_opens_the_app(scene: Scene) -> None:
    ann = scene.ann["id"]
    found = scene.control.inline_query(ann, "hand", bot=scene.token, timeout=0)
    button = {"text": "Open my hand", "web_app": {"url": APP}}
    assert scene.ok(
        "answerInlineQuery", inline_query_id=found["query_id"], results=[], button=button
    )
    launch = scene.control.open_web_app(ann, "inline_results_button", query_id=found["query_id"])
    data = checked(scene, launch)
    assert data.query_id is None  # the app goes back to inline mode itself


def test_a_direct_link_opens_a_registered_app_with_its_start_parameter(scene: Scene) -> None:
    ann, group = scene.ann["id"], scene.group["id"]
    # a username of its own (the scene's bots share theirs): the link names the bot by it
    made = scene.control.create_bot(f"tables_{secrets.token_hex(4)}_bot")
    scene.control.register_web_app(made["token"], "table", APP)
    link = f"https://t.me/{made['user']['username']}/table?startapp=game-42"
    keyboard = {"inline_keyboard": [[{"text": "Open the table", "url": link}]]}
    assert scene.ok("sendMessage", chat_id=group, text="Join", reply_markup=keyboard)
    launch = scene.control.open_web_app(ann, "direct_link", link=link, chat_id=group)
    data = checked(scene, launch, made["token"])
    assert data.start_param == "game-42" and data.chat_type == "supergroup"
    assert data.chat_instance and data.query_id == launch["query_id"]
    assert fragment(launch["url"])["tgWebAppStartParam"] == "game-42"
    assert "tgWebAppStartParam=game-42" in urlsplit(launch["url"]).query
    with pytest.raises(ControlError) as unknown:
        scene.control.open_web_app(
            ann, "direct_link", link=f"https://t.me/{made['user']['username']}/nope"
        )
    assert unknown.value.status == 404


def test_answer_web_app_query_posts_the_result_in_the_chat_once(scene: Scene) -> None:
    ann = scene.ann["id"]
    sent = scene.ok("sendMessage", chat_id=ann, text="Your table", reply_markup=web_app_keyboard())
    launch = scene.control.open_web_app(
        ann, "inline_button", chat_id=scene.bot["id"], message_id=sent["message_id"]
    )
    result = {
        "type": "article",
        "id": "played",
        "title": "played",
        "input_message_content": {"message_text": "I played <b>red 5</b>", "parse_mode": "HTML"},
    }
    assert scene.ok("answerWebAppQuery", web_app_query_id=launch["query_id"], result=result) == {}
    posted = scene.control.private_messages(ann, scene.token)[-1]
    assert posted["text"] == "I played red 5" and posted["from"]["id"] == ann
    assert posted["via_bot"]["id"] == scene.bot["id"]
    assert (
        scene.refused("answerWebAppQuery", web_app_query_id=launch["query_id"], result=result)
        == "Bad Request: QUERY_ID_INVALID"
    )
