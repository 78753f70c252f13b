"""The Bot API's HTTP client (services/bot/bot_api_http.py) answers as PTB's own does: the
status and body of a call, ``TimedOut`` when the server keeps it waiting, ``NetworkError``
when there is no server, a file as a multipart part, and a second life after shutdown."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from telegram import Bot, InputFile
from telegram.error import NetworkError, TimedOut

from harness.processes import free_port
from services.bot.bot_api_http import AiohttpRequest

TOKEN = "123:abc"
Api = tuple[str, list[dict[str, object]]]  # the server's address, and the calls it took


@pytest.fixture
async def api() -> AsyncIterator[Api]:
    """A server answering every method with its own form fields, as JSON; ``slow`` never
    answers in time."""
    seen: list[dict[str, object]] = []

    async def method(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name == "slow":
            await asyncio.sleep(30)
        if request.content_type.startswith("multipart/"):
            fields: dict[str, object] = {}
            async for part in await request.multipart():
                fields[part.name or ""] = (part.filename, await part.read())  # type: ignore[union-attr]
        else:
            fields = dict(await request.post())
        seen.append({"method": name, **fields})
        if name == "getMe":
            me = {"id": 123, "is_bot": True, "first_name": "UNO", "username": "uno_bot"}
            return web.json_response({"ok": True, "result": me})
        return web.json_response({"ok": True, "result": {"method": name}})

    app = web.Application()
    app.router.add_post("/bot{token}/{name}", method)
    server = TestServer(app)
    await server.start_server()
    try:
        yield str(server.make_url("")).rstrip("/"), seen
    finally:
        await server.close()


async def test_a_call_answers_its_status_and_body(api: Api) -> None:
    url, seen = api
    async with Bot(TOKEN, base_url=f"{url}/bot", request=AiohttpRequest(4)) as bot:
        answer = await bot.do_api_request("sendWords", api_kwargs={"chat_id": -100, "text": "hi"})
    assert answer == {"method": "sendWords"}
    # Bot.initialize asks getMe first.
    assert seen == [{"method": "getMe"}, {"method": "sendWords", "chat_id": "-100", "text": "hi"}]


async def test_a_server_that_keeps_the_call_waiting_is_a_timeout(api: Api) -> None:
    url, _ = api
    request = AiohttpRequest(4, read_timeout=0.2)
    async with Bot(TOKEN, base_url=f"{url}/bot", request=request) as bot:
        with pytest.raises(TimedOut):
            await bot.do_api_request("slow")
        # A call may set its own timeout, as PTB's methods do.
        with pytest.raises(TimedOut):
            await bot.do_api_request("slow", read_timeout=0.1)


async def test_no_server_is_a_network_error() -> None:
    bot = Bot(TOKEN, base_url=f"http://127.0.0.1:{free_port()}/bot", request=AiohttpRequest(4))
    with pytest.raises(NetworkError) as raised:
        await bot.initialize()
    assert not isinstance(raised.value, TimedOut)
    await bot.shutdown()


async def test_a_file_goes_as_a_multipart_part(api: Api) -> None:
    url, seen = api
    async with Bot(TOKEN, base_url=f"{url}/bot", request=AiohttpRequest(4)) as bot:
        document = InputFile(b"UNO!", filename="a.txt")
        await bot.do_api_request("sendAFile", api_kwargs={"chat_id": -100, "document": document})
    sent = seen[-1]
    assert sent["method"] == "sendAFile"
    assert sent["chat_id"] == (None, b"-100")
    assert sent["document"] == ("a.txt", bytearray(b"UNO!"))


async def test_it_works_again_after_a_shutdown(api: Api) -> None:
    url, seen = api
    request = AiohttpRequest(4)
    bot = Bot(TOKEN, base_url=f"{url}/bot", request=request)
    for _ in range(2):
        async with bot:
            await bot.do_api_request("askAgain", api_kwargs={"chat_id": 1})
    with pytest.raises(NetworkError, match="not initialized"):
        await bot.do_api_request("askAgain", api_kwargs={"chat_id": 1})
    assert [s["method"] for s in seen] == ["getMe", "askAgain", "getMe", "askAgain"]
