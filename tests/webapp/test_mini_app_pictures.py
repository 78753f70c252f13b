"""The table as the READMEs show it, at a phone's size (390×844, Debian's Chromium driven by
Playwright): a Classic game in Telegram's light theme and in its dark one (the colour wheel
open over the pile), UNO Flip on its dark side (in Persian, right to left) and No Mercy in
the middle of a stack. Each checks what the picture is meant to show;
``UNO_TEST_SCREENSHOT_DIR=docs`` keeps the pictures the READMEs show."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qsl, urlencode

import pytest

from harness.services import ENGINE_TOKEN
from services.engine.client import EngineClient, GameInfo, SeatSpec
from tests.helpers.webapp import WebAppStack

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
#: Telegram's own dark theme (its apps' night mode), as a client sends it.
DARK = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#181818",
}
#: Ann, an AI that never gets a turn here, and Bob, whose move opens each picture.
ANN, AI, BOB = 0, 1, 2


def deal(stack: WebAppStack, setup: dict[str, Any]) -> GameInfo:
    async def create() -> GameInfo:
        seats = [
            SeatSpec(name="Ann", user_id=stack.people["Ann"]["id"]),
            SeatSpec(name="AI 1", ai="first-legal"),
            SeatSpec(name="Bob", user_id=stack.people["Bob"]["id"]),
        ]
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            existing = await engine.chat_game(stack.group["id"])
            if existing is not None:
                await engine.end(existing.game_id, existing.host, admin=True)
            return await engine.create_test_game(
                stack.group["id"], seats, {"current": BOB, **setup}, turn_seconds=90
            )

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, create()).result()


def act(stack: WebAppStack, game: GameInfo, name: str, code: str, version: int) -> int:
    async def send() -> int:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            user = stack.people[name]["id"]
            done = await engine.act(game.game_id, user, code, version=version, action_id=code)
            return done.version

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, send()).result()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()


def open_table(
    stack: WebAppStack, context: Any, name: str, game: GameInfo, *, dark: bool = False
) -> Any:
    url = stack.open_app(name, game.game_id)["url"]
    if dark:  # the launch as a client in night mode makes it
        base, _, fragment = url.partition("#")
        params = dict(parse_qsl(fragment, keep_blank_values=True))
        params["tgWebAppThemeParams"] = json.dumps(DARK)
        url = f"{base}#{urlencode(params)}"
    page = context.new_page()
    page.goto(url)
    return page


def keep(page: Any, name: str) -> None:
    # the moves' motion over (each under 300 ms: nothing in flight), then the picture
    page.wait_for_function("() => document.querySelector('.ghost, .wave') === null")
    pictures = os.environ.get("UNO_TEST_SCREENSHOT_DIR")
    if pictures:
        page.screenshot(path=os.path.join(pictures, f"mini_app_{name}.png"))


CLASSIC = {"hands": ["R5 W G7 B9 RS Y2 G+2", "Y5 G5 B5 Y6", "R7 G1 B1 Y1 G9"], "discard": "R3"}


def test_classic_in_the_light(webapp_stack: WebAppStack, phone: Any) -> None:
    game = deal(webapp_stack, CLASSIC)
    v = act(webapp_stack, game, "Bob", "p.R7", game.version)
    ann = open_table(webapp_stack, phone, "Ann", game)
    ann.wait_for_selector(f"body[data-version='{v}'][data-owing='{ANN}'] .hand-card.playable")
    assert ann.get_attribute("html", "data-scheme") == "light"
    assert ann.locator(".seat.current[data-seat='0']").count() == 1  # the ring on Ann
    assert ann.locator(".seat[data-seat='1'] .mark-ai").count() == 1
    keep(ann, "light")


def test_classic_in_the_dark_with_the_colour_wheel(webapp_stack: WebAppStack, phone: Any) -> None:
    game = deal(webapp_stack, CLASSIC)
    v = act(webapp_stack, game, "Bob", "p.R7", game.version)
    ann = open_table(webapp_stack, phone, "Ann", game, dark=True)
    ann.wait_for_selector(f"body[data-version='{v}'] .hand-card.playable[data-code='W']")
    assert ann.get_attribute("html", "data-scheme") == "dark"
    ann.click(".hand-card.playable[data-code='W']")
    ann.wait_for_selector("#wheel .decision[data-colour='G']")
    keep(ann, "dark")


def test_flip_on_its_dark_side_in_persian(webapp_stack: WebAppStack, phone: Any) -> None:
    game = deal(
        webapp_stack,
        {
            "variant": "flip",
            "hands": ["G5/P5 Y9/T9", "Y2/P2 Y3/T3 B2/O2", "RF/OF B7/O7 R1/O1 G4/V4 Y6/T6 B8/P8"],
            "discard": "R3/V3",
            "draw_pile": "Y1/P1 B1/T1 G1/O1 R2/V2",
        },
    )
    v = act(webapp_stack, game, "Bob", "p.RF", game.version)
    ann = open_table(webapp_stack, phone, "Ann", game)
    ann.wait_for_selector(f"body[data-version='{v}'][data-side='dark']")
    assert ann.locator(".seat[data-seat='2'] .backs .card[data-side='light']").count() == 5
    keep(ann, "flip_dark")


def test_no_mercy_in_the_middle_of_a_stack(webapp_stack: WebAppStack, phone: Any) -> None:
    game = deal(
        webapp_stack,
        {
            "variant": "no_mercy",
            "hands": ["W+6 B+4 G+2 R5 Y7 WCR RS YSE", "Y5 G5 B5 Y6", "B+4 G1 B1 Y1 G9"],
            "discard": "B3",
        },
    )
    v = act(webapp_stack, game, "Bob", "p.B+4", game.version)
    ann = open_table(webapp_stack, phone, "Ann", game)
    ann.wait_for_selector(f"body[data-version='{v}'] #owed[data-owed='4']")
    stackable = ann.locator(".hand-card.playable").evaluate_all("n => n.map(e => e.dataset.code)")
    assert sorted(stackable) == ["B+4", "W+6"]
    assert ann.locator(".decision[data-action='a']").count() == 1
    keep(ann, "no_mercy_stack")
