"""The Mini App in the playground: the local Telegram's own page (make play's world) opens
it from a direct link in the group, in its Mini App panel, and the app speaks the web
clients' protocol to it (``web_app_ready``, the theme); the player's tap inside the panel
plays the card."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from harness.play import BOT_USERNAME, FIRST_PERSON, set_up_world
from harness.services import ENGINE_TOKEN, WebAppProcess
from playground.server import LocalTelegram, start_in_thread
from services.engine.client import EngineClient, GameInfo, SeatSpec
from tests.helpers.webapp import APP_NAME, WebAppStack, start_webapp

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def playground(
    webapp_stack: WebAppStack, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LocalTelegram, WebAppStack, WebAppProcess]]:
    """make play's world in a local Telegram of its own, and a Mini App replica for its bot."""
    server = start_in_thread()
    made = set_up_world(server.url)
    you = next(u for u in server.world.users.values() if not u.is_bot)
    group_id = next(iter(server.world.chats))  # the world's first chat: its group
    stack = WebAppStack(
        redis_url=webapp_stack.redis_url,
        engine=webapp_stack.engine,
        token=str(made["token"]),
        bot=dict(made["user"]),  # type: ignore[call-overload]
        telegram=server,
        group={"id": group_id},
        people={FIRST_PERSON: {"id": you.id, "first_name": you.first_name}},
        log_dir=tmp_path_factory.mktemp("playground-app"),
    )
    replica = start_webapp(stack, "webapp-playground")
    yield server, stack, replica
    replica.stop()
    server.stop()


def test_the_playground_opens_the_mini_app_from_the_groups_link_and_a_tap_plays(
    playground: tuple[LocalTelegram, WebAppStack, WebAppProcess], browser: Any
) -> None:
    server, stack, _ = playground
    you = stack.people[FIRST_PERSON]["id"]

    async def create() -> GameInfo:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            seats = [SeatSpec(name=FIRST_PERSON, user_id=you), SeatSpec(name="AI 1", ai="random")]
            setup = {"hands": ["R5 G2 B9", "Y1 Y2 Y3"], "discard": "R3", "current": 0}
            return await engine.create_test_game(stack.group["id"], seats, setup)

    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(asyncio.run, create()).result()
    link = f"https://t.me/{BOT_USERNAME}/{APP_NAME}?startapp={game.game_id}"
    keyboard = {"inline_keyboard": [[{"text": "🎴 Open table", "url": link}]]}
    sent = httpx.post(
        f"{server.bot_api_url}{stack.token}/sendMessage",
        json={"chat_id": stack.group["id"], "text": "Your game", "reply_markup": keyboard},
        timeout=30,
    ).json()
    assert sent["ok"], sent
    context = browser.new_context(viewport={"width": 400, "height": 800})
    try:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector("#chat-title:has-text('UNO night')")
        page.click("#messages button:has-text('Open table')")
        page.wait_for_selector("#web-app", state="visible")
        page.wait_for_selector("#web-app-status:has-text('ready')")  # the app said so
        app = page.frame_locator("#web-app-frame")
        app.locator(f"body[data-version='{game.version}']").wait_for()
        assert app.locator(".hand-card").count() == 3
        app.locator(".hand-card.playable[data-code='R5']").click()
        app.locator("#pile[data-top='R5']").wait_for()
        assert app.locator(".hand-card").count() == 2
    finally:
        context.close()
