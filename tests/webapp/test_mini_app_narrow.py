"""The Mini App's table on the narrowest phone it serves (320×568, Debian's Chromium driven
by Playwright): nothing runs past the screen's side (no horizontal scroll), and every
thing one can press gives a finger at least 44×44 px of itself, the fanned hand's cards
(each partly under its neighbour) included, with fourteen cards in hand, with the colour
wheel open and with UNO! and Catch! offered. Each step waits for what the page shows."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from harness.services import ENGINE_TOKEN
from services.engine.client import EngineClient, GameInfo, SeatSpec
from tests.helpers.webapp import WebAppStack, act

pytestmark = pytest.mark.slow

NARROW = {"width": 320, "height": 568}

#: The things one can press that have no 44×44 px of their own: no 44 px square (round
#: buttons: circle) whose centre and the middles of whose sides all land on the thing
#: itself, not on a neighbour laid over it.
SMALL_TARGETS = """() => {
  const targets = [...document.querySelectorAll("button, a[href], [role=button]")]
    .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== "hidden");
  const own = (n, x, y) => {
    const hit = document.elementFromPoint(x, y);
    return hit && n.contains(hit);
  };
  const points = [[22, 22], [22, 2], [22, 42], [2, 22], [42, 22]];
  const square = (n, x, y) => points.every(([dx, dy]) => own(n, x + dx, y + dy));
  return targets.filter((n) => {
    const r = n.getBoundingClientRect();
    for (let y = Math.max(0, r.top); y + 44 <= Math.min(innerHeight, r.bottom) + 0.5; y += 4) {
      for (let x = Math.max(0, r.left); x + 44 <= Math.min(innerWidth, r.right) + 0.5; x += 4) {
        if (square(n, x, y)) return false;
      }
    }
    return true;
  }).map((n) => n.dataset.code || n.dataset.action || n.id || n.textContent);
}"""

SIDEWAYS = """() => ({
  scroll: document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth,
  out: [...document.querySelectorAll(".seat, .hand-card, .decision, #pile, #draw-stack")]
    .filter((n) => {
      const r = n.getBoundingClientRect();
      return r.width && (r.left < -0.5 || r.right > innerWidth + 0.5);
    })
    .map((n) => n.dataset.code || n.dataset.action || n.dataset.seat || n.id),
})"""


def deal(stack: WebAppStack, hands: list[str], names: list[str]) -> GameInfo:
    async def create() -> GameInfo:
        seats = [SeatSpec(name=n, user_id=stack.people[n]["id"]) for n in names]
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            existing = await engine.chat_game(stack.group["id"])
            if existing is not None:
                await engine.end(existing.game_id, existing.host, admin=True)
            setup = {"hands": hands, "discard": "R3", "current": 0}
            return await engine.create_test_game(stack.group["id"], seats, setup, turn_seconds=600)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, create()).result()


def fits(page: Any) -> None:
    sideways = page.evaluate(SIDEWAYS)
    assert sideways == {"scroll": 0, "out": []}, sideways
    assert page.evaluate(SMALL_TARGETS) == []


FOURTEEN = "W R5 R6 R8 R9 G1 G2 G3 B1 B2 B4 Y1 Y4 Y6"


@pytest.fixture
def narrow(browser: Any) -> Any:
    # still: a card in flight is not where a finger finds it
    context = browser.new_context(
        viewport=NARROW, is_mobile=True, has_touch=True, reduced_motion="reduce"
    )
    yield context
    context.close()


def test_at_320_px_nothing_scrolls_sideways_and_every_target_is_a_fingers_size(
    webapp_stack: WebAppStack, narrow: Any
) -> None:
    """Fourteen cards in hand; then the colour wheel; then Catch! on a seat."""
    stack = webapp_stack
    game = deal(stack, [FOURTEEN, "R7 G5", "B7 B8 B9 G9"], ["Ann", "Bob", "Sam"])
    ann = narrow.new_page()
    ann.goto(stack.open_app("Ann", game.game_id)["url"])
    ann.wait_for_selector(f"body[data-version='{game.version}'] .hand-card.playable")
    assert ann.locator(".hand-card").count() == 14
    fits(ann)
    ann.click(".hand-card.playable[data-code='W']")
    ann.wait_for_selector("#wheel .decision[data-colour='R']")
    fits(ann)
    ann.click("#wheel .decision[data-colour='R']")
    ann.wait_for_selector(f"body[data-version='{game.version + 2}']")
    # Bob plays down to one card without calling UNO: Catch! on his seat
    v = act(stack, game.game_id, "Bob", "p.R7", game.version + 2)
    ann.wait_for_selector(
        f"body[data-version='{v}'] .seat[data-seat='1'] .decision[data-action='x.1']"
    )
    fits(ann)


def test_at_320_px_uno_is_a_fingers_size(webapp_stack: WebAppStack, narrow: Any) -> None:
    stack = webapp_stack
    game = deal(stack, ["R5 R6", "G5 G6 G7", "B7 B8 B9 G9"], ["Ann", "Bob", "Sam"])
    ann = narrow.new_page()
    ann.goto(stack.open_app("Ann", game.game_id)["url"])
    ann.wait_for_selector(f"body[data-version='{game.version}'] #uno .decision[data-action='u']")
    fits(ann)
