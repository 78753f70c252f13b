"""The playground page in a real browser (Debian's Chromium, driven by Playwright) against
the whole stack that ``make play`` starts: two people play a full round of Classic UNO with
an AI through the page, one opening the hand through inline mode, the other through the
private chat; each sees only their own hand; Persian reads right to left. The page's
screenshot is saved (``UNO_TEST_SCREENSHOT=path`` keeps a copy, e.g. for the README).

``make browser`` (part of ``make test``) installs Chromium when it is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import redis
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from harness.launcher import LauncherProcess
from harness.processes import free_port
from playground.control import TelegramControl
from tests.helpers.launcher import TEST_REDIS_URL, start_launcher

pytestmark = pytest.mark.slow

GREETING = "سلام! یک دست اونو بازی کنیم؟"
#: What a player picks, best first: play a card, name a colour, keep, draw, take, swap.
PREFERENCE = ("p.", "c.", "k", "d", "a", "s.")


@pytest.fixture(scope="module")
def playground(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LauncherProcess]:
    """``make play``'s stack on the test Redis, its ports picked free."""
    redis.Redis.from_url(TEST_REDIS_URL).flushdb()
    launcher = start_launcher(
        tmp_path_factory.mktemp("play"),
        "--port",
        str(free_port()),
        "--engine-port",
        str(free_port()),
        UNO_UNO_WINDOW_SECONDS="2",
        UNO_AWAY_PAUSE_SECONDS="0.3",
        # The page's scripted people find a private hand as the chat's last message: no
        # reminder of a slow turn after it.
        UNO_TURN_NUDGE_SECONDS="0",
    )
    try:
        launcher.wait_for("UNO playground: ")
        yield launcher
    finally:
        launcher.interrupt()
        for log in sorted((launcher.state_dir / "logs").glob("*.log")):
            if "Traceback" in log.read_text(errors="replace"):
                print(f"==== {log.name}\n{log.read_text(errors='replace')[-6000:]}")


