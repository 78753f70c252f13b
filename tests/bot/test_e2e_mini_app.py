"""The buttons that open the Mini App, end to end: the bot (its Mini App's address in
``UNO_WEBAPP_PUBLIC_URL``) puts a direct link on the group's table and a ``web_app`` button
on the private hand; the local Telegram opens each, as its clients do, on the app's page
for that game, and the app then serves that player's hand there."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from harness.players import buttons
from harness.services import WebAppProcess, start_webapp
from harness.stack import FAST_LIMITS, Stack, start_stack
from tests.helpers.bot_scenes import Group, Scene, deal
from tests.helpers.webapp_stream import table_stream

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
#: The app's short name, as registered with @BotFather (the bot's default).
SHORT_NAME = "table"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def app_stack(
    local_telegram: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Stack, WebAppProcess]]:
    """The stack with a Mini App replica, registered as the bot's app, and a bot told it."""
    local_telegram.control.set_limits(False)
    log_dir = tmp_path_factory.mktemp("mini-app-buttons")
    stack = start_stack(
        TEST_REDIS_URL,
        log_dir,
        telegram_url=local_telegram.url,
        bot_username="uno_app_buttons_bot",
        bot_env=FAST_LIMITS,
    )
    webapp = start_webapp(
        "webapp", TEST_REDIS_URL, stack.engine_url, stack.bot_api_url, stack.token, log_dir
    )
    stack.control.register_web_app(stack.token, SHORT_NAME, f"{webapp.url}/")
    stack.start_bot("bot-a", UNO_WEBAPP_PUBLIC_URL=f"{webapp.url}/")
    yield stack, webapp
    webapp.stop()
    stack.stop()
    local_telegram.control.set_limits(True)


@pytest.fixture
def scene(app_stack: tuple[Stack, WebAppProcess]) -> Scene:
    stack, _ = app_stack
    control = stack.control
    people = [control.create_user(f"P{i}", username=None) for i in range(2)]
    chat = control.create_group("UNO night", [p["id"] for p in people], bots=[stack.token])
    for person in people:
        control.start_bot(person["id"], stack.token)
    group = Group(chat, people, stack.players(int(chat["id"])))
    return deal(stack, group, {"hands": ["R1 R2 G5", "B1 B2 B3"], "discard": "R3"})


def opens_on(launch: dict[str, Any], webapp: WebAppProcess) -> str:
    assert launch["url"].startswith(f"{webapp.url}/")
    return launch["url"]


def test_the_groups_table_links_to_the_app_on_its_game(
    app_stack: tuple[Stack, WebAppProcess], scene: Scene
) -> None:
    stack, webapp = app_stack
    game_id = scene.game.game_id
    link = next(b for b in buttons(scene.table()) if "url" in b)
    assert link["url"] == f"https://t.me/{stack.username}/{SHORT_NAME}?startapp={game_id}"
    launch = stack.control.open_web_app(
        scene.person(0)["id"], "direct_link", link=link["url"], chat_id=scene.group.id
    )
    opens_on(launch, webapp)
    assert parse_qs(launch["init_data"])["start_param"] == [game_id]

    async def first_table() -> dict[str, Any]:
        async with table_stream(webapp.url, game_id, launch["init_data"]) as stream:
            return await stream.table()

    shown = asyncio.run(first_table())
    assert shown["seat"] == 0 and shown["view"]["hand"] == ["R1", "R2", "G5"]  # P0's own


def test_the_private_hand_opens_the_apps_page_on_its_game(
    app_stack: tuple[Stack, WebAppProcess], scene: Scene
) -> None:
    stack, webapp = app_stack
    game_id = scene.game.game_id
    hand = scene.open_hand(1)
    button = next(b for b in buttons(hand) if "web_app" in b)
    person = scene.person(1)["id"]
    launch = stack.control.open_web_app(
        person,
        "inline_button",
        chat_id=stack.bot_id,  # the private chat, as its person names it: by the bot
        message_id=hand["message_id"],
        button_text=button["text"],
    )
    page = urlsplit(opens_on(launch, webapp))
    assert parse_qs(page.query)["game"] == [game_id]


def test_the_bots_menu_button_opens_the_app_on_the_players_games(
    app_stack: tuple[Stack, WebAppProcess], scene: Scene
) -> None:
    """The bot sets its menu button (setChatMenuButton, a ``web_app`` button) to the app's
    page; pressed in the private chat, it opens the page with no game, which lists the
    person's live games."""
    stack, webapp = app_stack
    person = scene.person(0)["id"]
    menu = stack.control.menu_button(person, stack.bot_id)
    assert menu["type"] == "web_app" and menu["web_app"]["url"] == f"{webapp.url}/"
    launch = stack.control.open_web_app(person, "menu_button", chat_id=stack.bot_id)
    assert urlsplit(opens_on(launch, webapp)).query == ""
    assert "start_param" not in parse_qs(launch["init_data"])
    listed = httpx.get(
        f"{webapp.url}/v1/me/games",
        headers={"Authorization": f"tma {launch['init_data']}"},
        timeout=30,
    )
    assert listed.status_code == 200
    assert scene.game.game_id in [g["game_id"] for g in listed.json()["games"]]
