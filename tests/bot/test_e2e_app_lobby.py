"""The whole evening in the Mini App, end to end (the bot, the engine, the worker, the Mini
App and the local Telegram, the page in Debian's Chromium at a phone's size): the group's
lobby message links to the app on its lobby; there a second person joins, the host adds an
AI and starts, and the lobby becomes the table without a reload, the chat's lobby message
following each change; the Invite's inline query is answered by the bot with the lobby and
a button opening the app on it; the lobby lists among the person's games; and every refusal
(not in the chat, not the host nor an admin, kicked, a started game, a closed lobby) is the
chat's own words and changes nothing. ``UNO_TEST_SCREENSHOT_DIR=dir`` keeps pictures of the
lobby (light and dark)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any
from urllib.parse import parse_qsl, urlencode

import httpx
import pytest

from harness.players import buttons, callbacks
from harness.rounds import play_a_round
from harness.services import ENGINE_TOKEN, WebAppProcess, records_url, start_webapp
from harness.stack import FAST_LIMITS, Stack, start_stack
from playground.control import TelegramControl
from services.engine.client import EngineClient, GameInfo
from services.engine.rules import Options
from services.presentation.i18n import gettext
from services.presentation.screens.names import variant_name
from services.records import queries
from services.records.database import make_engine
from services.records.queries import ChatSettings
from tests.helpers.bot_scenes import Group, open_lobby
from tests.helpers.bot_scenes import engine_game as engine_game_here

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
SHORT_NAME = "table"
PHONE = {"width": 390, "height": 844}
WAIT_MS = 60_000

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def app_stack(
    local_telegram: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Stack, WebAppProcess]]:
    local_telegram.control.set_limits(False)
    log_dir = tmp_path_factory.mktemp("app-lobby")
    stack = start_stack(
        TEST_REDIS_URL,
        log_dir,
        telegram_url=local_telegram.url,
        bot_username="uno_app_lobby_bot",
        bot_env=FAST_LIMITS,
    )
    # it reads the records the stack's worker writes: the end's rating changes
    webapp = start_webapp(
        "webapp",
        TEST_REDIS_URL,
        stack.engine_url,
        stack.bot_api_url,
        stack.token,
        log_dir,
        UNO_WEBAPP_REPLAY_ARCHIVE="1",
        UNO_DATABASE_URL=records_url(log_dir),
    )
    stack.control.register_web_app(stack.token, SHORT_NAME, f"{webapp.url}/")
    stack.start_bot("bot-a", UNO_WEBAPP_PUBLIC_URL=f"{webapp.url}/")
    yield stack, webapp
    webapp.stop()
    stack.stop()
    local_telegram.control.set_limits(True)


def a_group(stack: Stack) -> tuple[Group, dict[str, Any], dict[str, Any]]:
    """Ann (the host to be) and Bob in a group Cat owns (an admin, not the host), and Out,
    who is not in it."""
    control = stack.control
    people = [control.create_user(n, username=None) for n in ("Ann", "Bob", "Cat")]
    out = control.create_user("Out", username=None)
    chat = control.create_group(
        "UNO night", [p["id"] for p in people], bots=[stack.token], admins=[people[2]["id"]]
    )
    for person in [*people, out]:
        control.start_bot(person["id"], stack.token)
    return Group(chat, people, stack.players(int(chat["id"]))), people[2], out


def lobby_message(stack: Stack, group: Group, *, having: str = "") -> dict[str, Any]:
    """The group's lobby message (the one with the app's link), once its text has ``having``."""

    def found() -> dict[str, Any] | None:
        for m in reversed(group.players.bot_messages()):
            if any("url" in b for b in buttons(m)) and having in m.get("text", ""):
                return m
        return None

    return stack.control.wait_until(found, timeout=60, what=f"the lobby with {having!r}")


def engine_game(stack: Stack, game_id: str) -> GameInfo:
    """The game's facts, asked in a thread of its own: Playwright's sync API runs its own
    event loop in the test's thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(engine_game_here, stack, game_id).result()


def app_link(message: dict[str, Any]) -> str:
    return str(next(b for b in buttons(message) if "url" in b)["url"])


