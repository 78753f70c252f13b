"""How many table streams one person and one game may hold at once, counted across every
replica in Redis: the next is refused 429 ``too_many_streams`` (at the ticket exchange,
where the page reads it, and at the stream itself), a closed stream frees its place at
once, a live one keeps its place by refreshing its lease, and a crashed replica's places
come back when its leases lapse. Two replicas capped small (3 a person, 5 a game); the
second's leases last 3 seconds, so its crash is over within a test."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack, ExitStack
from typing import Any

import httpx
import pytest
import redis as sync_redis

from harness.services import WebAppProcess
from services.app_presence import person_key
from tests.helpers.waiting import async_wait_for
from tests.helpers.webapp import APP_NAME, Deal, WebAppStack, deal_classic, start_webapp
from tests.helpers.webapp_stream import WAIT, stream_ticket, table_stream, ticket_stream

CAPS = {"UNO_WEBAPP_STREAMS_PER_PERSON": "3", "UNO_WEBAPP_STREAMS_PER_GAME": "5"}


@pytest.fixture(scope="module")
def capped(webapp_stack: WebAppStack) -> Iterator[tuple[WebAppProcess, WebAppProcess]]:
    """Two replicas capped alike: the first with the default lease, the second with a lease
    of 3 seconds (refreshed each second while a stream lives)."""
    lasting = start_webapp(webapp_stack, "webapp-capped", **CAPS)
    lapsing = start_webapp(
        webapp_stack, "webapp-capped-short", UNO_WEBAPP_STREAM_LEASE_SECONDS="3", **CAPS
    )
    yield lasting, lapsing
    for proc in (lasting, lapsing):
        proc.stop()


def redis_now_ms(client: sync_redis.Redis) -> int:
    seconds, micros = client.time()
    return int(seconds) * 1000 + int(micros) // 1000


def live_leases(client: sync_redis.Redis, key: str) -> int:
    """The leases in ``key`` that have not lapsed, on Redis's clock (the one they count by)."""
    return int(client.zcount(key, f"({redis_now_ms(client)}", "+inf"))


def assert_too_many(response: httpx.Response, limit: str, most: int) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["error"] == "too_many_streams" and body["message"]
    assert body["limit"] == limit and body["most"] == most


def test_one_person_holds_at_most_their_cap_across_replicas(
    deal: Deal, capped: tuple[WebAppProcess, WebAppProcess]
) -> None:
    stack, gid = deal.stack, deal.game_id
    first, second = capped

    async def run() -> None:
        ann = stack.launch("Ann", gid)
        early = await stream_ticket(first.url, gid, ann)  # taken while a place was free
        assert early.status_code == 200
        async with AsyncExitStack() as held:
            for url in (first.url, first.url, second.url):
                stream = await held.enter_async_context(table_stream(url, gid, ann))
                assert (await stream.table())["seat"] == 0
            for url in (first.url, second.url):
                assert_too_many(await stream_ticket(url, gid, ann), "person", 3)
            # the stream itself counts as well: a ticket from before the places filled
            with pytest.raises(httpx.HTTPStatusError) as late:
                async with ticket_stream(second.url, gid, early.json()["ticket"]):
                    pass
            assert_too_many(late.value.response, "person", 3)
            # Ann's places are hers: Bob opens his
            async with table_stream(second.url, gid, stack.launch("Bob", gid)) as bob:
                assert (await bob.table())["seat"] == 1

    asyncio.run(run())


def test_one_game_holds_at_most_its_cap_whoever_opens_them(
    deal: Deal, capped: tuple[WebAppProcess, WebAppProcess]
) -> None:
    stack, gid = deal.stack, deal.game_id
    first, second = capped

    async def run() -> None:
        async with AsyncExitStack() as held:
            for name, url in (
                ("Ann", first.url),
                ("Ann", second.url),
                ("Bob", first.url),
                ("Bob", second.url),
                ("Sam", first.url),
            ):
                stream = await held.enter_async_context(
                    table_stream(url, gid, stack.launch(name, gid))
                )
                await stream.table()
            # Sam holds one place of his three, but the game's five are taken
            for url in (first.url, second.url):
                assert_too_many(await stream_ticket(url, gid, stack.launch("Sam", gid)), "game", 5)

    asyncio.run(run())


