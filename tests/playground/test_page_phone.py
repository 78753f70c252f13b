"""The playground page at a phone's width (400 px) in a real browser (Debian's Chromium
through Playwright) against a local Telegram served in this process, the test playing the
bot over the Bot API: the page is one column with the chats in a drawer, a message reads
across the chat, and a Mini App (a tiny page the test serves, tests/playground/mini_app.html)
opens from the chat in a phone-sized panel, gets its launch parameters and the client's
answers to its events, and its answerWebAppQuery result and sendData reach the chat and the
bot. Every step waits on what the page shows."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
from aiogram.utils.web_app import safe_parse_webapp_init_data

from harness.play import BOT_USERNAME, set_up_world
from playground.server import LocalTelegram, start_in_thread

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent
#: A safety net only: every wait ends as soon as the page shows what it waits for.
SHOWN = 60_000
TURN = "Ann played a red five, and now it is your turn to play a card"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def mini_app() -> Iterator[str]:
    """The test Mini App's URL, served from this directory."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(HERE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/mini_app.html"
    server.shutdown()
    thread.join()


@pytest.fixture(scope="module")
def telegram() -> Iterator[tuple[LocalTelegram, str, int]]:
    """A local Telegram with make play's world: the server, the bot's token, Alex's id."""
    server = start_in_thread()
    made = set_up_world(server.url)
    you = next(u for u in server.world.users.values() if not u.is_bot)
    yield server, str(made["token"]), you.id
    server.stop()


def bot_call(server: LocalTelegram, token: str, method: str, **params: Any) -> Any:
    body = httpx.post(f"{server.bot_api_url}{token}/{method}", json=params, timeout=30).json()
    assert body["ok"], body
    return body["result"]


def loaded(app: Any, before: str) -> str:
    """The initData of the app the panel loaded after the one that had ``before``, once it
    has its theme: each launch signs its own."""
    hash_before = dict(parse_qsl(before))["hash"]
    app.locator("#init-data").filter(has_not_text=hash_before).wait_for(timeout=SHOWN)
    app.locator("li[data-event='theme_changed']").wait_for(timeout=SHOWN)
    return str(app.locator("#init-data").text_content())