def launch(stack: Stack, person: dict[str, Any], link: str, group: Group) -> dict[str, Any]:
    opened: dict[str, Any] = stack.control.open_web_app(
        person["id"], "direct_link", link=link, chat_id=group.id
    )
    return opened


def word(
    webapp: WebAppProcess, game_id: str, init_data: str, body: dict[str, Any]
) -> httpx.Response:
    return httpx.post(
        f"{webapp.url}/v1/games/{game_id}/lobby",
        json=body,
        headers={"Authorization": f"tma {init_data}"},
        timeout=30,
    )


def keep_picture(page: Any, name: str) -> None:
    pictures = os.environ.get("UNO_TEST_SCREENSHOT_DIR")
    if pictures:
        page.screenshot(path=os.path.join(pictures, f"{name}.png"))


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


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def open_page(url: str, scheme: str = "light") -> Any:
        if scheme == "dark":  # the launch as a client in night mode makes it
            base, _, fragment = url.partition("#")
            params = dict(parse_qsl(fragment, keep_blank_values=True))
            params["tgWebAppThemeParams"] = json.dumps(DARK)
            url = f"{base}#{urlencode(params)}"
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        contexts.append(context)
        page = context.new_page()
        page.goto(url)
        return page

    yield open_page
    for context in contexts:
        context.close()


def test_the_groups_lobby_opens_in_the_app_and_becomes_its_table(
    app_stack: tuple[Stack, WebAppProcess], phone: Any
) -> None:
    stack, webapp = app_stack
    group, _cat, out = a_group(stack)
    ann, bob = group.people[0], group.people[1]
    open_lobby(stack, group)
    lobby = lobby_message(stack, group, having="Ann")
    link = app_link(lobby)
    assert link.startswith(f"https://t.me/{stack.username}/{SHORT_NAME}?startapp=")
    game_id = link.rsplit("=", 1)[1]

    # Ann, the host, opens the lobby from the group's message: her seat, the variant, Start
    ann_launch = launch(stack, ann, link, group)
    ann_page = phone(ann_launch["url"])
    ann_page.wait_for_selector("#lobby-seats .lobby-seat", timeout=WAIT_MS)
    assert "Classic" in ann_page.locator("#lobby-title").inner_text()
    assert "Turn" in ann_page.locator("#lobby-settings").inner_text()
    assert ann_page.locator("[data-word='start']").is_visible()
    assert ann_page.locator("[data-word='invite']").is_visible()
    for tap in ann_page.locator("#lobby-actions .decision").all():
        box = tap.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44

    # Bob opens it too and joins: both pages and the group's message show him
    bob_launch = launch(stack, bob, link, group)
    bob_page = phone(bob_launch["url"], "dark")
    bob_page.wait_for_selector("[data-word='join']", timeout=WAIT_MS)
    assert bob_page.locator("[data-word='start']").count() == 0  # neither host nor admin
    bob_page.click("[data-word='join']")
    ann_page.wait_for_selector("#lobby-seats .lobby-seat:nth-child(2)", timeout=WAIT_MS)
    bob_page.wait_for_selector("[data-word='leave']", timeout=WAIT_MS)
    lobby_message(stack, group, having="Bob")

    # the lobby lists among Bob's games, said to be waiting
    mine = httpx.get(
        f"{webapp.url}/v1/me/games",
        headers={"Authorization": f"tma {bob_launch['init_data']}"},
        timeout=30,
    ).json()
    listed = [g for g in mine["games"] if g["game_id"] == game_id]
    assert listed and listed[0]["status"] == "lobby" and mine["words"]["lobby"]

    # refusals, in the chat's words, changing nothing
    before = engine_game(stack, game_id).version
    refused = word(webapp, game_id, bob_launch["init_data"], {"action": "start"})
    assert refused.status_code == 403
    assert refused.json()["words"] == "Only the host or a chat admin can do that."
    outsider = stack.control.open_web_app(out["id"], "direct_link", link=link)
    refused = word(webapp, game_id, outsider["init_data"], {"action": "join"})
    assert refused.status_code == 403 and refused.json()["words"] == (
        "You are not in this game's group."
    )
    assert engine_game(stack, game_id).version == before

    # the Invite: the bot answers its inline query with the lobby and the app's link
    answer = stack.control.inline_query(ann["id"], f"lobby {game_id}", bot=stack.token)
    [article] = answer["results"]
    assert "Bob" in article["input_message_content"]["message_text"]
    [[invite_button]] = article["reply_markup"]["inline_keyboard"]
    assert invite_button["url"] == link

    # Ann adds an easy AI: the lobby shows its level, the group's message too
    ann_page.click("[data-word='ai.random']")
    ann_page.wait_for_selector(".lobby-seat[data-ai] .level", timeout=WAIT_MS)
    lobby_message(stack, group, having="easy AI")
    keep_picture(ann_page, "mini_app_lobby_light")
    bob_page.wait_for_selector(".lobby-seat[data-ai]", timeout=WAIT_MS)
    keep_picture(bob_page, "mini_app_lobby_dark")

    # coming back to the lobby: a reload shows it as it is
    ann_page.reload()
    ann_page.wait_for_selector(".lobby-seat[data-ai] .level", timeout=WAIT_MS)
    assert ann_page.locator("#lobby-seats .lobby-seat").count() == 3

    # Ann starts: the lobby becomes the table on both pages, no reload
    ann_page.click("[data-word='start']")
    for page in (ann_page, bob_page):
        page.wait_for_selector("body[data-status='playing'] #table:not([hidden])", timeout=WAIT_MS)
        assert page.locator("#lobby").is_hidden()
    ann_page.wait_for_selector("#hand .hand-card", timeout=WAIT_MS)

    # a started game refuses Start again, in the chat's words
    again = word(webapp, game_id, ann_launch["init_data"], {"action": "start"})
    assert again.status_code == 409 and again.json()["words"] == "The game has already started."

    # coming back: a reload resumes on the table
    bob_page.reload()
    bob_page.wait_for_selector("body[data-status='playing'] #table:not([hidden])", timeout=WAIT_MS)


