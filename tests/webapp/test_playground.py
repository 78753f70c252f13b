"""The Mini App in the playground: the local Telegram's own page (make play's world) opens
it from a direct link in the group, in its Mini App panel, and the app speaks the web
clients' protocol to it (``web_app_ready``, the theme); the player's tap inside the panel
plays the card."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from harness.play import BOT_USERNAME, FIRST_PERSON, set_up_world
from harness.services import ENGINE_TOKEN, WebAppProcess, start_bot, start_worker
from playground.server import LocalTelegram, start_in_thread
from services.engine.client import EngineClient, GameInfo, SeatSpec
from tests.helpers.chat_text import plain_text
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


def create_in_playground(
    stack: WebAppStack, seats: list[SeatSpec], setup: dict[str, Any]
) -> GameInfo:
    """A game dealt in the playground's group (an earlier one there ended first)."""

    async def create() -> GameInfo:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            existing = await engine.chat_game(stack.group["id"])
            if existing is not None:
                await engine.end(existing.game_id, existing.host, admin=True)
            return await engine.create_test_game(stack.group["id"], seats, setup, turn_seconds=60)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, create()).result()


def turn_left(stack: WebAppStack, game_id: str) -> float:
    """The seconds the engine says the decision owed now has left."""

    async def ask() -> float:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            return float((await engine.views_json(game_id, [1]))["turn_left"])

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, ask()).result()


def open_in_playground(browser: Any, server: LocalTelegram, game_id: str, script: str = "") -> Any:
    """The playground's page in a new context (``script`` run first in every frame), the
    group's link to the game's table pressed: the page and the app's frame, once the app
    shows the game."""
    context = browser.new_context(viewport={"width": 400, "height": 800})
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector("#chat-title:has-text('UNO night')")
    page.click(f".msg:has-text('Your game {game_id}') button:has-text('Open table')")
    page.wait_for_selector("#web-app", state="visible")
    app = page.wait_for_selector("#web-app-frame").content_frame()
    app.wait_for_selector("body[data-version]")
    return page, app


def post_table_link(server: LocalTelegram, stack: WebAppStack, game_id: str) -> None:
    link = f"https://t.me/{BOT_USERNAME}/{APP_NAME}?startapp={game_id}"
    button = {"text": "🎴 Open table", "url": link}
    sent = httpx.post(
        f"{server.bot_api_url}{stack.token}/sendMessage",
        json={
            "chat_id": stack.group["id"],
            "text": f"Your game {game_id}",
            "reply_markup": {"inline_keyboard": [[button]]},
        },
        timeout=30,
    ).json()
    assert sent["ok"], sent


def clock_of(app: Any) -> int:
    """The seconds the app's turn clock shows."""
    shown = app.text_content("#turn") or ""
    found = re.search(r"⏱\s*(\d+)", shown)
    assert found, shown
    return int(found.group(1))


#: A device whose clock is seven minutes slow.
SLOW_DEVICE = "(() => { const real = Date.now; Date.now = () => real.call(Date) - 420000; })();"


def test_the_apps_clock_counts_to_the_servers_deadline_whatever_the_devices_clock(
    playground: tuple[LocalTelegram, WebAppStack, WebAppProcess], browser: Any
) -> None:
    """RULES.md §7 "Timing in a chat": the turn times out when the engine's deadline passes;
    a page opened late into the turn, on a device whose clock is minutes wrong, shows the
    time the turn has left, not a fresh turn."""
    server, stack, _ = playground
    you = stack.people[FIRST_PERSON]["id"]
    seats = [SeatSpec(name=FIRST_PERSON, user_id=you), SeatSpec(name="AI 1", ai="random")]
    game = create_in_playground(
        stack, seats, {"hands": ["R5 G2 B9", "Y1 Y2 Y3"], "discard": "R3", "current": 0}
    )
    post_table_link(server, stack, game.game_id)
    first, app = open_in_playground(browser, server, game.game_id)
    late = None
    try:
        # some of the turn goes by (read off the page's own clock) ...
        app.wait_for_function(
            "() => { const m = document.querySelector('#turn').textContent.match(/⏱\\s*(\\d+)/);"
            " return m !== null && Number(m[1]) <= 54; }"
        )
        # ... then the same person opens the table on a device seven minutes slow
        late, late_app = open_in_playground(browser, server, game.game_id, SLOW_DEVICE)
        late_app.wait_for_selector("#turn:has-text('⏱')")
        # the slow device's clock is behind the other page's by the shift (minutes, not ms)
        assert app.evaluate("() => Date.now()") - late_app.evaluate("() => Date.now()") > 400_000
        for app_frame in (app, late_app):
            before = turn_left(stack, game.game_id)
            shown = clock_of(app_frame)
            after = turn_left(stack, game.game_id)
            # the page's second is rounded up and redrawn a few times a second
            assert after - 1 <= shown <= before + 1.5, (after, shown, before)
    finally:
        first.context.close()
        if late is not None:
            late.context.close()


def ends_on_the_page(app: Any, heading: str) -> None:
    """The game's end as the app shows it at once: the result and every seat's score, no
    hand, nothing of the game left to decide, no turn and no clock; what is offered is the
    end's own (the replay, and a rematch vote where one is open)."""
    app.wait_for_selector("#result[data-over='1']:not([hidden])")
    result = plain_text(app.text_content("#result") or "")
    assert heading in result and f"{FIRST_PERSON}:" in result, result
    assert app.locator(".hand-card").count() == 0
    assert app.locator("#table .decision, #dock .decision").count() == 0
    app.wait_for_selector("#end:not([hidden]) .decision.replay")
    turn = app.text_content("#turn") or ""
    assert "⏱" not in turn and "Your turn" not in turn, turn


