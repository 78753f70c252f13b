"""A game's replay end to end, at a phone's size (390×844, Debian's Chromium driven by
Playwright): a round is played in a group of the local Telegram, the bot's final message of
the game carries a Replay button (a direct link to the replay page, an app of its own with
@BotFather), the local Telegram opens it as its clients do, and the page steps through the
game move by move and a round at a time, every hand shown, and checks its deals (RULES.md
§2 "Checking a deal"). ``/replay`` offers the chat's last game the same way. Each step
waits for what the chat or the page shows."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from harness.players import buttons
from harness.rounds import play_a_round
from harness.services import ENGINE_TOKEN, WebAppProcess, start_webapp
from harness.stack import FAST_LIMITS, Stack, start_stack
from services.engine.client import EngineClient, GameInfo
from services.presentation.i18n import gettext

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
PHONE = {"width": 390, "height": 844}
REPLAY = "🎞 Replay"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def replay_stack(
    local_telegram: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Stack, WebAppProcess]]:
    """The stack with a Mini App replica whose table and replay page are registered as the
    bot's two apps (``table`` and ``replay``), and a bot told where they are."""
    local_telegram.control.set_limits(False)
    log_dir = tmp_path_factory.mktemp("replays")
    stack = start_stack(
        TEST_REDIS_URL,
        log_dir,
        telegram_url=local_telegram.url,
        bot_username="uno_replays_bot",
        bot_env=FAST_LIMITS,
    )
    webapp = start_webapp(
        "webapp", TEST_REDIS_URL, stack.engine_url, stack.bot_api_url, stack.token, log_dir
    )
    stack.control.register_web_app(stack.token, "table", f"{webapp.url}/")
    stack.control.register_web_app(stack.token, "replay", f"{webapp.url}/replay")
    stack.start_bot("bot-a", UNO_WEBAPP_PUBLIC_URL=f"{webapp.url}/")
    yield stack, webapp
    webapp.stop()
    stack.stop()
    local_telegram.control.set_limits(True)


def in_a_thread(work: Any) -> Any:
    """Playwright's sync API runs its own event loop in the test's thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def keep_picture(page: Any, name: str) -> None:
    pictures = os.environ.get("UNO_TEST_SCREENSHOT_DIR")
    if pictures:
        page.screenshot(path=os.path.join(pictures, f"{name}.png"))


def replay_button(stack: Stack, chat_id: int, after: int = 0) -> dict[str, Any]:
    """The first Replay button the bot posted in the chat after message ``after``."""

    def posted() -> dict[str, Any] | None:
        for message in stack.players(chat_id).bot_messages():
            if message["message_id"] <= after:
                continue
            for button in buttons(message):
                if button.get("text") == REPLAY:
                    return {"message": message, **button}
        return None

    found = stack.control.wait_until(posted, timeout=120, what="a Replay button")
    assert found is not None
    return found


def reply_to(stack: Stack, chat_id: int, said: dict[str, Any]) -> str:
    """The text of the bot's reply to the message ``said``."""

    def replied() -> str | None:
        for message in stack.players(chat_id).bot_messages():
            if (message.get("reply_to_message") or {}).get("message_id") == said["message_id"]:
                return str(message["text"])
        return None

    found = stack.control.wait_until(replied, timeout=60, what="the bot's reply")
    assert found is not None
    return found