class Page:
    """The playground page, used the way a person would: chips, chats, buttons."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def play_as(self, name: str) -> None:
        self.page.locator(".person", has_text=name).click()
        self.page.wait_for_selector(f".person.current:has-text('{name}')")

    def open_chat(self, which: str) -> None:
        """Click the chat until the page shows it open: the chat list is redrawn on every
        change, so on a loaded machine a click can land between two drawings and be lost.
        If it never opens, the page's status line says why."""
        opened = f".chat-item.open[data-chat='{which}']"
        for _ in range(6):
            self.page.click(f".chat-item[data-chat='{which}']")
            try:
                self.page.wait_for_selector(opened, timeout=10_000)
                return
            except PlaywrightTimeout:
                continue
        status = self.page.text_content("#status")
        raise AssertionError(f"the {which} chat never opened; the page says {status!r}")

    def say(self, text: str) -> None:
        self.page.fill("#text", text)
        self.page.press("#text", "Enter")

    def press(self, selector: str, timeout: float = 90_000) -> None:
        # A bound, not a goal: after a brisk game the group's minute of writes may be spent,
        # and the next lobby waits for the group's budget as Telegram would make it.
        button = self.page.locator(selector).last
        button.wait_for(timeout=timeout)
        button.click()

    def best_move(self, selector: str, attribute: str) -> str | None:
        """Of the elements under ``selector``, the ``attribute`` value (``a|game|version|code``)
        whose code comes first in PREFERENCE; None when there is no move to make."""
        values = [
            v
            for v in self.page.locator(selector).evaluate_all(
                f"nodes => nodes.map(n => n.getAttribute('{attribute}'))"
            )
            if v
        ]
        ranked = [
            (rank, value)
            for value in values
            for rank, prefix in enumerate(PREFERENCE)
            if (code := value.split("|")[-1]) == prefix
            or (prefix.endswith(".") and code.startswith(prefix))
        ]
        return min(ranked)[1] if ranked else None

    def click_now(self, selector: str) -> bool:
        """Click the last of what ``selector`` finds if it is there within a moment (the
        newest message's button): a hand is redrawn
        when the bot edits it, and a move that is gone is no longer to be made."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.locator(selector).last.click(timeout=3_000)
        except PlaywrightTimeout:
            return False
        return True

    def move_through_inline_mode(self, shown: Callable[[], None] = lambda: None) -> bool:
        """Open the hand with the table's "My cards" and choose the best move, if any;
        ``shown`` is called while the hand is open."""
        self.open_chat("group")
        if not self.click_now("#messages button:has-text('My cards')"):
            return False
        self.page.wait_for_function(
            "() => !document.querySelector('#inline-results').hidden"
            " && !document.querySelector('#inline-title').textContent.startsWith('loading')"
        )
        move = self.best_move(".inline-result[data-result-id^='a|']", "data-result-id")
        shown()
        if move is None:
            self.page.click("#inline-close")
            return False
        return self.click_now(f'.inline-result[data-result-id="{move}"]')

    def move_through_private_chat(self) -> bool:
        """Ask for the hand in the private chat ("Private hand") and press the best move."""
        self.open_chat("group")
        if not self.click_now("#messages button[data-callback^='h|']"):
            return False
        self.open_chat("private")
        hand = "#messages .msg:last-child button[data-callback^='a|']"
        try:
            self.page.wait_for_selector(hand, timeout=3_000)
        except Exception:
            return False
        move = self.best_move(hand, "data-callback")
        return move is not None and self.click_now(f'#messages button[data-callback="{move}"]')

    def live_table_in_view(self, last: int = 3) -> None:
        """Wait until the group's live table (its newest, with buttons) is among the chat's
        last ``last`` messages and shown in the chat's view as the page left it: nothing is
        scrolled to find it."""
        self.open_chat("group")
        self.page.wait_for_function(
            """last => {
                const box = document.querySelector('#messages');
                const messages = [...box.querySelectorAll('.msg')];
                const tables = messages.filter(
                    m => m.textContent.includes('🎴 UNO') && m.querySelector('button'));
                if (!tables.length) return false;
                const table = tables[tables.length - 1];
                if (messages.length - messages.indexOf(table) > last) return false;
                const seen = box.getBoundingClientRect(), at = table.getBoundingClientRect();
                return at.top >= seen.top && at.top < seen.bottom;
            }""",
            arg=last,
            timeout=60_000,
        )


class OnThePage(NamedTuple):
    control: TelegramControl
    page: Page


@pytest.fixture
def on_the_page(playground: LauncherProcess, browser: Any) -> Iterator[OnThePage]:
    """The playground page in a new browser context, open as "Alex". Telegram's flood limits
    are off: 20 messages a minute in a group would make a round take minutes, and what the
    page shows does not depend on them. At the end, no script error on the page."""
    control = TelegramControl(playground.page_url.rstrip("/"))
    control.set_limits(False)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        errors: list[str] = []
        raw = context.new_page()
        raw.on("pageerror", lambda error: errors.append(str(error)))
        raw.goto(playground.page_url)
        raw.wait_for_selector(".person.current:has-text('Alex')")
        yield OnThePage(control, Page(raw))
        assert errors == [], errors
    finally:
        context.close()


def whose_turn(texts: list[str]) -> str | None:
    """The name after "▶" on the latest table message (names are isolated: U+2068/9)."""
    for text in reversed(texts):
        if any(line.startswith("🎴") for line in text.split("\n", 2)[:2]):
            found = re.search("▶ \u2068(.+?)\u2069", text)
            return found.group(1) if found else None
    return None


def group_texts(control: TelegramControl, group_id: int) -> list[str]:
    return [m.get("text") or "" for m in control.messages(group_id) if not m["deleted"]]


def test_a_person_picks_house_rules_from_the_page_and_the_lobby_shows_them(
    on_the_page: OnThePage,
) -> None:
    """On the page, a person picks the variant's house rules (/settings from the
    bot's own command menu) and the next game's lobby shows them. "Alex" owns the group, so
    may change its settings. Put back as it was at the end, for the round below."""
    page = on_the_page.page
    raw = page.page
    page.open_chat("group")

    raw.click("#menu")
    raw.locator("#commands button", has_text="/settings").click()
    page.press("#messages button[data-callback$='|p.h']")
    page.press("#messages button[data-callback$='|h.jump_in']")
    raw.wait_for_selector("#messages .msg:has-text('House rules: Jump-In')")

    page.say("/new")
    page.press("#messages button[data-callback$='|classic']")
    raw.wait_for_selector(
        "#messages .msg:has-text('waiting for players'):has-text('House rules: Jump-In')"
    )

    page.say("/end")
    raw.wait_for_selector("#messages .msg:has-text('waiting for players')", state="detached")
    page.press("#messages button[data-callback$='|h.jump_in']")
    raw.wait_for_selector("#messages .msg:has-text('House rules: none')")


def test_a_table_posted_anew_leaves_none_above_it_looking_live(on_the_page: OnThePage) -> None:
    """Alex plays an AI from the inline hand, chatting meanwhile, and keeps playing: when
    their messages and cards push the table up, it is posted anew at the bottom, and the
    one above is deleted as soon as the group's budget allows a write the moves do not
    need, not once the game pauses (the local Telegram's record says so): the page soon
    shows one table saying whose turn it is while the game goes on. Ended at the end, for
    the round below."""
    control, page = on_the_page
    raw = page.page
    page.open_chat("group")
    page.say("/new")
    page.press("#messages button[data-callback$='|classic']")
    page.press("#messages button[data-callback$='|ai.strong']")
    page.press("#messages button[data-callback$='|start']")
    group_id = next(c["id"] for c in control.state()["chats"] if c["type"] != "private")

    def tables() -> list[dict[str, Any]]:
        return [
            m
            for m in control.messages(group_id)
            if "🎴 UNO" in (m.get("text") or "") and "round" in (m.get("text") or "")
        ]

    first = control.wait_until(tables, timeout=60, what="the table")[-1]
    since = control.calls()[-1]["seq"]
    page.say("one moment")
    page.say("here I go")
    deadline = time.monotonic() + 300  # a bound, not a goal
    moves_after_repost = 0
    while True:
        assert time.monotonic() < deadline, "no table was posted anew"
        now = tables()
        reposted = any(t["message_id"] > first["message_id"] for t in now)
        live = [t for t in now if not t["deleted"]]
        if reposted and [t["message_id"] for t in live] == [now[-1]["message_id"]]:
            break  # one table left, the newest
        # Alex keeps playing whenever it is his turn: the game never pauses for the tidying.
        assert moves_after_repost <= 8, [(t["message_id"], t["text"][:40]) for t in live]
        if whose_turn(group_texts(control, group_id)) == "Alex":
            page.play_as("Alex")
            if page.move_through_inline_mode() and reposted:
                moves_after_repost += 1
            continue
        time.sleep(0.3)  # the AI's turn, or the table catching up
    # Between the table posted anew and the deletion of the one above, the group got no
    # write but tables.
    writes = [
        c
        for c in control.calls(since=since)
        if c.get("chat_id") == group_id
        and c["ok"]
        and c["method"] in ("sendMessage", "editMessageText", "deleteMessage", "deleteMessages")
    ]
    reposts = [n for n, c in enumerate(writes) if c["method"] == "sendMessage"]
    deletions = [n for n, c in enumerate(writes) if c["method"].startswith("delete")]
    assert reposts and deletions and deletions[0] > reposts[0], [c["method"] for c in writes]
    between = writes[reposts[0] + 1 : deletions[0]]
    assert all("🎴 UNO" in str((c.get("params") or {}).get("text")) for c in between)
    # This game's end, not the lobby's the test above ended: the next test starts after it.
    ended = raw.locator("#messages .msg:has-text('The game was ended.')")
    ended_before = ended.count()
    page.say("/end")
    raw.wait_for_function(
        "n => document.querySelectorAll('#messages .msg').length && [...document"
        ".querySelectorAll('#messages .msg')].filter(m => m.textContent.includes("
        "'The game was ended.')).length > n",
        arg=ended_before,
    )


def test_two_people_and_an_ai_play_a_full_round_through_the_page(
    on_the_page: OnThePage, tmp_path: Path
) -> None:
    control, page = on_the_page
    raw = page.page

    # A second person, who reads Persian, joins the group through the page.
    raw.click("#add-person")
    raw.fill("#person-dialog input[name=first_name]", "Sara")
    raw.select_option("#person-dialog select[name=language_code]", "fa")
    raw.click("#person-ok")
    raw.wait_for_selector(".person.current:has-text('Sara')")
    page.open_chat("group")
    page.say(GREETING)

    # Alex starts a Classic game; Sara joins; Alex adds an AI player and deals. What the
    # group held before (an earlier game's table and end) is not this round's.
    group_id = next(c["id"] for c in control.state()["chats"])
    before = max((m["message_id"] for m in control.messages(group_id)), default=0)

    def texts() -> list[str]:
        return [
            m.get("text") or ""
            for m in control.messages(group_id)
            if not m["deleted"] and m["message_id"] > before
        ]

    page.play_as("Alex")
    page.open_chat("group")
    page.say("/new")
    page.press("#messages button[data-callback$='|classic']")
    page.play_as("Sara")
    page.press("#messages button[data-callback$='|join']")
    page.play_as("Alex")
    page.press("#messages button[data-callback$='|ai.strong']")
    page.press("#messages button[data-callback$='|start']")

    pictures: list[Path] = []

    def picture() -> None:
        """The README's picture: the table, and the hand open with cards to play."""
        if not pictures and raw.locator(".inline-result[data-result-id*='|p.']").count() >= 2:
            raw.locator("#toast").evaluate("node => { node.hidden = true; }")
            pictures.append(tmp_path / "playground-inline.png")
            raw.screenshot(path=str(pictures[0]))

    def in_view_after_turn() -> None:
        """After every turn the live table is at the bottom of the group, in view (until
        the round's scores take its place)."""
        if not any(t.startswith("🏁") for t in texts()):
            page.live_table_in_view()

    deadline = time.monotonic() + 1200  # a bound, not a goal: a loaded machine plays slowly
    moves = {"Alex": 0, "Sara": 0}
    while not any(t.startswith("🏁") for t in texts()):
        assert time.monotonic() < deadline, "the round did not end:\n" + "\n".join(texts()[-5:])
        turn = whose_turn(texts())
        if turn == "Alex":
            page.play_as("Alex")
            if page.move_through_inline_mode(shown=picture):
                moves["Alex"] += 1
                in_view_after_turn()
                continue
        elif turn == "Sara":
            page.play_as("Sara")
            if page.move_through_private_chat():
                moves["Sara"] += 1
                in_view_after_turn()
                continue
        time.sleep(0.3)  # the AI's turn, a window running out, or the table catching up
    assert moves["Alex"] > 0 and moves["Sara"] > 0, moves

    # The round's end is in the group, as each person sees it.
    page.play_as("Alex")
    page.open_chat("group")
    raw.wait_for_selector("#messages .msg:has-text('🏁')")
    raw.screenshot(path=str(tmp_path / "playground.png"))

    # Each sees only their own hand: You played from inline mode, so You's private chat
    # holds no hand; Sara's holds hers, headed with the group it belongs to.
    page.open_chat("private")
    assert raw.locator("#messages button[data-callback^='a|']").count() == 0
    assert "UNO night" not in raw.locator("#messages").inner_text()
    page.play_as("Sara")
    page.open_chat("private")
    raw.wait_for_selector("#messages .msg:has-text('UNO night')")

    # Persian reads right to left; English left to right.
    page.open_chat("group")
    greeting = raw.locator("#messages .text", has_text="سلام").first
    assert greeting.evaluate("e => getComputedStyle(e).direction") == "rtl"
    english = raw.locator("#messages .text", has_text="/new").first
    assert english.evaluate("e => getComputedStyle(e).direction") == "ltr"

    keep = os.environ.get("UNO_TEST_SCREENSHOT")
    if keep and pictures:
        shutil.copy(pictures[0], keep)
