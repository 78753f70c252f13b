"""The buttons that open the Mini App, end to end: the bot (its Mini App's address in
``UNO_WEBAPP_PUBLIC_URL``) puts a direct link on the group's table and a ``web_app`` button
on the private hand; the local Telegram opens each, as its clients do, on the app's page
for that game, and the app then serves that player's hand there. And a player out of the
game in the chat (kicked, or gone from the group) is out of it in the app too: the engine,
which the chat told, refuses their moves and the open table stops showing their hand."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from harness.players import buttons
from harness.services import WebAppProcess, start_webapp
from harness.stack import FAST_LIMITS, Stack, start_stack
from tests.helpers.bot_scenes import Group, Scene, deal, engine_game
from tests.helpers.webapp_stream import table_stream

TEST_REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
#: The app's short name, as registered with @BotFather (the bot's default).
SHORT_NAME = "table"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def app_stack(
    local_telegram: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Stack, WebAppProcess]]:
    """The stack with a Mini App replica, registered as the bot's app, and a bot told it."""
    local_telegram.control.set_limits(False)
    log_dir = tmp_path_factory.mktemp("mini-app-buttons")
    stack = start_stack(
        TEST_REDIS_URL,
        log_dir,
        telegram_url=local_telegram.url,
        bot_username="uno_app_buttons_bot",
        bot_env=FAST_LIMITS,
    )
    # Each replica trusts a getChatMember answer this long: a member who has left still
    # looks in to the app's cache, so only the engine stands between them and their seat.
    webapp = start_webapp(
        "webapp",
        TEST_REDIS_URL,
        stack.engine_url,
        stack.bot_api_url,
        stack.token,
        log_dir,
        UNO_WEBAPP_MEMBER_CACHE_SECONDS="600",
    )
    stack.control.register_web_app(stack.token, SHORT_NAME, f"{webapp.url}/")
    stack.start_bot("bot-a", UNO_WEBAPP_PUBLIC_URL=f"{webapp.url}/")
    yield stack, webapp
    webapp.stop()
    stack.stop()
    local_telegram.control.set_limits(True)


def two_in_a_group(stack: Stack, setup: dict[str, Any]) -> Scene:
    """P0 (the host) and P1 in a new group with the bot, dealt ``setup``."""
    control = stack.control
    people = [control.create_user(f"P{i}", username=None) for i in range(2)]
    chat = control.create_group("UNO night", [p["id"] for p in people], bots=[stack.token])
    for person in people:
        control.start_bot(person["id"], stack.token)
    group = Group(chat, people, stack.players(int(chat["id"])))
    return deal(stack, group, setup)


@pytest.fixture
def scene(app_stack: tuple[Stack, WebAppProcess]) -> Scene:
    stack, _ = app_stack
    return two_in_a_group(stack, {"hands": ["R1 R2 G5", "B1 B2 B3"], "discard": "R3"})


#: RULES.md §2 "House rules" (Jump-In): P1 holds the red 3 on the pile, so may play it out
#: of turn at any time: a move the rules allow whatever the stand-in does meanwhile.
JUMP_IN = {"hands": ["R1 R2 G5", "R3 B2 B3"], "discard": "R3", "options": {"jump_in": True}}
KICKED = "You were removed from this game, so you can't take a seat in it again."
LEFT_THE_GROUP = "You left the group, so the AI plays your seat."


def opens_on(launch: dict[str, Any], webapp: WebAppProcess) -> str:
    assert launch["url"].startswith(f"{webapp.url}/")
    return launch["url"]


def test_the_groups_table_links_to_the_app_on_its_game(
    app_stack: tuple[Stack, WebAppProcess], scene: Scene
) -> None:
    stack, webapp = app_stack
    game_id = scene.game.game_id
    link = next(b for b in buttons(scene.table()) if "url" in b)
    assert link["url"] == f"https://t.me/{stack.username}/{SHORT_NAME}?startapp={game_id}"
    launch = stack.control.open_web_app(
        scene.person(0)["id"], "direct_link", link=link["url"], chat_id=scene.group.id
    )
    opens_on(launch, webapp)
    assert parse_qs(launch["init_data"])["start_param"] == [game_id]

    async def first_table() -> dict[str, Any]:
        async with table_stream(webapp.url, game_id, launch["init_data"]) as stream:
            return await stream.table()

    shown = asyncio.run(first_table())
    assert shown["seat"] == 0 and shown["view"]["hand"] == ["R1", "R2", "G5"]  # P0's own


