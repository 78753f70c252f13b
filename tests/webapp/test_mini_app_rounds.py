"""A whole round of every variant played through the Mini App's table in a real browser
(Debian's Chromium, driven by Playwright) at a phone's size (390×844): Ann (English) and Bob
(Persian, right to left) tap their cards or drag them onto the pile (every other card
played goes by drag), and tap the decisions the rules owe them in place (a colour on the
wheel over the pile, a 7's swap on the seat), an AI seat (played by the real worker) plays
between them, and Sam, a member of the group with no seat, watches in Gujarati (his
/language choice, as the bot keeps it) and never sees a hand. Each round is dealt short
(RULES.md §1 notation) so it opens on the variant's own decisions; it ends when the
spectator's page shows the round's result. Every step waits for what the pages show.
``UNO_TEST_SCREENSHOT_DIR=dir`` keeps a picture of each page of each variant's table as the
scripted opening leaves it."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis as sync_redis

from harness.services import ENGINE_TOKEN, start_worker
from services.engine.client import EngineClient, GameInfo, SeatSpec
from services.language_preferences import CHOICE_KEY
from services.presentation.cards import color_name
from services.presentation.i18n import gettext
from services.presentation.locales.glossary import face_name
from tests.helpers.chat_text import plain_text
from tests.helpers.webapp import WebAppStack

pytestmark = pytest.mark.slow

#: Generous: the machine may be loaded, and an AI seat moves after the stand-in's pause.
WAIT_MS = 120_000
#: A round dealt this short ends within this many presses (each waited for); more is a bug.
MOST_STEPS = 120

ANN, BOB, AI = 0, 1, 2


@dataclass
class Scene:
    """A variant's round: its deal, and the codes the people press first when offered
    (the variant's own decisions), in order."""

    variant: str
    hands: list[str]
    discard: str
    draw_pile: str
    first: list[str] = field(default_factory=list)
    options: dict[str, bool] = field(default_factory=dict)


#: A long draw pile of plain numbers (the round never runs out of it).
NUMBERS = " ".join(f"{c}{n}" for n in range(1, 10) for c in "YBGR")
FLIP_NUMBERS = " ".join(
    f"{c}{n}/{d}{n}" for n in range(1, 10) for c, d in zip("YBGR", "PTOV", strict=True)
)
AI_HAND = "Y2 Y3 B2 B3 G2 G3 Y8"


@pytest.fixture(scope="module")
def worker(webapp_stack: WebAppStack) -> Iterator[Any]:
    """The real worker: it fires the deadlines, so the AI seat plays its turns."""
    proc = start_worker(
        webapp_stack.redis_url, webapp_stack.engine_url, webapp_stack.log_dir, "rounds-worker"
    )
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def sam_speaks_gujarati(webapp_stack: WebAppStack) -> Iterator[None]:
    """Sam chose Gujarati with /language: the bot keeps it, and the app speaks it to him."""
    client = sync_redis.Redis.from_url(webapp_stack.redis_url)
    key = CHOICE_KEY.format(user_id=webapp_stack.people["Sam"]["id"])
    client.set(key, "gu")
    yield
    client.delete(key)
    client.close()


def deal(stack: WebAppStack, scene: Scene) -> GameInfo:
    async def create() -> GameInfo:
        seats = [
            SeatSpec(name="Ann", user_id=stack.people["Ann"]["id"]),
            SeatSpec(name="Bob", user_id=stack.people["Bob"]["id"]),
            SeatSpec(name="AI 1", ai="first-legal"),
        ]
        setup = {
            "variant": scene.variant,
            "hands": scene.hands,
            "discard": scene.discard,
            "draw_pile": scene.draw_pile,
            "current": ANN,
            "options": scene.options,
        }
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            existing = await engine.chat_game(stack.group["id"])
            if existing is not None:
                await engine.end(existing.game_id, existing.host, admin=True)
            return await engine.create_test_game(stack.group["id"], seats, setup, turn_seconds=600)

    # Playwright's sync API runs its own event loop in this thread: the deal runs in another
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, create()).result()


def version_of(page: Any) -> int:
    return int(page.get_attribute("body", "data-version") or -1)


def reached(page: Any, version: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)


def offered(page: Any) -> tuple[list[str], list[str]]:
    """The decision buttons' codes and the raised (playable) cards' codes on ``page``."""
    decisions = page.locator(".decision").evaluate_all("n => n.map(e => e.dataset.action)")
    cards = page.locator(".hand-card.playable").evaluate_all("n => n.map(e => e.dataset.code)")
    return decisions, cards


#: How many cards each page has played, so every other one goes by drag.
PLAYED: dict[int, int] = {}


