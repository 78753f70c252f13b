"""The bot's engine calls over aiohttp, under the engine client's httpx API.

The engine client (services/engine/client.py) speaks httpx, and the engine's own tests
drive it over httpx's ASGI transport. In the bot it makes about three calls a turn, and
over httpx's own transport (httpcore on anyio) each cost about 0.85 ms of CPU against about
0.5 ms over httpx-aiohttp's transport (the same POST, sequential, on this project's
machine): the CPU of a turn is what sets the press → table tail at a hundred groups
(services/bot/README.md "Figures").

One correction to that transport: it reports a connection the engine dropped after taking
the request (aiohttp's ``ServerDisconnectedError``, a reset mid-call) as
``httpx.ConnectTimeout``, which means "never sent". A move may have been applied then, and
the player must hear so (engine_calls.call_engine), so those come out as ``httpx.ReadError``.
"""

from __future__ import annotations

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport

#: aiohttp's errors that mean the request never left: no connection was made.
NEVER_SENT = (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError)


class EngineTransport(AiohttpTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except httpx.ConnectTimeout as e:
            if isinstance(e.__cause__, NEVER_SENT):
                raise
            raise httpx.ReadError(str(e), request=request) from e.__cause__


#: As the engine client's own default; aiohttp closes idle ones after its keep-alive.
ENGINE_CONNECTIONS = 100


def engine_transport() -> EngineTransport:
    return EngineTransport(limits=httpx.Limits(max_connections=ENGINE_CONNECTIONS))