def test_an_admin_starts_a_kicked_player_and_a_closed_lobby_are_refused(
    app_stack: tuple[Stack, WebAppProcess], phone: Any
) -> None:
    stack, webapp = app_stack
    group, cat, _ = a_group(stack)
    ann, bob = group.people[0], group.people[1]
    open_lobby(stack, group)
    link = app_link(lobby_message(stack, group, having="Ann"))
    game_id = link.rsplit("=", 1)[1]
    bob_data = launch(stack, bob, link, group)["init_data"]
    cat_data = launch(stack, cat, link, group)["init_data"]
    assert word(webapp, game_id, bob_data, {"action": "join"}).status_code == 200

    # Bob kicked by the host in the chat (/kick in reply to him): he may not join again
    message = stack.control.send_message(bob["id"], group.id, "hi")
    stack.control.send_message(ann["id"], group.id, "/kick", reply_to=message["message_id"])
    stack.control.wait_until(
        lambda: all(s.user_id != bob["id"] for s in engine_game(stack, game_id).seats),
        timeout=60,
        what="Bob kicked",
    )
    kicked = "You were removed from this game, so you can't take a seat in it again."
    refused = word(webapp, game_id, bob_data, {"action": "join"})
    assert refused.status_code == 403 and refused.json()["words"] == kicked
    # in the app: his Join is answered with why, beside it, and nothing changes
    bob_page = phone(launch(stack, bob, link, group)["url"])
    bob_page.click("[data-word='join']", timeout=WAIT_MS)
    bob_page.wait_for_selector("body[data-refused='1']", timeout=WAIT_MS)
    assert bob_page.locator("#notice").inner_text() == kicked
    assert bob_page.locator("#lobby-seats .lobby-seat").count() == 1

    # Cat, an admin of the group but not the host, adds an AI and starts
    assert word(webapp, game_id, cat_data, {"action": "ai", "level": "hard"}).status_code == 200
    started = word(webapp, game_id, cat_data, {"action": "start"})
    assert started.status_code == 200 and started.json()["status"] == "playing"

    # the game ended: its lobby, opened again, is closed
    stack.control.send_message(ann["id"], group.id, "/end")
    stack.control.wait_until(
        lambda: engine_game(stack, game_id).status == "ended", timeout=60, what="ended"
    )
    closed = word(webapp, game_id, cat_data, {"action": "join"})
    assert closed.status_code in (404, 409) and closed.json()["words"] == "This game is over."

    # a flood of lobby words is held as a flood of moves is
    answers = [word(webapp, game_id, cat_data, {"action": "join"}) for _ in range(40)]
    held = [a for a in answers if a.status_code == 429]
    assert held and held[0].json()["error"] == "slow_down"