def drag_onto_the_pile(page: Any, code: str) -> None:
    """Drag the card ``code`` by the part of it the next card leaves seen (the start of
    its line: left, or right in Persian) and let go over the pile."""
    card = page.locator(f".hand-card.playable[data-code='{code}']")
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    pile = page.locator("#pile-zone").bounding_box()
    assert box is not None and pile is not None
    rtl = page.get_attribute("html", "dir") == "rtl"
    x = box["x"] + (box["width"] - 18 if rtl else 18)
    y = box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
    page.mouse.up()


def press(page: Any, code: str) -> bool:
    """Press ``code`` (a card, tapped or dragged onto the pile, or a decision) and wait
    until the page shows the next version (True), or says the press was refused (False)."""
    version = version_of(page)
    refused = page.get_attribute("body", "data-refused") or "0"
    if code.startswith("p."):
        played = PLAYED[id(page)] = PLAYED.get(id(page), 0) + 1
        if played % 2 == 0:
            drag_onto_the_pile(page, code[2:])
        else:
            page.click(f".hand-card.playable[data-code='{code[2:]}']")
    else:
        page.click(f".decision[data-action='{code}']")
    page.wait_for_function(
        "([v, r]) => document.body.dataset.version !== v"
        " || (document.body.dataset.refused || '0') !== r",
        arg=[str(version), refused],
    )
    return version_of(page) != version


def do(page: Any, code: str) -> None:
    """A scripted press, which the rules must take."""
    assert press(page, code), f"{code} refused: {page.text_content('#notice')}"


def choose(decisions: list[str], cards: list[str], first: list[str]) -> str | None:
    """What a person presses: the scene's own decision when offered, UNO! when it can be
    called, then a card, a colour, a swap, taking a draw, keeping, drawing."""
    plays = [f"p.{c}" for c in cards]
    for code in first:
        if code in decisions or code in plays:
            first.remove(code)
            return code
    if "u" in decisions:
        return "u"
    if plays:
        return plays[0]
    for head in ("c.", "s."):
        picks = [d for d in decisions if d.startswith(head)]
        if picks:
            return picks[0]
    for code in ("a", "k", "d"):
        if code in decisions:
            return code
    return None


def play_round(people: dict[int, Any], sam: Any, scene: Scene) -> None:
    """Play until the spectator's page shows the round's result: each person presses
    what they owe when their page shows it; the AI seat's turns are the worker's."""
    first = list(scene.first)
    for _ in range(MOST_STEPS):
        if sam.locator("#result[data-round='1']").count():
            return
        version = version_of(sam)
        owing = int(sam.get_attribute("body", "data-owing") or -1)
        page = people.get(owing)
        if page is not None:
            reached(page, version)
            if page.get_attribute("body", "data-owing") == str(owing):
                decisions, cards = offered(page)
                code = choose(decisions, cards, first)
                assert code is not None, (scene.variant, decisions, cards)
                press(page, code)
        sam.wait_for_function(
            "v => document.body.dataset.version !== v"
            " || document.querySelector(\"#result[data-round='1']\") !== null",
            arg=str(version),
        )
    raise AssertionError(f"{scene.variant}: no result after {MOST_STEPS} steps")


def expect_label(page: Any, code: str, text: str) -> None:
    page.wait_for_selector(f".decision[data-action='{code}']")
    shown = page.text_content(f".decision[data-action='{code}']") or ""
    assert plain_text(shown) == plain_text(text)


@pytest.fixture
def tables(
    webapp_stack: WebAppStack, browser: Any, worker: Any, sam_speaks_gujarati: None
) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(WAIT_MS)

    def open_game(game: GameInfo) -> tuple[Any, Any, Any]:
        ann, bob, sam = (context.new_page() for _ in range(3))
        for page, name in ((ann, "Ann"), (bob, "Bob"), (sam, "Sam")):
            page.goto(webapp_stack.open_app(name, game.game_id)["url"])
            reached(page, game.version)
        return ann, bob, sam

    try:
        yield open_game
    finally:
        context.close()


def start(stack: WebAppStack, tables: Any, scene: Scene) -> tuple[Any, Any, Any]:
    game = deal(stack, scene)
    ann, bob, sam = tables(game)
    assert ann.get_attribute("html", "dir") == "ltr" and bob.get_attribute("html", "dir") == "rtl"
    assert sam.get_attribute("html", "lang") == "gu"
    assert sam.get_attribute("body", "data-role") == "spectator"
    return ann, bob, sam


