"""A reader of the Mini App's table stream for the tests: each ``table`` event parsed."""

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


@asynccontextmanager
async def table_stream(
    base: str, game_id: str, init_data: str, last_id: int | None = None
) -> AsyncIterator[TableStream]:
    headers = {"Last-Event-ID": str(last_id)} if last_id is not None else {}
    async with (
        httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(WAIT)) as client,
        client.stream(
            "GET", f"/v1/games/{game_id}/stream", params={"init_data": init_data}, headers=headers
        ) as response,
    ):
        if response.status_code != 200:
            await response.aread()
            raise httpx.HTTPStatusError(
                f"{response.status_code} {response.text}",
                request=response.request,
                response=response,
            )
        yield TableStream(response)