def test_the_end_shows_the_result_rematch_leave_and_the_replay(
    app_stack: tuple[Stack, WebAppProcess], phone: Any
) -> None:
    """A game played to its end: the page shows the winner and every seat's points (the
    chat's own end), each seat's rating change (the records'), Rematch and Leave for a
    player, and the replay's link; both players vote for the rematch and the page moves on
    to the new game's table."""
    stack, _ = app_stack
    group, _, _ = a_group(stack)
    ann, bob = group.people[0], group.people[1]

    async def play() -> GameInfo:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            players = [(ann["id"], "Ann"), (bob["id"], "Bob")]
            return await play_a_round(engine, group.id, players)

    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(asyncio.run, play()).result()
    link = f"https://t.me/{stack.username}/{SHORT_NAME}?startapp={game.game_id}"
    for scheme in ("light", "dark"):
        page = phone(launch(stack, ann, link, group)["url"], scheme)
        page.wait_for_selector(
            "body[data-over] #end-actions [data-word='rematch']", timeout=WAIT_MS
        )
        assert page.locator("#result").inner_text().strip()
        assert page.locator("#end-actions [data-word='leave']").is_visible()
        replay = page.locator("#end-actions [data-word='replay']").get_attribute("href")
        assert replay is not None and replay.startswith(f"/replay?game={game.game_id}")
        keep_picture(page, f"mini_app_end_{scheme}")
    # both vote for a rematch (Bob from his app, Ann on her page): her page follows the new game
    bob_data = launch(stack, bob, link, group)["init_data"]
    voted = httpx.post(
        f"{stack_webapp(app_stack)}/v1/games/{game.game_id}/rematch",
        json={"vote": True},
        headers={"Authorization": f"tma {bob_data}"},
        timeout=30,
    )
    assert voted.status_code == 200, voted.text
    page.click("#end-actions [data-word='rematch']")
    page.wait_for_selector(
        f"body[data-status='playing']:not([data-game='{game.game_id}']) #table:not([hidden])",
        timeout=WAIT_MS,
    )


def stack_webapp(app_stack: tuple[Stack, WebAppProcess]) -> str:
    return app_stack[1].url


#: What the page sends Telegram, kept as a client would receive it: the app's calls
#: (switchInlineQuery among them) go to the client's proxy, here a list the test reads.
TELEGRAM_CLIENT = """
window.TelegramWebviewProxy = {
  postEvent(type, data) {
    (window.sentToTelegram = window.sentToTelegram || []).push([type, data]);
  },
};
"""
#: Presses a round of the evening may take at most; more is a bug.
MOST_STEPS = 400


def owes(page: Any) -> bool:
    """Whether the person of ``page`` owes the game's next decision."""
    owing = page.get_attribute("body", "data-owing")
    mine = page.locator(".seat.me")
    return bool(owing) and mine.count() == 1 and mine.get_attribute("data-seat") == owing


def press_something(page: Any) -> None:
    """What a person in a hurry presses: the first colour, UNO!, a playable card, the first
    decision, else the draw pile."""
    for selector in (
        "#wheel:not([hidden]) .decision",
        "#uno .decision",
        "#hand .hand-card.playable",
        "#decisions .decision",
        "#draw-stack.can-draw",
    ):
        found = page.locator(selector)
        if found.count():
            found.first.click()
            return