def finish(scene: Scene, ann: Any, bob: Any, sam: Any) -> None:
    pictures = os.environ.get("UNO_TEST_SCREENSHOT_DIR")
    if pictures:
        for page, name in ((ann, "ann"), (bob, "bob"), (sam, "sam")):
            page.screenshot(path=os.path.join(pictures, f"{scene.variant}-{name}.png"))
    play_round({ANN: ann, BOB: bob}, sam, scene)
    # the round's result on every page, in each viewer's language; never a hand for Sam
    # (shown until the next round's first move, which the AI may make at once)
    for page, lang in ((ann, "en"), (bob, "fa"), (sam, "gu")):
        page.wait_for_selector("#result[data-round='1']", state="attached")
        heading = gettext(lang, "Round {n} goes to {name}", n=1, name="").strip()
        assert heading.split()[0] in page.text_content("#result"), (lang, heading)
    assert sam.locator(".hand-card").count() == 0 and sam.locator(".decision").count() == 0


def test_classic_round_with_a_challenged_wild_draw_four(
    webapp_stack: WebAppStack, tables: Any
) -> None:
    """RULES.md §2: a Wild Draw Four, its colour, and the challenge offered beside taking."""
    scene = Scene("classic", ["W+4 G5", "Y9 B7 G7", AI_HAND], "R3", NUMBERS)
    ann, bob, sam = start(webapp_stack, tables, scene)
    # the event line and card names are the chat's: Ann's wild is named on her card
    assert ann.get_attribute(".hand-card[data-code='W+4']", "title") == "Wild Draw Four"
    do(ann, "u")
    do(ann, "p.W+4")
    expect_label(ann, "c.G", "🟩 " + gettext("en", "green"))
    do(ann, "c.G")
    # Bob may challenge the Wild Draw Four or take the cards: the chat's two buttons
    reached(bob, version_of(ann))
    expect_label(bob, "ch", "⚖️ " + gettext("fa", "Challenge"))
    expect_label(bob, "a", "📥 " + gettext("fa", "Take +{n}", n=4))
    assert bob.text_content("#why")
    do(bob, "ch")
    sam.wait_for_function("() => document.querySelector('#log').textContent.includes('Bob')")
    finish(scene, ann, bob, sam)


def test_flip_round_turns_to_the_dark_side(webapp_stack: WebAppStack, tables: Any) -> None:
    """RULES.md §3 "What is visible" and "Both sides" (F), and a drawn card played or kept."""
    scene = Scene(
        "flip",
        ["RF/OF G5/P5", "Y9/T9 B7/O7 R1/O1", "Y2/P2 Y3/T3 B2/O2 B3/V3 G2/P2 G3/T3 Y8/O8"],
        "R3/V3",
        FLIP_NUMBERS,
    )
    ann, bob, sam = start(webapp_stack, tables, scene)
    assert sam.get_attribute("body", "data-side") == "light"
    # the draw pile's top card as the table sees it: its dark side (RULES.md §3)
    sam.wait_for_selector("#draw-back[data-code='P1']")
    # the others' cards show their dark faces to Sam
    assert sam.locator(".seat[data-seat='0'] .backs .card").count() == 2
    do(ann, "u")
    do(ann, "p.RF")
    for page in (ann, bob, sam):
        page.wait_for_selector("body[data-side='dark']")
    # on the dark side Ann's hand is dark-faced, and the draw pile shows a light back
    ann.wait_for_selector(".hand-card[data-code='P5'] .card[data-side='dark']")
    sam.wait_for_selector("#draw-back[data-code='R9']")  # the pile turned over too
    assert gettext("gu", "dark side") in (sam.text_content("#head") or "")
    # Bob has nothing for the violet 3: he draws the violet 9, then plays it or keeps it
    reached(bob, version_of(ann))
    assert bob.locator(".hand-card.playable").count() == 0
    do(bob, "d")
    bob.wait_for_selector(".hand-card.playable[data-code='V9']")
    expect_label(bob, "k", "✋ " + gettext("fa", "Keep"))
    do(bob, "k")
    finish(scene, ann, bob, sam)