def test_a_closed_stream_frees_its_place_at_once(
    deal: Deal, capped: tuple[WebAppProcess, WebAppProcess]
) -> None:
    stack, gid = deal.stack, deal.game_id
    lasting = capped[0]  # its leases would last far longer than this test waits
    client = sync_redis.Redis.from_url(stack.redis_url)
    key = person_key(stack.people["Ann"]["id"])

    async def run() -> None:
        ann = stack.launch("Ann", gid)
        async with AsyncExitStack() as held:
            for _ in range(2):
                await (await held.enter_async_context(table_stream(lasting.url, gid, ann))).table()
            async with table_stream(lasting.url, gid, ann) as third:
                await third.table()
                assert_too_many(await stream_ticket(lasting.url, gid, ann), "person", 3)
            await async_wait_for(
                lambda: live_leases(client, key) == 2, WAIT, "the closed stream's place freed"
            )
            async with table_stream(lasting.url, gid, ann) as again:
                assert (await again.table())["seat"] == 0

    try:
        asyncio.run(run())
    finally:
        client.close()


def test_a_live_stream_keeps_its_place_and_a_crashed_replicas_places_lapse(
    deal: Deal, capped: tuple[WebAppProcess, WebAppProcess]
) -> None:
    stack, gid = deal.stack, deal.game_id
    lasting, lapsing = capped
    client = sync_redis.Redis.from_url(stack.redis_url)
    key = person_key(stack.people["Ann"]["id"])

    async def run() -> None:
        ann = stack.launch("Ann", gid)
        held = AsyncExitStack()
        try:
            for _ in range(3):
                await (await held.enter_async_context(table_stream(lapsing.url, gid, ann))).table()
            # past the moment the leases, as first taken, would have lapsed: still held
            first_lapse = max(score for _, score in client.zrange(key, 0, -1, withscores=True))
            await async_wait_for(
                lambda: redis_now_ms(client) > first_lapse, WAIT, "the first leases' end"
            )
            assert_too_many(await stream_ticket(lasting.url, gid, ann), "person", 3)
            lapsing.kill()
            await async_wait_for(
                lambda: live_leases(client, key) == 0, WAIT, "the dead replica's leases to lapse"
            )
        finally:
            await held.aclose()
        async with AsyncExitStack() as again:
            for _ in range(3):
                await (await again.enter_async_context(table_stream(lasting.url, gid, ann))).table()

    try:
        asyncio.run(run())
    finally:
        client.close()
        if not lapsing.alive:
            lapsing.start_again()


@pytest.mark.slow
def test_the_page_says_why_it_waits_and_opens_once_a_place_frees(
    webapp_stack: WebAppStack, capped: tuple[WebAppProcess, WebAppProcess], browser: Any
) -> None:
    """Ann holds her three places elsewhere; her page says so in words, and opens the table
    by itself once she closes one."""
    stack, lasting = webapp_stack, capped[0]
    # Playwright's sync API runs its own event loop in this thread: the deal runs in another
    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(asyncio.run, deal_classic(stack, ["R5 R6", "R7 R8"])).result()
    gid = game.game_id
    stack.telegram.control.register_web_app(stack.token, APP_NAME, f"{lasting.url}/")
    ann = stack.launch("Ann", gid)
    context = browser.new_context()
    try:
        with ExitStack() as held, httpx.Client(base_url=lasting.url, timeout=WAIT) as client:
            streams = []
            for _ in range(3):
                ticket = client.post(
                    f"/v1/games/{gid}/tickets", headers={"Authorization": f"tma {ann}"}
                ).json()["ticket"]
                response = held.enter_context(
                    client.stream("GET", f"/v1/games/{gid}/stream", params={"ticket": ticket})
                )
                assert response.status_code == 200
                streams.append(response)
            page = context.new_page()
            page.goto(stack.open_app("Ann", gid)["url"])
            page.wait_for_selector("#status:has-text('Too many tables open')")
            assert page.get_attribute("body", "data-version") is None
            streams[0].close()
            page.wait_for_selector(f"body[data-version='{game.version}']", timeout=WAIT * 2000)
            assert page.locator(".hand-card").count() == 2
    finally:
        context.close()