def state(page: Any) -> dict[str, Any]:
    """What a page shows of the game's state, for a failure's message."""
    return {
        "version": page.get_attribute("body", "data-version"),
        "owing": page.get_attribute("body", "data-owing"),
        "me": [s.get_attribute("data-seat") for s in page.locator(".seat.me").all()],
        "decisions": page.locator("#dock").inner_text(),
        "status": page.locator("#status").inner_text(),
        "playable": page.locator("#hand .hand-card.playable").count(),
    }


def versions(pages: list[Any]) -> list[str | None]:
    return [p.get_attribute("body", "data-version") for p in pages]


def moved_on(pages: list[Any], seen: list[str | None]) -> bool:
    """Whether any page shows a table newer than ``seen``."""
    return versions(pages) != seen


def play_until_over(pages: list[Any], steps: int = MOST_STEPS) -> int:
    """Each person presses on their turn (the AI plays its own) until the pages show the
    game's end, or for ``steps`` presses; the presses made."""
    return play_until(pages, lambda: bool(pages[0].locator("body[data-over]").count()), steps)


def play_until(pages: list[Any], done: Callable[[], bool], steps: int = MOST_STEPS) -> int:
    """Each person presses on their turn (the AI plays its own) until ``done``, or for
    ``steps`` presses; the presses made."""
    made = 0
    while made < steps and not done():
        for page in pages:
            if owes(page):
                seen = page.get_attribute("body", "data-version")
                refused = page.get_attribute("body", "data-refused") or "0"
                press_something(page)
                made += 1
                page.wait_for_selector(
                    f"body:not([data-version='{seen}']), "
                    f"body:not([data-refused='{refused}'])[data-refused]",
                    timeout=WAIT_MS,
                )
                break
        else:  # the AI's turn, or a page's table still on its way: the next table on any
            seen = versions(pages)
            try:
                TelegramControl.wait_until(
                    partial(moved_on, pages, seen), timeout=WAIT_MS / 1000, what="the next table"
                )
            except AssertionError as stuck:
                raise AssertionError(f"stuck: {[state(p) for p in pages]}") from stuck
    return made


#: Keeps each round's result the page showed (a round's scores stay only until the next
#: round's first move, which the AI may make at once).
ROUND_RESULTS = """
document.addEventListener("DOMContentLoaded", () => {
  const shown = (window.roundResultsShown = []);
  new MutationObserver(() => {
    const result = document.getElementById("result");
    const round = result && !result.hidden ? result.dataset.round : undefined;
    if (round && !shown.some((r) => r.round === round)) {
      shown.push({ round, text: result.textContent });
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
});
"""

#: The evening's first round, fixed before Start (seats: Ann, Bob, the AI; the AI dealt):
#: Ann leads, each has one red card to play and Ann goes out with her second, leaving
#: the others a zero each: she scores 0 of the target's 1 point, so a second round is
#: dealt (at random) and its winner, scoring the cards left in the others' hands, ends
#: the game.
FIRST_ROUND = {
    "hands": ["R5 R6", "R7 B0", "R8 G0"],
    "discard": "R3",
    "draw_pile": "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9",
    "dealer": 2,
}


def fix_the_first_round(stack: Stack, game_id: str) -> None:
    async def fix() -> None:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            await engine.fix_deal(game_id, FIRST_ROUND)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, fix()).result()


def chat_says(stack: Stack, group: Group, *parts: str) -> str:
    """The group's message from the bot that has every one of ``parts``."""

    def found() -> str | None:
        for m in reversed(group.players.bot_messages()):
            text = str(m.get("text", ""))
            if all(p in text for p in parts):
                return text
        return None

    text: str = stack.control.wait_until(found, timeout=60, what=f"the chat saying {parts}")
    return text