def test_the_private_hand_opens_the_apps_page_on_its_game(
    app_stack: tuple[Stack, WebAppProcess], scene: Scene
) -> None:
    stack, webapp = app_stack
    game_id = scene.game.game_id
    hand = scene.open_hand(1)
    button = next(b for b in buttons(hand) if "web_app" in b)
    person = scene.person(1)["id"]
    launch = stack.control.open_web_app(
        person,
        "inline_button",
        chat_id=stack.bot_id,  # the private chat, as its person names it: by the bot
        message_id=hand["message_id"],
        button_text=button["text"],
    )
    page = urlsplit(opens_on(launch, webapp))
    assert parse_qs(page.query)["game"] == [game_id]


def test_the_bots_menu_button_opens_the_app_on_the_players_games(
    app_stack: tuple[Stack, WebAppProcess], scene: Scene
) -> None:
    """The bot sets its menu button (setChatMenuButton, a ``web_app`` button) to the app's
    page; pressed in the private chat, it opens the page with no game, which lists the
    person's live games."""
    stack, webapp = app_stack
    person = scene.person(0)["id"]
    menu = stack.control.menu_button(person, stack.bot_id)
    assert menu["type"] == "web_app" and menu["web_app"]["url"] == f"{webapp.url}/"
    launch = stack.control.open_web_app(person, "menu_button", chat_id=stack.bot_id)
    assert urlsplit(opens_on(launch, webapp)).query == ""
    assert "start_param" not in parse_qs(launch["init_data"])
    listed = httpx.get(
        f"{webapp.url}/v1/me/games",
        headers={"Authorization": f"tma {launch['init_data']}"},
        timeout=30,
    )
    assert listed.status_code == 200
    assert scene.game.game_id in [g["game_id"] for g in listed.json()["games"]]


def launch_in_group(stack: Stack, scene: Scene, seat: int) -> str:
    """The initData of ``seat``'s person opening the app from the group's direct link."""
    link = f"https://t.me/{stack.username}/{SHORT_NAME}?startapp={scene.game.game_id}"
    launch = stack.control.open_web_app(
        scene.person(seat)["id"], "direct_link", link=link, chat_id=scene.group.id
    )
    return str(launch["init_data"])


def kick_in_chat(stack: Stack, scene: Scene, seat: int) -> None:
    """The host /kick-s ``seat``'s person, replying to a message of theirs."""
    said = stack.control.send_message(scene.person(seat)["id"], scene.group.id, "hello")
    stack.control.send_message(
        scene.person(0)["id"], scene.group.id, "/kick", reply_to=said["message_id"]
    )
    scene.wait_group("Removed from the game.")


def app_move(
    webapp: WebAppProcess, game_id: str, init_data: str, action: str, version: int
) -> httpx.Response:
    """A move sent from the app, as the page sends it."""
    return httpx.post(
        f"{webapp.url}/v1/games/{game_id}/moves",
        json={"action": action, "version": version},
        headers={"Authorization": f"tma {init_data}"},
        timeout=30,
    )


