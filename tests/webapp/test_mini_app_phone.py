"""The Mini App's page at a phone's size (390×844, Debian's Chromium driven by Playwright),
opened as the local Telegram launches it: every card of a hand is on the screen, every
card's name is written whole, the colour buttons wear their colours, a round's scores give
way to the next round, the direction of play has its own mark, and a Catch! that came a
moment after someone else's is told so. Each step waits for what the pages show.
``UNO_TEST_SCREENSHOT_DIR=dir`` keeps pictures of the pages."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import redis as sync_redis

from harness.services import ENGINE_TOKEN
from services.engine.client import EngineClient, GameInfo, SeatSpec
from services.language_preferences import CHOICE_KEY
from services.presentation.i18n import gettext
from services.presentation.locales.glossary import face_name
from tests.helpers.chat_text import plain_text
from tests.helpers.webapp import WebAppStack, act

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


def deal(stack: WebAppStack, names: list[str], setup: dict[str, Any]) -> GameInfo:
    """A game between ``names`` (seats in that order) in the group, dealt ``setup``."""

    async def create() -> GameInfo:
        seats = [SeatSpec(name=n, user_id=stack.people[n]["id"]) for n in names]
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            existing = await engine.chat_game(stack.group["id"])
            if existing is not None:
                await engine.end(existing.game_id, existing.host, admin=True)
            return await engine.create_test_game(
                stack.group["id"], seats, {"current": 0, **setup}, turn_seconds=600
            )

    # Playwright's sync API runs its own event loop in this thread: the engine in another
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, create()).result()


def first_decision(stack: WebAppStack, game_id: str, name: str) -> str:
    """A draw where ``name`` may draw, else the first of the actions open to them."""

    async def legal() -> list[str]:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            seen = await engine.view(game_id, stack.people[name]["id"])
            assert seen.view is not None
            return list(seen.view.legal)

    with ThreadPoolExecutor(1) as pool:
        actions = pool.submit(asyncio.run, legal()).result()
    return "d" if "d" in actions else actions[0]


def end(stack: WebAppStack, game_id: str, name: str) -> None:
    """``name`` ends the game as the bot's /end does."""

    async def send() -> None:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            await engine.end(game_id, stack.people[name]["id"])

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, send()).result()


@pytest.fixture
def phone(webapp_stack: WebAppStack, browser: Any) -> Iterator[Any]:
    """Opens a game's page for a person at a phone's size; Sam reads Gujarati (his
    /language choice, as the bot keeps it), Bob Persian, Ann English."""
    client = sync_redis.Redis.from_url(webapp_stack.redis_url)
    sam = CHOICE_KEY.format(user_id=webapp_stack.people["Sam"]["id"])
    client.set(sam, "gu")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)

    def open_page(name: str, game: GameInfo, version: int | None = None) -> Any:
        page = context.new_page()
        page.goto(webapp_stack.open_app(name, game.game_id)["url"])
        page.wait_for_selector(f"body[data-version='{version or game.version}']")
        return page

    try:
        yield open_page
    finally:
        context.close()
        client.delete(sam)
        client.close()


def keep_picture(page: Any, name: str) -> None:
    pictures = os.environ.get("UNO_TEST_SCREENSHOT_DIR")
    if pictures:
        page.screenshot(path=os.path.join(pictures, f"{name}.png"))


def outside_the_screen(page: Any, selector: str) -> list[str]:
    """The codes of the ``selector`` elements not wholly on the screen as the page opens."""
    found: list[str] = page.locator(selector).evaluate_all(
        """(nodes) => nodes.filter((n) => {
             const r = n.getBoundingClientRect();
             return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
           }).map((n) => n.dataset.code || n.textContent)"""
    )
    return found


def cut_captions(page: Any) -> list[str]:
    """The card names written narrower or shorter than their words need."""
    found: list[str] = page.locator(".caption").evaluate_all(
        """(nodes) => nodes.filter((n) => n.scrollWidth > n.clientWidth
             || n.scrollHeight > n.clientHeight
             || n.getBoundingClientRect().width < 1).map((n) => n.textContent)"""
    )
    return found


NO_MERCY_SEVEN = ["YSE RDA WR+4 W+6 G+2 RS Y5", "B+4 W+10 WCR YR GS R7 G8"]


