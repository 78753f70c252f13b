"""The Mini App's page in a real browser (Debian's Chromium, driven by Playwright), opened
as the local Telegram launches it: Ann and Bob (in Persian, right to left) play a Classic
hand by tapping their cards and the decision buttons (a colour, UNO!, Catch!, Draw); Sam
watches and never sees a hand; his page rides out its replica's death. Each step waits for
what the pages show.
``UNO_TEST_SCREENSHOT=path`` keeps a picture of Ann's table."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from harness.services import ENGINE_TOKEN
from services.engine.client import EngineClient, GameInfo
from services.move_ids import action_id
from services.presentation.screens.refusals import kicked_out, left_the_group
from tests.helpers.chat_text import plain_text
from tests.helpers.webapp import WebAppStack, deal_classic

pytestmark = pytest.mark.slow


def deal(stack: WebAppStack) -> GameInfo:
    # Playwright's sync API runs its own event loop in this thread: the deal runs in another
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, deal_classic(stack, ["R5 W B9 G1", "R7 G7 G8 Y2"])).result()


def at_version(page: Any, version: int) -> None:
    page.wait_for_selector(f"body[data-version='{version}']")


def tap_card(page: Any, code: str) -> None:
    page.click(f".hand-card.playable[data-code='{code}']")


def test_two_people_play_classic_through_the_mini_app_while_a_spectator_watches(
    webapp_stack: WebAppStack, browser: Any, tmp_path: Path
) -> None:
    stack = webapp_stack
    game = deal(stack)
    gid, v = game.game_id, game.version
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True)
    try:
        ann, bob, sam = (context.new_page() for _ in range(3))
        for page, name in ((ann, "Ann"), (bob, "Bob"), (sam, "Sam")):
            page.goto(stack.open_app(name, gid)["url"])
            at_version(page, v)
        assert (
            bob.get_attribute("html", "dir") == "rtl" and ann.get_attribute("html", "dir") == "ltr"
        )
        assert sam.get_attribute("body", "data-role") == "spectator"
        assert sam.locator(".hand-card").count() == 0 and sam.locator(".decision").count() == 0
        # only the cards that match the pile are raised
        playable = ann.locator(".hand-card.playable").evaluate_all(
            "n => n.map(e => e.dataset.code)"
        )
        assert sorted(playable) == ["R5", "W"]
        assert bob.locator(".hand-card.playable").count() == 0  # not Bob's turn

        tap_card(ann, "R5")
        for page in (ann, bob, sam):
            at_version(page, v + 1)
            page.wait_for_selector("#pile[data-top='R5']")
        tap_card(bob, "R7")
        at_version(ann, v + 2)
        tap_card(ann, "W")
        at_version(ann, v + 3)
        # the wild asks for a colour: four buttons, each a colour
        colours = ann.locator(".decision[data-colour]").evaluate_all(
            "n => n.map(e => e.dataset.colour)"
        )
        assert sorted(colours) == ["B", "G", "R", "Y"]
        ann.click(".decision[data-action='c.G']")
        for page in (ann, bob, sam):
            at_version(page, v + 4)
            page.wait_for_selector("#colour[data-colour='G']")
        assert bob.text_content("#colour") == "سبز"
        tap_card(bob, "G7")
        at_version(ann, v + 5)
        # two cards left on her turn: Ann calls UNO!, then plays down to one
        ann.click(".decision[data-action='u']")
        at_version(ann, v + 6)
        tap_card(ann, "G1")
        for page in (ann, bob, sam):
            at_version(page, v + 7)
        one = sam.locator(".seat[data-seat='0'] .count[data-cards='1']")
        assert one.text_content() == "1 card"  # Sam reads English; one card is not "1 cards"
        # Bob plays down to one card without calling: Ann catches him, he draws two
        tap_card(bob, "G8")
        at_version(ann, v + 8)
        catch = plain_text(ann.text_content(".decision[data-action='x.1']") or "")
        assert catch == "🫵 Catch Bob!"  # the chat's
        ann.click(".decision[data-action='x.1']")
        for page in (ann, bob, sam):
            at_version(page, v + 9)
        sam.wait_for_selector(".seat[data-seat='1'] .count[data-cards='3']")
        bob.wait_for_function("document.querySelectorAll('.hand-card').length === 3")
        # Ann, stuck with B9 on a green 8, draws
        ann.click(".decision[data-action='d']")
        at_version(ann, v + 10)
        ann.wait_for_function("document.querySelectorAll('.hand-card').length === 2")
        sam.wait_for_selector(".seat[data-seat='0'] .count[data-cards='2']")
        assert sam.locator(".hand-card").count() == 0
        log = [plain_text(line) for line in sam.locator("#log li").all_text_contents()]
        # the chat's own event lines
        assert "Ann caught Bob: +2" in log, log
        assert "Ann drew 1" in log, log
        shot = tmp_path / "mini_app.png"
        ann.screenshot(path=str(shot))
        if os.environ.get("UNO_TEST_SCREENSHOT"):
            shutil.copy(shot, os.environ["UNO_TEST_SCREENSHOT"])
    finally:
        context.close()


def test_a_page_whose_replica_dies_reconnects_with_a_new_ticket_and_misses_nothing(
    webapp_stack: WebAppStack, browser: Any
) -> None:
    """Sam watches; his replica is killed, Ann plays while it is down; once it is back the
    page trades its initData for a new ticket (a ticket serves once) and shows the table
    from the version it had, the move in its log once."""
    stack = webapp_stack
    game = deal(stack)
    gid, v = game.game_id, game.version
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True)
    replica = stack.replicas[0]
    try:
        sam = context.new_page()
        tickets: list[str] = []
        sam.on("request", lambda r: r.url.endswith("/tickets") and tickets.append(r.method))
        sam.goto(stack.open_app("Sam", gid)["url"])
        at_version(sam, v)
        assert tickets == ["POST"]
        before = [plain_text(line) for line in sam.locator("#log li").all_text_contents()]
        replica.kill()
        sam.wait_for_selector("#status:has-text('Reconnecting')")
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, play(stack, game, "p.R5")).result()
        replica.start_again()
        at_version(sam, v + 1)
        sam.wait_for_selector("#pile[data-top='R5']")
        assert len(tickets) >= 2 and set(tickets) == {"POST"}
        log = [plain_text(line) for line in sam.locator("#log li").all_text_contents()]
        assert log[-1].startswith("Ann played"), log
        assert sum(line.startswith("Ann played") for line in log) == 1, log
        assert all(log.count(line) <= before.count(line) for line in before), (before, log)
    finally:
        if not replica.alive:
            replica.start_again()
        context.close()


async def play(stack: WebAppStack, game: GameInfo, code: str) -> None:
    """Ann's move sent to the engine as the chat sends it: no Mini App replica on the way."""
    ann = stack.people["Ann"]["id"]
    async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
        await engine.act(
            game.game_id, ann, code, version=game.version,
            action_id=action_id(ann, game.version, code),
        )  # fmt: skip