def test_no_mercy_round_with_a_swap_a_knock_out_a_roulette_a_stack_and_a_zero(
    webapp_stack: WebAppStack, tables: Any
) -> None:
    """RULES.md §4 "Seven and zero", "Mercy", "Stacking" and "Actions" (WCR) on the page."""
    ai_hand = " ".join((["Y5", "Y6", "B5", "B6", "G5", "G6"] * 4)[:23])  # no draw card
    # the AI's knock-out draws the first two; Bob's roulette turns up a +2, a 0 and a blue
    pile = "Y7 Y8 Y+2 Y0 B1 " + NUMBERS
    scene = Scene("no_mercy", ["R7 R+2 G1", "B+2 B4 WCR", ai_hand], "R3", pile)
    ann, bob, sam = start(webapp_stack, tables, scene)
    do(ann, "p.R7")
    # a 7: whom to swap hands with, as the chat asks it
    expect_label(ann, "s.1", "🔄 " + gettext("en", "Swap with {name}", name="Bob"))
    expect_label(ann, "s.2", "🔄 " + gettext("en", "Swap with {name}", name="AI 1"))
    do(ann, "s.1")
    bob.wait_for_selector(".hand-card[data-code='R+2']")
    ann.wait_for_selector(".hand-card[data-code='B+2']")
    do(bob, "u")
    do(bob, "p.R+2")
    # the AI holds 23 and cannot stack: it takes 2 and is knocked out by the mercy rule
    sam.wait_for_selector(".seat[data-seat='2'][data-knocked-out]")
    # Ann's colour roulette: Bob, next, names the colour and turns cards up until it shows
    do(ann, "p.WCR")
    expect_label(bob, "c.B", "🟦 " + color_name("fa", "B"))
    assert plain_text(bob.text_content("#why") or "") == gettext(
        "fa", "colour roulette: name a colour"
    )
    do(bob, "c.B")
    bob.wait_for_selector(".hand-card[data-code='Y+2']")
    # Ann's +2 on blue: Bob may stack his +2 on it or take the two
    do(ann, "u")
    do(ann, "p.B+2")
    expect_label(bob, "a", "📥 " + gettext("fa", "Take +{n}", n=2))
    bob.wait_for_selector(".hand-card.playable[data-code='Y+2']")
    do(bob, "p.Y+2")
    sam.wait_for_selector(".seat[data-seat='0'] .count[data-cards='5']")  # Ann took 4
    # Bob's 0: every hand passes on (the knocked-out seat's turn is gone), his two to Ann
    do(bob, "p.Y0")
    sam.wait_for_selector(".seat[data-seat='0'] .count[data-cards='2']")
    sam.wait_for_selector(".seat[data-seat='1'] .count[data-cards='5']")
    rotated = gettext("gu", "every hand passed on")
    assert any(rotated in line for line in sam.locator("#log li").all_text_contents())
    finish(scene, ann, bob, sam)


def test_minecraft_round_with_the_creeper(webapp_stack: WebAppStack, tables: Any) -> None:
    """RULES.md §5 (the Creeper, by its name) and §2's Jump-In house rule."""
    scene = Scene(
        "minecraft", ["W+3 G5", "Y9 G2 G3", AI_HAND], "R3", NUMBERS, options={"jump_in": True}
    )
    ann, bob, sam = start(webapp_stack, tables, scene)
    creeper = face_name("fa", "W+3", "minecraft")
    named = ann.get_attribute(".hand-card[data-code='W+3']", "title")
    assert named == face_name("en", "W+3", "minecraft") == "Mob (Creeper)"
    do(ann, "u")
    do(ann, "p.W+3")
    do(ann, "c.G")
    bob.wait_for_selector(f"#pile svg[aria-label='{creeper}']")
    # Bob draws 3 and is skipped; the AI answers with a green card, and Bob, holding the
    # same card, jumps in with it before Ann plays (Jump-In, RULES.md §2)
    sam.wait_for_selector(
        "body[data-owing='0'] #pile[data-top='G2'], body[data-owing='0'] #pile[data-top='G3']"
    )
    top = sam.get_attribute("#pile", "data-top")
    reached(bob, version_of(sam))
    do(bob, f"p.{top}")
    # the card left Bob's hand (6 after the Creeper's 3) out of his turn
    sam.wait_for_selector(".seat[data-seat='1'] .count[data-cards='5']")
    finish(scene, ann, bob, sam)


def test_minions_round_with_dumb_fu_and_the_themed_wilds(
    webapp_stack: WebAppStack, tables: Any
) -> None:
    """RULES.md §6: Dumb Fu freezes the next player; the Rainbow is named as the sheet has it."""
    scene = Scene("minions", ["WDF G5", "W B7 Y9", AI_HAND], "R3", NUMBERS)
    ann, bob, sam = start(webapp_stack, tables, scene)
    assert bob.get_attribute(".hand-card[data-code='W']", "title") == face_name(
        "fa", "W", "minions"
    )
    assert face_name("en", "W", "minions") == "Rainbow"
    do(ann, "u")
    do(ann, "p.WDF")
    do(ann, "c.B")
    # Dumb Fu freezes Bob, the next player: the table marks him
    sam.wait_for_selector(".seat[data-seat='1'][data-frozen]")
    finish(scene, ann, bob, sam)
