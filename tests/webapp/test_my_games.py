"""The bot's menu button opens the Mini App with no game in it: the page then lists the
launching person's current games (``GET /v1/me/games``), judged by the initData only."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from tests.helpers.webapp import Deal


async def my_games(base: str, authorization: str | None) -> httpx.Response:
    headers = {} if authorization is None else {"Authorization": authorization}
    async with httpx.AsyncClient(base_url=base, timeout=20) as client:
        return await client.get("/v1/me/games", headers=headers)


def menu_launch(deal: Deal, name: str) -> dict[str, Any]:
    """``name`` presses the bot's menu button in their private chat with it, as the local
    Telegram opens it (the menu set as the bot does when its Mini App is configured)."""
    stack = deal.stack
    menu = {"type": "web_app", "text": "UNO", "web_app": {"url": f"{stack.url()}/"}}
    answer = httpx.post(
        f"{stack.telegram.bot_api_url}{stack.token}/setChatMenuButton",
        json={"menu_button": menu},
        timeout=20,
    ).json()
    assert answer == {"ok": True, "result": True}
    launch: dict[str, Any] = stack.telegram.control.open_web_app(
        stack.people[name]["id"], "menu_button", chat_id=stack.bot["id"]
    )
    return launch


def test_the_menu_button_lists_the_launching_players_games_only(deal: Deal) -> None:
    stack, gid = deal.stack, deal.game_id
    ann = menu_launch(deal, "Ann")
    assert "start_param" not in ann["init_data"]  # a menu launch names no game

    async def run() -> None:
        answer = await my_games(stack.url(), f"tma {ann['init_data']}")
        assert answer.status_code == 200
        body = answer.json()
        assert body["me"] == stack.people["Ann"]["id"]
        assert [g["game_id"] for g in body["games"]] == [gid]
        assert body["games"][0]["players"] == ["Ann", "Bob"]
        assert body["games"][0]["status"] == "playing"
        # a spectator of the group holds no seat: an empty list, no other person's games
        sam = menu_launch(deal, "Sam")
        answer = await my_games(stack.url(), f"tma {sam['init_data']}")
        assert answer.status_code == 200 and answer.json()["games"] == []

    asyncio.run(run())


def test_the_games_list_refuses_a_forged_stale_or_missing_launch(deal: Deal) -> None:
    stack = deal.stack

    async def run() -> None:
        for authorization in (
            None,
            "tma",
            f"Bearer {stack.signed('Ann')}",
            f"tma {stack.signed('Ann', token='1:another-bots-token')}",
            f"tma {stack.signed('Ann', auth_date=time.time() - 2 * 86_400)}",
        ):
            answer = await my_games(stack.url(), authorization)
            assert answer.status_code == 401, authorization
            assert answer.json()["error"] == "bad_init_data"

    asyncio.run(run())