def engine_call(stack: WebAppStack, call: Callable[[EngineClient], Awaitable[Any]]) -> Any:
    """One call of the engine's client, as the bot makes it, run outside Playwright's loop."""

    async def run() -> Any:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            return await call(engine)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def test_a_player_out_of_the_game_is_shown_why_and_no_hand(
    webapp_stack: WebAppStack, browser: Any
) -> None:
    """Kicked (the bot tells the engine of /kick), Bob's open page turns to the spectator's
    table and says why, in his Persian; Ann, gone from the group, gets the chat's words
    for it and her page stops following the game."""
    stack = webapp_stack
    game = deal(stack)
    gid, v = game.game_id, game.version
    ann_id, bob_id = stack.people["Ann"]["id"], stack.people["Bob"]["id"]
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True)
    try:
        ann, bob = context.new_page(), context.new_page()
        for page, name in ((ann, "Ann"), (bob, "Bob")):
            page.goto(stack.open_app(name, gid)["url"])
            at_version(page, v)
        assert bob.locator(".hand-card").count() == 4
        engine_call(stack, lambda engine: engine.kick(gid, ann_id, bob_id))
        at_version(bob, v + 1)
        bob.wait_for_selector("body[data-role='spectator']")
        assert bob.locator(".hand-card").count() == 0
        assert bob.text_content("#status") == kicked_out("fa")
        engine_call(stack, lambda engine: engine.left_group(gid, ann_id))
        ann.wait_for_function(
            "text => document.querySelector('#status').textContent === text",
            arg=left_the_group("en"),
        )
        assert ann.locator(".hand-card").count() == 0
    finally:
        context.close()
