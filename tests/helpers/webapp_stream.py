"""A reader of the Mini App's table stream for the tests: each ``table`` event parsed, the
stream opened as the page opens it (its initData traded for a stream ticket first)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import orjson

#: Long enough for a loaded machine; a test waits for what the stream shows, not for time.
WAIT = 20.0


class TableStream:
    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self._lines = response.aiter_lines()
        self.last_id: str | None = None

    async def next_event(self) -> tuple[str, dict[str, Any]]:
        """The next event's ``(type, data)``; comments and ``retry`` lines are skipped."""
        kind, data = "message", b""
        async with asyncio.timeout(WAIT):
            async for line in self._lines:
                if not line:
                    if data:
                        return kind, orjson.loads(data)
                    continue
                field, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if field == "event":
                    kind = value
                elif field == "data":
                    data += value.encode()
                elif field == "id":
                    self.last_id = value
        raise EOFError("the stream ended")

    async def table(self, at_least: int = 0) -> dict[str, Any]:
        """The next table at ``at_least`` or later."""
        while True:
            kind, data = await self.next_event()
            if kind == "table" and data["version"] >= at_least:
                return data


async def stream_ticket(base: str, game_id: str, init_data: str) -> httpx.Response:
    """The page's exchange: its initData, in the Authorization header, for a stream ticket."""
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(WAIT)) as client:
        return await client.post(
            f"/v1/games/{game_id}/tickets", headers={"Authorization": f"tma {init_data}"}
        )


def _refused(response: httpx.Response) -> httpx.HTTPStatusError:
    return httpx.HTTPStatusError(
        f"{response.status_code} {response.text}", request=response.request, response=response
    )


@asynccontextmanager
async def ticket_stream(
    base: str, game_id: str, ticket: str, last_id: int | None = None
) -> AsyncIterator[TableStream]:
    """The stream opened with ``ticket``; ``httpx.HTTPStatusError`` when it is refused."""
    headers = {"Last-Event-ID": str(last_id)} if last_id is not None else {}
    async with (
        httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(WAIT)) as client,
        client.stream(
            "GET", f"/v1/games/{game_id}/stream", params={"ticket": ticket}, headers=headers
        ) as response,
    ):
        if response.status_code != 200:
            await response.aread()
            raise _refused(response)
        yield TableStream(response)


@asynccontextmanager
async def table_stream(
    base: str, game_id: str, init_data: str, last_id: int | None = None
) -> AsyncIterator[TableStream]:
    """The stream of the person ``init_data`` proves: a ticket for it, then the stream."""
    exchanged = await stream_ticket(base, game_id, init_data)
    if exchanged.status_code != 200:
        raise _refused(exchanged)
    async with ticket_stream(base, game_id, exchanged.json()["ticket"], last_id) as stream:
        yield stream
