"""The page opened from the bot's menu button (no game in the launch), in a real browser:
it lists the person's current games, and a tap opens that game's table with their hand."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import redis as sync_redis

from services.engine.client import GameInfo
from services.language_preferences import CHOICE_KEY
from services.presentation.i18n import gettext
from services.presentation.screens.names import variant_name
from tests.helpers.webapp import WebAppStack, deal_classic

pytestmark = pytest.mark.slow


def deal(stack: WebAppStack) -> GameInfo:
    # Playwright's sync API runs its own event loop in this thread: the deal runs in another
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, deal_classic(stack, ["R5 B9 G1", "R7 G8 Y2"])).result()


def test_the_menu_button_lists_my_games_and_a_tap_opens_the_table(
    webapp_stack: WebAppStack, browser: Any
) -> None:
    stack = webapp_stack
    game = deal(stack)
    menu = {"type": "web_app", "text": "UNO", "web_app": {"url": f"{stack.url()}/"}}
    httpx.post(
        f"{stack.telegram.bot_api_url}{stack.token}/setChatMenuButton",
        json={"menu_button": menu},
        timeout=20,
    ).raise_for_status()
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True)
    try:
        ann, sam = context.new_page(), context.new_page()
        for page, name in ((ann, "Ann"), (sam, "Sam")):
            launch = stack.telegram.control.open_web_app(
                stack.people[name]["id"], "menu_button", chat_id=stack.bot["id"]
            )
            page.goto(launch["url"])
        link = ann.wait_for_selector(f".game-link[data-game='{game.game_id}']")
        assert "Ann" in link.inner_text() and "Bob" in link.inner_text()
        sam.wait_for_selector("#games:not([hidden])", state="attached")
        assert sam.locator(".game-link").count() == 0  # a spectator holds no seat
        link.click()
        ann.wait_for_selector(f"body[data-version='{game.version}']")
        codes = ann.locator(".hand-card").evaluate_all("n => n.map(e => e.dataset.code)")
        assert codes == ["R5", "B9", "G1"]
    finally:
        context.close()


def test_the_games_list_names_the_variant_in_the_persons_language(
    webapp_stack: WebAppStack, browser: Any
) -> None:
    """The list's words are the bot's own, in the language it speaks to each person: Ann's
    Telegram app's English, Bob's Persian, and Gujarati once Ann chooses it with /language."""
    stack = webapp_stack
    game = deal(stack)
    menu = {"type": "web_app", "text": "UNO", "web_app": {"url": f"{stack.url()}/"}}
    httpx.post(
        f"{stack.telegram.bot_api_url}{stack.token}/setChatMenuButton",
        json={"menu_button": menu},
        timeout=20,
    ).raise_for_status()
    client = sync_redis.Redis.from_url(stack.redis_url)
    choice = CHOICE_KEY.format(user_id=stack.people["Ann"]["id"])
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        for name, lang in (("Ann", "en"), ("Bob", "fa"), ("Ann", "gu")):
            if lang == "gu":
                client.set(choice, "gu")
            page = context.new_page()
            launch = stack.telegram.control.open_web_app(
                stack.people[name]["id"], "menu_button", chat_id=stack.bot["id"]
            )
            page.goto(launch["url"])
            link = page.wait_for_selector(f".game-link[data-game='{game.game_id}']")
            shown = link.inner_text()
            assert variant_name(lang, "classic") in shown, (lang, shown)
            assert gettext(lang, "playing") in shown and "classic" not in shown, (lang, shown)
            assert page.text_content("#status") == gettext(lang, "Your games")
            assert page.get_attribute("html", "lang") == lang
    finally:
        context.close()
        client.delete(choice)
        client.close()