def test_the_whole_evening_in_the_app(app_stack: tuple[Stack, WebAppProcess], browser: Any) -> None:
    """At a phone's size: Ann opens the group's lobby in the app and invites (the bot answers
    the inline query, the invite is posted in a chat), Bob joins from the invite, Ann adds
    an AI and starts; they play two rounds to the end (a target of one point, the first
    round fixed to score nothing), the chat's lobby, table, round scores and result
    following; both vote for a rematch and play its first moves."""
    stack, _ = app_stack
    group, _, _ = a_group(stack)
    ann, bob = group.people[0], group.people[1]
    records = make_engine(stack.database_url)
    queries.save_chat_settings(records, group.id, ChatSettings(rules=Options(target_score=1)))
    records.dispose()
    friends = stack.control.create_group("Friends", [ann["id"], bob["id"]], bots=[stack.token])
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(TELEGRAM_CLIENT)
    context.add_init_script(ROUND_RESULTS)
    try:
        open_lobby(stack, group)
        link = app_link(lobby_message(stack, group, having="Ann"))
        fix_the_first_round(stack, link.rsplit("=", 1)[1])
        ann_page = context.new_page()
        ann_page.goto(launch(stack, ann, link, group)["url"])
        ann_page.click("[data-word='invite']", timeout=WAIT_MS)
        sent = ann_page.evaluate("() => window.sentToTelegram")
        [query] = [
            json.loads(data)["query"]
            for kind, data in sent
            if kind == "web_app_switch_inline_query"
        ]
        answer = stack.control.inline_query(ann["id"], query, bot=stack.token)
        posted = stack.control.choose_inline_result(
            ann["id"], answer["query_id"], answer["results"][0]["id"], chat_id=friends["id"]
        )
        [[invited]] = posted["reply_markup"]["inline_keyboard"]
        assert invited["url"] == link

        # Bob opens the invite, joins; Ann adds an easy AI and starts
        opened = stack.control.open_web_app(
            bob["id"], "direct_link", link=invited["url"], chat_id=friends["id"]
        )
        bob_page = context.new_page()
        bob_page.goto(opened["url"])
        bob_page.click("[data-word='join']", timeout=WAIT_MS)
        ann_page.wait_for_selector("#lobby-seats .lobby-seat:nth-child(2)", timeout=WAIT_MS)
        lobby_message(stack, group, having="Bob")
        ann_page.click("[data-word='ai.random']")
        ann_page.wait_for_selector(".lobby-seat[data-ai]", timeout=WAIT_MS)
        lobby_message(stack, group, having="easy AI")
        ann_page.click("[data-word='start']")
        pages = [ann_page, bob_page]
        for page in pages:
            page.wait_for_selector(
                "body[data-status='playing'] #table:not([hidden])", timeout=WAIT_MS
            )
        first = ann_page.get_attribute("body", "data-game")
        group.players.wait_table("the chat's table", lambda m: True)
        assert ann_page.locator("#hand .hand-card").count() == 2

        # the first round: Ann goes out, nobody scores; both pages and the chat say so
        play_until_round(pages, "1")
        for page in pages:
            page.wait_for_function(
                "() => window.roundResultsShown.some((r) => r.round === '1')", timeout=WAIT_MS
            )
        scores = chat_says(stack, group, "Round 1 goes to Ann")
        assert "Ann: 0" in scores and "Bob: 0" in scores
        shown = ann_page.evaluate("() => window.roundResultsShown")[0]["text"]
        shown = shown.replace("\u2068", "").replace("\u2069", "")  # the names' isolates
        assert "Round 1 goes to Ann" in shown and "Ann: 0" in shown

        # the second round, to the game's end: the result on both pages, and in the chat
        play_until_over(pages)
        for page in pages:
            page.wait_for_selector(
                "body[data-over] #end-actions [data-word='rematch']", timeout=WAIT_MS
            )
            assert page.locator("#result").inner_text().strip()
        winner = chat_says(stack, group, "wins the game")
        chat_says(stack, group, "Round 2 goes to")
        assert not any("Round 3" in m.get("text", "") for m in group.players.bot_messages())
        name = winner.split("🏆 ", 1)[-1].split(" wins the game", 1)[0]
        assert name in ann_page.locator("#result").inner_text()

        # the rematch: both vote, both pages go on to the new game's table
        for page in pages:
            page.click("#end-actions [data-word='rematch']")
        for page in pages:
            page.wait_for_selector(
                f"body[data-status='playing']:not([data-game='{first}']) #table:not([hidden])",
                timeout=WAIT_MS,
            )
        again = ann_page.get_attribute("body", "data-game")
        group.players.wait_table(
            "the rematch's table in the chat",
            lambda m: any(cb.game_id == again for cb in callbacks(m)),
        )
        assert play_until_over(pages, steps=3) == 3
    finally:
        context.close()