def test_a_round_played_opens_its_replay_from_the_chat_and_steps_through_it(
    replay_stack: tuple[Stack, WebAppProcess], browser: Any
) -> None:
    stack, webapp = replay_stack
    control = stack.control
    people = [
        control.create_user("Ann", username=None),
        control.create_user("Bob", username=None, language_code="fa"),  # reads Persian
    ]
    chat = control.create_group("UNO night", [p["id"] for p in people], bots=[stack.token])
    players = [(int(p["id"]), p["first_name"]) for p in people]

    async def play() -> GameInfo:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            return await play_a_round(engine, int(chat["id"]), players)

    game: GameInfo = in_a_thread(play())
    assert game.status == "over"

    # The game's final message offers its replay, a direct link to the replay app.
    button = replay_button(stack, int(chat["id"]))
    assert "🏆" in button["message"]["text"]
    link = f"https://t.me/{stack.username}/replay?startapp={game.game_id}"
    assert button["url"] == link
    launch = control.open_web_app(people[0]["id"], "direct_link", link=link, chat_id=chat["id"])
    assert launch["url"].startswith(f"{webapp.url}/replay")

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(launch["url"])
        page.wait_for_selector("body[data-state='ready'][data-position='0']")
        assert page.locator("#step").inner_text() == "the deal"
        assert page.locator("#seats li").count() == 2
        # every hand shown, as dealt (a +2 turned up first adds two to the first player's)
        for seat in (1, 2):
            assert page.locator(f"#seats li:nth-child({seat}) .hand > *").count() >= 7
        assert page.locator("#fingerprint").inner_text().startswith("🔒 ")
        # a move forward, and back
        page.click("#forward")
        page.wait_for_selector("body[data-position='1']")
        assert page.locator("#step").inner_text().startswith("move 1 of ")
        keep_picture(page, "replay-move-1")
        assert page.locator("#lines li").count() >= 1
        page.click("#back")
        page.wait_for_selector("body[data-position='0']")
        # a round at a time: the game was one round, so its end
        page.click("#next-round")
        last = page.locator("#position").get_attribute("max")
        page.wait_for_selector(f"body[data-position='{last}']")
        assert "🏆" in page.locator("#result").inner_text()
        assert page.locator("#forward").is_disabled()
        # played at a chosen speed from its start, to its end
        page.click("#first")
        page.select_option("#speed", "150")
        page.click("#play")
        page.wait_for_function("() => Number(document.body.dataset.position) >= 3")
        page.click("#play")  # pause
        paused = page.get_attribute("body", "data-position")
        assert paused is not None and int(paused) >= 3
        # the controls are on the screen at a phone's size
        box = page.locator("#controls").bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"] + 1
        # the deals checked, round by round
        page.click("#verify")
        page.wait_for_selector("body[data-verdict='valid']")
        assert page.locator("#verdict-rounds li").first.inner_text().startswith("✓ round 1")
        keep_picture(page, "replay-checked")
        # Bob reads it in Persian, right to left; the player's controls stay left to right
        bob = control.open_web_app(people[1]["id"], "direct_link", link=link, chat_id=chat["id"])
        persian = context.new_page()
        persian.goto(bob["url"])
        persian.wait_for_selector("body[data-state='ready'][data-position='0']")
        assert persian.get_attribute("html", "dir") == "rtl"
        assert persian.locator("#step").inner_text() == gettext("fa", "the deal")
        persian.click("#forward")
        persian.wait_for_selector("body[data-position='1']")
        assert (
            persian.locator("#controls").evaluate("(n) => getComputedStyle(n).direction") == "ltr"
        )
        keep_picture(persian, "replay-persian")
    finally:
        context.close()

    # /replay in the chat offers the same game, with the same button
    said = control.send_message(people[0]["id"], chat["id"], "/replay")
    offered = replay_button(stack, int(chat["id"]), after=int(said["message_id"]))
    assert offered["url"] == link
    assert "Replay of the Classic game of" in offered["message"]["text"]
    # /replay <id>: a game the sender played; another id is refused in words
    said = control.send_message(people[0]["id"], chat["id"], f"/replay {game.game_id}")
    offered = replay_button(stack, int(chat["id"]), after=int(said["message_id"]))
    assert offered["url"] == link
    said = control.send_message(people[0]["id"], chat["id"], "/replay Gnot-a-game")
    assert reply_to(stack, int(chat["id"]), said) == "You did not play in that game."