def test_every_card_of_a_hand_and_its_whole_name_are_on_a_phones_screen(
    webapp_stack: WebAppStack, phone: Any
) -> None:
    """Seven cards (Ann, English; Bob, Persian) and fourteen (Sam, Gujarati), No Mercy's
    long names among them (RULES.md §4), once each has played a card: each card wholly on
    the screen without scrolling, each action's name written under it whole."""
    fourteen = " ".join(NO_MERCY_SEVEN)
    game = deal(
        webapp_stack,
        ["Ann", "Bob", "Sam"],
        {
            "variant": "no_mercy",
            "hands": [f"R4 {NO_MERCY_SEVEN[0]}", f"R6 {NO_MERCY_SEVEN[1]}", f"R8 {fourteen}"],
            "discard": "R3",
        },
    )
    v = game.version
    for name, code in (("Ann", "p.R4"), ("Bob", "p.R6"), ("Sam", "p.R8")):
        v = act(webapp_stack, game.game_id, name, code, v)
    hands = {"Ann": NO_MERCY_SEVEN[0], "Bob": NO_MERCY_SEVEN[1], "Sam": fourteen}
    pages = {name: phone(name, game, v) for name in hands}
    for name, page in pages.items():
        assert page.locator(".hand-card").count() == len(hands[name].split())
        keep_picture(page, f"hand-{name.lower()}")
    for name, page in pages.items():
        assert outside_the_screen(page, ".hand-card") == [], name
    for (name, page), lang in zip(pages.items(), ("en", "fa", "gu"), strict=True):
        assert page.get_attribute("html", "lang") == lang
        # each action card is named under it, whole, as the chat names it
        assert cut_captions(page) == [], name
        for code in hands[name].split():
            if code[1:].isdigit():
                continue
            caption = page.text_content(f".hand-card[data-code='{code}'] .caption")
            assert caption == face_name(lang, code, "no_mercy"), (name, code)


def test_the_colour_buttons_wear_their_colours_and_anticlockwise_has_its_mark(
    webapp_stack: WebAppStack, phone: Any
) -> None:
    """RULES.md §2: a wild's colour, chosen with four buttons each in its colour; play
    running anticlockwise is marked ↺, clockwise ↻."""
    game = deal(
        webapp_stack,
        ["Ann", "Bob"],
        {"hands": ["W R5 G7", "B1 B2 B3"], "discard": "R3", "direction": -1},
    )
    ann = phone("Ann", game)
    head = ann.text_content("#head") or ""
    assert gettext("en", "anticlockwise") in head and "↺" in head and "↻" not in head, head
    assert ann.text_content("#direction") == "↺"
    ann.click(".hand-card.playable[data-code='W']")
    ann.wait_for_selector(".decision[data-colour]")
    painted = ann.locator(".decision[data-colour]").evaluate_all(
        """(nodes) => nodes.map((n) => [n.dataset.colour, getComputedStyle(n).backgroundColor,
             window.UnoCards.COLOURS[n.dataset.colour].fill])"""
    )
    keep_picture(ann, "colours")

    def rgb(fill: str) -> str:
        return "rgb({}, {}, {})".format(*(int(fill[i : i + 2], 16) for i in (1, 3, 5)))

    assert sorted(c for c, _, _ in painted) == ["B", "G", "R", "Y"]
    for colour, shown, fill in painted:
        assert shown == rgb(fill), (colour, shown, fill)


def test_the_table_shows_the_rounds_deal_fingerprint(webapp_stack: WebAppStack, phone: Any) -> None:
    """RULES.md §2 "Checking a deal": the table shows the short fingerprint of the round's
    commitment to its shuffle, the chat's line, and never the seed."""
    game = deal(webapp_stack, ["Ann", "Bob"], {"hands": ["R5 G7", "B1 B2"], "discard": "R3"})
    ann = phone("Ann", game)
    ann.wait_for_selector("#fingerprint:not(:empty)")
    shown = ann.text_content("#fingerprint") or ""
    assert re.search(r"🔒 .*\b[0-9a-f]{8}\b", shown), shown


