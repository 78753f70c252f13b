"""The table stream opens with a stream ticket, never with initData in its URL (where proxy
logs would keep a credential good for a day): the page trades its initData, sent in the
Authorization header as its other requests send it, for a ticket bound to the person and
the game, short-lived and good once. A ticket for another game, a used, an expired or a
made-up one, and initData in the query are refused."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis as sync_redis

from harness.services import ENGINE_TOKEN, WebAppProcess
from services.engine.client import EngineClient, GameInfo, SeatSpec
from services.webapp.tickets import PREFIX as TICKET_PREFIX
from tests.helpers.waiting import async_wait_for
from tests.helpers.webapp import Deal, WebAppStack, start_webapp
from tests.helpers.webapp_stream import WAIT, stream_ticket, table_stream, ticket_stream


async def open_with(base: str, game_id: str, params: dict[str, str]) -> tuple[int, Any]:
    """A stream request's status, and its body when it was refused (an open stream's body
    never ends: it is left unread)."""
    async with (
        httpx.AsyncClient(base_url=base, timeout=WAIT) as client,
        client.stream("GET", f"/v1/games/{game_id}/stream", params=params) as response,
    ):
        if response.status_code == 200:
            return 200, None
        await response.aread()
        return response.status_code, response.json()


@pytest.fixture(scope="module")
def short_tickets(webapp_stack: WebAppStack) -> Iterator[WebAppProcess]:
    """A replica whose tickets last one second: one lapses while the test watches Redis."""
    proc = start_webapp(webapp_stack, "webapp-short-tickets", UNO_WEBAPP_STREAM_TICKET_SECONDS="1")
    yield proc
    proc.stop()


async def other_game(stack: WebAppStack) -> GameInfo:
    """A Classic game of Ann and Bob in a second group of theirs."""
    ids = [stack.people[name]["id"] for name in ("Ann", "Bob")]
    group = stack.telegram.control.create_group("UNO afternoon", ids, bots=[stack.token])
    seats = [SeatSpec(name="Ann", user_id=ids[0]), SeatSpec(name="Bob", user_id=ids[1])]
    setup = {"hands": ["R1 R2", "G1 G2"], "discard": "R3", "draw_pile": "Y1 Y3", "current": 0}
    async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
        return await engine.create_test_game(group["id"], seats, setup, turn_seconds=300)


def test_a_ticket_opens_its_persons_stream_once(deal: Deal) -> None:
    stack, gid = deal.stack, deal.game_id

    async def run() -> None:
        exchanged = await stream_ticket(stack.url(), gid, stack.launch("Bob", gid))
        assert exchanged.status_code == 200, exchanged.text
        answer = exchanged.json()
        assert 60 <= answer["expires_in"] <= 600 and len(answer["ticket"]) >= 32
        assert exchanged.headers["Cache-Control"] == "no-store"
        async with ticket_stream(stack.url(), gid, answer["ticket"]) as bob:
            table = await bob.table()
            assert table["me"] == stack.people["Bob"]["id"] and table["seat"] == 1
            assert table["view"]["hand"] == ["R7", "G7", "G8", "Y2"]
        status, body = await open_with(stack.url(), gid, {"ticket": answer["ticket"]})
        assert status == 401 and body["error"] == "bad_ticket"

    asyncio.run(run())


def test_initdata_in_the_query_opens_no_stream_and_gets_no_ticket(deal: Deal) -> None:
    stack, gid = deal.stack, deal.game_id

    async def run() -> None:
        launch = stack.launch("Ann", gid)
        status, body = await open_with(stack.url(), gid, {"init_data": launch})
        assert status == 401 and body["error"] == "bad_ticket"
        # the exchange takes initData from the Authorization header only
        async with httpx.AsyncClient(base_url=stack.url(), timeout=WAIT) as client:
            queried = await client.post(f"/v1/games/{gid}/tickets", params={"init_data": launch})
        assert queried.status_code == 401 and queried.json()["error"] == "bad_init_data"

    asyncio.run(run())


def test_a_ticket_for_another_game_a_made_up_and_an_expired_one_are_refused(
    deal: Deal, short_tickets: WebAppProcess
) -> None:
    stack, gid = deal.stack, deal.game_id

    async def run() -> None:
        other = (await other_game(stack)).game_id
        launch = stack.launch("Ann", gid)
        elsewhere = await stream_ticket(stack.url(), other, launch)
        assert elsewhere.status_code == 200, elsewhere.text
        status, body = await open_with(stack.url(), gid, {"ticket": elsewhere.json()["ticket"]})
        assert status == 401 and body["error"] == "bad_ticket"
        assert "another game" in body["message"]
        for made_up in (secrets.token_urlsafe(32), "x" * 5000):
            status, body = await open_with(stack.url(), gid, {"ticket": made_up})
            assert status == 401 and body["error"] == "bad_ticket"
        # a ticket left unused past its life
        short = await stream_ticket(short_tickets.url, gid, launch)
        assert short.status_code == 200 and short.json()["expires_in"] == 1
        ticket = short.json()["ticket"]
        client = sync_redis.Redis.from_url(stack.redis_url)
        try:
            await async_wait_for(
                lambda: not client.exists(TICKET_PREFIX + ticket), WAIT, "the ticket to lapse"
            )
        finally:
            client.close()
        status, body = await open_with(short_tickets.url, gid, {"ticket": ticket})
        assert status == 401 and body["error"] == "bad_ticket"
        # Ann's ticket for her own game still serves her, from any replica
        async with table_stream(short_tickets.url, gid, launch) as ann:
            assert (await ann.table())["seat"] == 0

    asyncio.run(run())