def test_a_player_kicked_in_the_chat_cannot_take_the_seat_back_in_the_app(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    """/kick holds at every door: the kicked player's own, validly signed initData moves
    nothing through the app; the engine refuses with the reason, the app says it in their
    language, and the seat stays the stand-in's (no "… is back")."""
    stack, webapp = app_stack
    scene = two_in_a_group(stack, JUMP_IN)
    game_id, kicked = scene.game.game_id, scene.person(1)["id"]
    init_data = launch_in_group(stack, scene, 1)
    kick_in_chat(stack, scene, 1)
    version = engine_game(stack, game_id).version
    moved = app_move(webapp, game_id, init_data, "p.R3", version)
    assert moved.status_code == 403, moved.text
    body = moved.json()
    assert (body["error"], body["reason"]) == ("removed", "kicked")
    assert body["words"] == KICKED
    game = engine_game(stack, game_id)
    assert game.version == version and game.seats[1].left
    assert [(r.user_id, r.reason, r.by) for r in game.removed] == [
        (kicked, "kicked", scene.person(0)["id"])
    ]
    listed = httpx.get(
        f"{webapp.url}/v1/me/games", headers={"Authorization": f"tma {init_data}"}, timeout=30
    )
    assert game_id not in [g["game_id"] for g in listed.json()["games"]]
    assert "P1 is back" not in scene.group_text()


def test_a_stream_opened_before_a_kick_stops_showing_the_hand(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    """The kick's write reaches the open stream: its next table is the spectator's (no
    hand, nothing to do), with why the viewer is out of the game."""
    stack, webapp = app_stack
    scene = two_in_a_group(stack, JUMP_IN)
    game_id = scene.game.game_id
    init_data = launch_in_group(stack, scene, 1)

    async def run() -> None:
        async with table_stream(webapp.url, game_id, init_data) as stream:
            first = await stream.table()
            assert first["seat"] == 1 and first["view"]["hand"] == ["R3", "B2", "B3"]
            await asyncio.to_thread(kick_in_chat, stack, scene, 1)
            after = await stream.table(at_least=first["version"] + 1)
            assert after["seat"] is None
            assert after["view"]["hand"] == [] and after["view"]["legal"] == []
            assert after["removed"] == {"reason": "kicked", "words": KICKED}

    asyncio.run(run())


def test_a_player_who_left_the_group_cannot_move_from_the_app(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    """Leaving the group counts at once: the app's cached "a member" still lets the request
    through, and the engine, told by the bot, refuses it; back in the group, /back takes the
    seat back as in the chat (README "A member leaves the group")."""
    stack, webapp = app_stack
    scene = two_in_a_group(stack, JUMP_IN)
    game_id, leaver = scene.game.game_id, scene.person(1)["id"]
    init_data = launch_in_group(stack, scene, 1)
    version = engine_game(stack, game_id).version
    # a move of P0's (not P1's to make): the app asks Telegram, and keeps "a member"
    assert app_move(webapp, game_id, init_data, "d", version).status_code == 422
    stack.control.remove_member(scene.group.id, leaver)
    scene.players.wait_table("the seat to the stand-in", lambda m: "P1 left" in m["text"])
    version = engine_game(stack, game_id).version
    moved = app_move(webapp, game_id, init_data, "p.R3", version)
    assert moved.status_code == 403, moved.text
    assert (moved.json()["error"], moved.json()["reason"]) == ("removed", "left_group")
    assert LEFT_THE_GROUP in moved.json()["words"]
    game = engine_game(stack, game_id)
    assert game.version == version and game.seats[1].left
    assert [(r.user_id, r.reason) for r in game.removed] == [(leaver, "left_group")]
    # back in the group: the chat's /back, as before
    stack.control.add_member(scene.group.id, leaver)
    stack.control.wait_until(
        lambda: engine_game(stack, game_id).removed == [] or None,
        timeout=30,
        what="the engine told P1 is back in the group",
    )
    stack.control.send_message(leaver, scene.group.id, "/back")
    scene.wait_group("Welcome back!")
    assert not engine_game(stack, game_id).seats[1].left


def test_a_stream_ends_with_why_when_its_player_leaves_the_group(
    app_stack: tuple[Stack, WebAppProcess],
) -> None:
    stack, webapp = app_stack
    scene = two_in_a_group(stack, JUMP_IN)
    game_id, leaver = scene.game.game_id, scene.person(1)["id"]
    init_data = launch_in_group(stack, scene, 1)

    async def run() -> None:
        async with table_stream(webapp.url, game_id, init_data) as stream:
            first = await stream.table()
            assert first["seat"] == 1
            await asyncio.to_thread(stack.control.remove_member, scene.group.id, leaver)
            kind, data = await stream.next_event()
            assert kind == "removed", (kind, data)
            assert data["reason"] == "left_group" and LEFT_THE_GROUP in data["words"]
            with pytest.raises(EOFError):
                await stream.next_event()
        # the app asks Telegram again: not in the chat, so no table at all
        with pytest.raises(httpx.HTTPStatusError) as refused:
            async with table_stream(webapp.url, game_id, init_data):
                pass
        assert refused.value.response.status_code == 403

    asyncio.run(run())
