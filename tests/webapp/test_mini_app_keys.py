"""The Mini App's table without a finger or without motion (Debian's Chromium driven by
Playwright): on a desktop the arrow keys move along the hand and Enter plays the card in
focus, D draws; a screen reader hears each move (the page's ``aria-live`` region); and a
played card flies to the pile unless the system asks for reduced motion, when nothing
moves at all. Each step waits for what the pages show."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from services.presentation.i18n import gettext
from tests.helpers.chat_text import plain_text
from tests.helpers.webapp import WebAppStack, deal_classic

pytestmark = pytest.mark.slow

#: Counts the copies laid over the page for motion (a flying card, a mark), however brief.
COUNT_MOTION = """
window.__moved = 0;
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    const motion = n.classList && (n.classList.contains("ghost") || n.classList.contains("wave"));
    if (motion) window.__moved += 1;
  }
}).observe(document, { childList: true, subtree: true });
"""


def deal(stack: WebAppStack) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, deal_classic(stack, ["R5 W B9 G1", "R7 G7 G8 Y2"])).result()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_keys_play_a_move_is_announced_and_motion_follows_the_systems_wish(
    webapp_stack: WebAppStack, browser: Any, motion: str
) -> None:
    game = deal(webapp_stack)
    context = browser.new_context(viewport={"width": 1024, "height": 768}, reduced_motion=motion)
    context.add_init_script(COUNT_MOTION)
    try:
        ann, bob = context.new_page(), context.new_page()
        for page, name in ((ann, "Ann"), (bob, "Bob")):
            page.goto(webapp_stack.open_app(name, game.game_id)["url"])
            page.wait_for_selector(f"body[data-version='{game.version}']")
        # the hand in order: R5 W B9 G1; from the first card, two steps right is B9 (not
        # playable on a red 3: refused, with why), one back is W, back again R5: Enter plays
        ann.focus(".hand-card[data-code='R5']")
        ann.keyboard.press("ArrowRight")
        ann.keyboard.press("ArrowRight")
        assert ann.evaluate("() => document.activeElement.dataset.code") == "B9"
        ann.keyboard.press("Enter")
        ann.wait_for_selector("#notice.beside:not([hidden])")  # said beside the card
        assert ann.text_content("#notice") == gettext("en", "That card doesn't match the pile.")
        assert ann.get_attribute("body", "data-version") == str(game.version)  # nothing changed
        ann.keyboard.press("ArrowLeft")
        ann.keyboard.press("ArrowLeft")
        assert ann.evaluate("() => document.activeElement.dataset.code") == "R5"
        ann.keyboard.press("Enter")
        for page in (ann, bob):
            page.wait_for_selector(f"body[data-version='{game.version + 1}'] #pile[data-top='R5']")
        bob.wait_for_function("() => document.querySelector('#announce').textContent !== ''")
        heard = plain_text(bob.text_content("#announce") or "")
        assert "Ann" in heard and "R5" not in heard, heard  # the chat's words, not a code
        # Bob has nothing red but R7... he draws with the D key instead
        bob.locator("body").press("d")
        ann.wait_for_selector(f"body[data-version='{game.version + 2}']")
        assert ann.locator(".seat[data-seat='1'] .count[data-cards='5']").count() == 1
        moved = ann.evaluate("() => window.__moved")
        if motion == "reduce":
            assert moved == 0
        else:
            assert moved > 0
    finally:
        context.close()