def test_a_mini_app_opens_from_the_chat_at_a_phones_width(
    browser: Any, telegram: tuple[LocalTelegram, str, int], mini_app: str
) -> None:
    server, token, you = telegram
    group = next(iter(server.world.chats))
    context = browser.new_context(viewport={"width": 400, "height": 800})
    page = context.new_page()
    try:
        page.goto(server.url)
        page.wait_for_selector("#chat-title:has-text('UNO night')", timeout=SHOWN)

        # one column: the chat fills the width, the chats are in a drawer out of sight
        assert not page.is_visible("#sidebar") and page.is_visible("#drawer-toggle")
        bot_call(server, token, "sendMessage", chat_id=group, text=TURN)
        text = page.locator(".msg .text", has_text="your turn")
        text.wait_for(timeout=SHOWN)
        assert page.locator("#chat").bounding_box()["width"] == 400
        # the message reads across the bubble, not one word per line
        assert text.bounding_box()["width"] > 250
        assert text.bounding_box()["height"] < 5 * 20

        # the drawer opens over the chat and closes on choosing a chat
        page.click("#drawer-toggle")
        page.wait_for_selector("#sidebar", state="visible", timeout=SHOWN)
        page.click(".chat-item[data-chat='private']")
        page.wait_for_selector(".chat-item.open[data-chat='private']", state="attached")
        page.wait_for_selector("#sidebar", state="hidden", timeout=SHOWN)

        # an inline web_app button opens the app in a panel as big as the phone's screen
        keyboard = {"inline_keyboard": [[{"text": "Open table", "web_app": {"url": mini_app}}]]}
        bot_call(
            server, token, "sendMessage", chat_id=you, text="Your table", reply_markup=keyboard
        )
        page.click("#messages button[data-web-app]", timeout=SHOWN)
        page.wait_for_selector("#web-app", state="visible", timeout=SHOWN)
        app = page.frame_locator("#web-app-frame")
        app.locator("li[data-event='theme_changed']").wait_for(timeout=SHOWN)
        page.wait_for_selector("#web-app-status:has-text('ready')", timeout=SHOWN)
        app.locator(
            "li[data-event='viewport_changed'][data-data*='\"is_expanded\":true']"
        ).first.wait_for(timeout=SHOWN)
        app.locator("li[data-event='safe_area_changed']").wait_for(timeout=SHOWN)
        panel = page.locator("#web-app").bounding_box()
        assert (panel["width"], panel["height"]) == (400, 800)
        theme = json.loads(app.locator("li[data-event='theme_changed']").get_attribute("data-data"))
        assert theme["theme_params"]["bg_color"].startswith("#")
        assert app.locator("#platform").text_content() == "weba"
        init_data = app.locator("#init-data").text_content()
        launched = safe_parse_webapp_init_data(token, init_data)
        assert launched.user is not None and launched.user.id == you

        # the app's answer (answerWebAppQuery) shows in the chat; the app closes itself
        result = {
            "type": "article",
            "id": "played",
            "title": "played",
            "input_message_content": {"message_text": "I played red 5 from the table"},
        }
        bot_call(
            server, token, "answerWebAppQuery", web_app_query_id=launched.query_id, result=result
        )
        page.wait_for_selector(
            ".msg .text:has-text('I played red 5 from the table')", timeout=SHOWN
        )
        app.locator("#close").click()
        page.wait_for_selector("#web-app", state="hidden", timeout=SHOWN)

        # a reply keyboard's web_app button: the app's sendData reaches the bot
        bot_call(server, token, "getUpdates", offset=-1)
        updates = bot_call(server, token, "getUpdates", offset=-1)
        offset = updates[-1]["update_id"] + 1 if updates else 0
        reply = {"keyboard": [[{"text": "Pick a colour", "web_app": {"url": mini_app}}]]}
        bot_call(server, token, "sendMessage", chat_id=you, text="Colour?", reply_markup=reply)
        page.click("#reply-keyboard button[data-web-app]", timeout=SHOWN)
        keyboard_data = loaded(app, init_data)
        app.locator("#send").click()
        page.wait_for_selector("#web-app", state="hidden", timeout=SHOWN)
        page.wait_for_selector(".service:has-text('Pick a colour')", timeout=SHOWN)
        got = bot_call(server, token, "getUpdates", offset=offset, timeout=0)
        sent = [u["message"]["web_app_data"] for u in got if "web_app_data" in u.get("message", {})]
        assert sent == [{"data": "red", "button_text": "Pick a colour"}]

        # the chat's menu button, once the bot sets a web_app one, opens the app
        menu = {"type": "web_app", "text": "Play", "web_app": {"url": mini_app}}
        bot_call(server, token, "setChatMenuButton", chat_id=you, menu_button=menu)
        page.click("#menu-app:has-text('Play')", timeout=SHOWN)
        menu_data = loaded(app, keyboard_data)
        assert page.get_attribute("#web-app", "data-way") == "menu_button"
        page.click("#web-app-close")
        page.wait_for_selector("#web-app", state="hidden", timeout=SHOWN)

        # a direct link in a group's URL button opens the registered app with its parameter
        server.control.register_web_app(token, "table", mini_app)
        link = f"https://t.me/{BOT_USERNAME}/table?startapp=game-7"
        keyboard = {"inline_keyboard": [[{"text": "Open the table", "url": link}]]}
        bot_call(server, token, "sendMessage", chat_id=group, text="Join us", reply_markup=keyboard)
        page.click("#drawer-toggle")
        page.click(".chat-item[data-chat='group']", timeout=SHOWN)
        page.click("#messages button:has-text('Open the table')", timeout=SHOWN)
        linked = safe_parse_webapp_init_data(token, loaded(app, menu_data))
        assert app.locator("#start").text_content() == "game-7"
        assert linked.start_param == "game-7" and linked.chat_type == "supergroup"
    finally:
        context.close()