def test_the_app_shows_a_game_ended_in_the_group_at_once(
    playground: tuple[LocalTelegram, WebAppStack, WebAppProcess], browser: Any
) -> None:
    """The player sends /end in the group (the playground's chat, to the real bot) while
    the table is open on their turn."""
    server, stack, _ = playground
    bot = start_bot(
        "playground-bot",
        stack.redis_url,
        stack.engine_url,
        server.bot_api_url,
        stack.token,
        stack.log_dir,
    )
    you = stack.people[FIRST_PERSON]["id"]
    seats = [SeatSpec(name=FIRST_PERSON, user_id=you), SeatSpec(name="AI 1", ai="random")]
    game = create_in_playground(
        stack, seats, {"hands": ["R5 G2 B9", "Y1 Y2 Y3"], "discard": "R3", "current": 0}
    )
    post_table_link(server, stack, game.game_id)
    page, app = open_in_playground(browser, server, game.game_id)
    try:
        app.wait_for_selector("#turn:has-text('Your turn')")
        assert app.locator(".hand-card").count() == 3
        page.fill("#text", "/end")
        page.press("#text", "Enter")
        ends_on_the_page(app, "The game was ended.")
    finally:
        page.context.close()
        bot.stop()


def test_the_app_shows_a_no_mercy_game_won_by_a_knock_out_at_once(
    playground: tuple[LocalTelegram, WebAppStack, WebAppProcess], browser: Any
) -> None:
    """RULES.md §4 "Mercy": the AI, made to take two with 23 cards, is knocked out; the
    last player standing wins the round, and with it the game."""
    server, stack, _ = playground
    worker = start_worker(stack.redis_url, stack.engine_url, stack.log_dir, "playground-worker")
    you = stack.people[FIRST_PERSON]["id"]
    seats = [SeatSpec(name=FIRST_PERSON, user_id=you), SeatSpec(name="AI 1", ai="first-legal")]
    ai_hand = " ".join((["Y5", "Y6", "B5", "B6", "G5", "G6"] * 4)[:23])  # no draw card
    setup = {
        "variant": "no_mercy",
        "hands": ["R+2 G7 G8", ai_hand],
        "discard": "R3",
        "draw_pile": " ".join(f"{c}{n}" for n in range(1, 10) for c in "YBGR"),
        "current": 0,
        "scores": [800, 0],
    }
    game = create_in_playground(stack, seats, setup)
    post_table_link(server, stack, game.game_id)
    page, app = open_in_playground(browser, server, game.game_id)
    try:
        app.click(".hand-card.playable[data-code='R+2']")
        ends_on_the_page(app, f"{FIRST_PERSON} wins the game!")
    finally:
        page.context.close()
        worker.stop()


def test_the_playground_answers_what_the_table_asks_of_telegram(
    playground: tuple[LocalTelegram, WebAppStack, WebAppProcess], browser: Any
) -> None:
    """While the player holds a seat the table turns vertical swipes off and asks for a
    confirmation before closing; its sound switch is kept in the person's CloudStorage
    (the same on the next opening); a play is felt (a haptic); full screen, asked for, is
    granted as Telegram grants it (``fullscreen_changed``)."""
    server, stack, _ = playground
    you = stack.people[FIRST_PERSON]["id"]
    seats = [SeatSpec(name=FIRST_PERSON, user_id=you), SeatSpec(name="AI 1", ai="random")]
    game = create_in_playground(
        stack, seats, {"hands": ["R5 G2 B9", "Y1 Y2 Y3"], "discard": "R3", "current": 0}
    )
    post_table_link(server, stack, game.game_id)
    page, app = open_in_playground(browser, server, game.game_id)
    try:
        page.wait_for_selector("#web-app[data-confirm-close='true'][data-vertical-swipes='false']")
        assert app.get_attribute("#sounds", "aria-pressed") == "false"  # off unless chosen
        app.click("#sounds")
        app.wait_for_selector("#sounds[aria-pressed='true']")
        kept = page.evaluate(
            "() => Object.keys(localStorage).filter((k) => k.startsWith('cloud:')"
            " && k.endsWith(':sounds')).map((k) => localStorage.getItem(k))"
        )
        assert kept == ["1"], kept
        app.click(".hand-card.playable[data-code='R5']")
        page.wait_for_selector("#web-app[data-haptic='impact:light']")
        assert app.evaluate("() => Telegram.WebApp.isFullscreen") is False
        app.evaluate("() => Telegram.WebApp.requestFullscreen()")
        app.wait_for_function("() => Telegram.WebApp.isFullscreen === true")
        page.wait_for_selector("#web-app.fullscreen")
        # closing asks first (the player holds a seat)
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.type)
            dialog.accept()

        page.once("dialog", answer)
        page.click("#web-app-close")
        page.wait_for_selector("#web-app", state="hidden")
        assert asked == ["confirm"]
        # opened again, the table remembers the sounds (the person's storage, not the page's)
        page.click(f".msg:has-text('Your game {game.game_id}') button:has-text('Open table')")
        app = page.wait_for_selector("#web-app-frame").content_frame()
        app.wait_for_selector("body[data-version] #sounds[aria-pressed='true']")
    finally:
        page.context.close()