def test_a_rounds_scores_give_way_once_the_next_round_is_played_and_the_end_stays(
    webapp_stack: WebAppStack, phone: Any
) -> None:
    """RULES.md §2 "Scoring": Ann goes out, the round's scores show; the next round is
    dealt, and once its first move is made they are gone from above the table. The game's
    end, when the host ends it, stays, with nothing left to press."""
    game = deal(webapp_stack, ["Ann", "Bob"], {"hands": ["R5", "B1 B2 B3"], "discard": "R3"})
    ann, bob = phone("Ann", game), phone("Bob", game)
    ann.click(".hand-card.playable[data-code='R5']")
    for page in (ann, bob):
        page.wait_for_selector("#result[data-round='1']:not([hidden])")
    # round 2 is dealt in the write that ends round 1: 7 cards each, more for whoever its
    # first card makes draw (RULES.md §2 "First card turned up")
    for page in (ann, bob):
        page.wait_for_selector(f"body[data-version='{game.version + 1}']")
        assert page.locator(".hand-card").count() >= 7
    # the scores above the table leave the new round's hands wholly on the screen
    for name, page in (("ann", ann), ("bob", bob)):
        keep_picture(page, f"round-result-{name}")
        assert outside_the_screen(page, ".hand-card") == [], name
    version = int(ann.get_attribute("body", "data-version") or 0)
    owing = ann.get_attribute("body", "data-owing")
    # whoever owes round 2's first decision takes it: a draw, or the colour where round 2's
    # first card is a wild (RULES.md §2 "First card turned up")
    who = "Ann" if owing == "0" else "Bob"
    act(webapp_stack, game.game_id, who, first_decision(webapp_stack, game.game_id, who), version)
    for page in (ann, bob):
        page.wait_for_selector(f"body[data-version='{version + 1}']")
        assert page.locator("#result").is_hidden()
    keep_picture(ann, "mid-turn")
    # the host ends the game (/end): its end shows at once, with nothing left to press
    end(webapp_stack, game.game_id, "Ann")
    for page in (ann, bob):
        page.wait_for_selector("#result[data-over='1']:not([hidden])")
        # no card and no move left to press (the end's own links, the replay's, stay)
        assert page.locator(".hand-card, #table .decision, #dock .decision").count() == 0
        assert "⏱" not in (page.text_content("#turn") or "")
    keep_picture(ann, "game-end")


def frozen_stream(page: Any) -> None:
    """The page's table stream answers its first table, and only that, however often the
    page asks again: the page stays a moment behind the game, as a slow phone can be."""
    first: list[bytes] = []

    def handle(route: Any) -> None:
        if not first:
            with httpx.stream("GET", route.request.url, timeout=20) as answer:
                seen = b""
                for chunk in answer.iter_bytes():
                    seen += chunk
                    start = seen.find(b"event: table")
                    end = seen.find(b"\n\n", start) if start >= 0 else -1
                    if end >= 0:
                        first.append(seen[: end + 2])
                        break
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=first[0])

    page.route("**/stream?**", handle)


def test_a_catch_pressed_after_someone_elses_is_told_it_was_already_made(
    webapp_stack: WebAppStack, phone: Any, browser: Any
) -> None:
    """RULES.md §2 "UNO": Bob plays down to one card without calling; Sam catches him
    first, then Ann's Catch! arrives: she is told Bob was already caught."""
    game = deal(
        webapp_stack,
        ["Ann", "Bob", "Sam"],
        {"hands": ["R5 R6 R8", "R7 G7", "G1 G2 G3"], "discard": "R3"},
    )
    v = act(webapp_stack, game.game_id, "Ann", "p.R5", game.version)
    v = act(webapp_stack, game.game_id, "Bob", "p.R7", v)  # one card left, no UNO called
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    try:
        ann = context.new_page()
        frozen_stream(ann)
        ann.goto(webapp_stack.open_app("Ann", game.game_id)["url"])
        ann.wait_for_selector(f"body[data-version='{v}'] .decision[data-action='x.1']")
        act(webapp_stack, game.game_id, "Sam", "x.1", v)
        ann.click(".decision[data-action='x.1']")
        ann.wait_for_selector("#notice:not([hidden])")
        told = plain_text(ann.text_content("#notice") or "")
        assert told == plain_text(gettext("en", "{name} was already caught.", name="Bob")), told
    finally:
        context.close()