def play_until_round(pages: list[Any], ended: str) -> int:
    """As ``play_until_over``, until a page has shown round ``ended``'s result."""
    shown = f"() => (window.roundResultsShown || []).some((r) => r.round === '{ended}')"
    return play_until(pages, lambda: any(p.evaluate(shown) for p in pages))


def without_inline_mode(url: str) -> str:
    """The launch as a client passes it for a bot without inline mode for the app: no
    ``tgWebAppBotInline`` (the playground passes it, every bot there having inline mode)."""
    base, _, fragment = url.partition("#")
    params = dict(parse_qsl(fragment, keep_blank_values=True))
    params.pop("tgWebAppBotInline")
    return f"{base}#{urlencode(params)}"


def test_without_inline_mode_the_invite_shares_the_lobbys_link(
    app_stack: tuple[Stack, WebAppProcess], browser: Any
) -> None:
    """Where the client refuses inline mode for the app, the Invite opens Telegram's share
    page with the lobby's direct link and the lobby's own text (the chat's words)."""
    stack, _ = app_stack
    group, _, _ = a_group(stack)
    ann = group.people[0]
    open_lobby(stack, group)
    lobby = lobby_message(stack, group, having="Ann")
    link = app_link(lobby)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(TELEGRAM_CLIENT)
    try:
        page = context.new_page()
        page.goto(without_inline_mode(launch(stack, ann, link, group)["url"]))
        page.click("[data-word='invite']", timeout=WAIT_MS)
        sent = page.evaluate("() => window.sentToTelegram")
        assert not [kind for kind, _ in sent if kind == "web_app_switch_inline_query"]
        [opened] = [json.loads(d)["path_full"] for k, d in sent if k == "web_app_open_tg_link"]
        path, _, query = opened.partition("?")
        shared = dict(parse_qsl(query))
        assert path == "/share/url" and shared["url"] == link
        assert "Ann" in shared["text"] and lobby["text"].split("\n")[0] in shared["text"]
        assert page.locator("body[data-refused]").count() == 0
    finally:
        context.close()


def test_the_lobby_in_persian_at_320_pixels_fits_right_to_left(
    app_stack: tuple[Stack, WebAppProcess], browser: Any
) -> None:
    """Dara reads Persian on a 320 px phone: the lobby's words are the catalog's Persian,
    right to left, nothing wider than the screen, every button at least 44 px."""
    stack, _ = app_stack
    control = stack.control
    ann = control.create_user("Ann", username=None)
    dara = control.create_user("Dara", username=None, language_code="fa")
    chat = control.create_group("UNO night", [ann["id"], dara["id"]], bots=[stack.token])
    for person in (ann, dara):
        control.start_bot(person["id"], stack.token)
    group = Group(chat, [ann, dara], stack.players(int(chat["id"])))
    open_lobby(stack, group)
    link = app_link(lobby_message(stack, group, having="Ann"))
    context = browser.new_context(
        viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(launch(stack, dara, link, group)["url"])
        page.click("[data-word='join']", timeout=WAIT_MS)
        page.wait_for_selector("#lobby-seats .lobby-seat:nth-child(2)", timeout=WAIT_MS)
        assert page.get_attribute("html", "dir") == "rtl"
        assert page.locator("[data-word='leave']").inner_text().endswith(gettext("fa", "Leave"))
        waiting = gettext(
            "fa", "UNO {variant} · waiting for players", variant=variant_name("fa", "classic")
        )
        assert waiting in page.locator("#lobby-title").inner_text()
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 320
        for tap in page.locator("#lobby-actions .decision").all():
            box = tap.bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44
            assert box["x"] >= 0 and box["x"] + box["width"] <= 320
        keep_picture(page, "mini_app_lobby_fa_320")
    finally:
        context.close()
