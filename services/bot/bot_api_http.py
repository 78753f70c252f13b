"""The Bot API's HTTP client: PTB's ``BaseRequest`` over aiohttp.

PTB sends every Bot API call through a ``BaseRequest``, an interface it documents for
other HTTP libraries to implement. Its own, ``HTTPXRequest``, runs httpx over httpcore and
anyio; here a call over it cost about 0.85 ms of CPU against 0.22 ms over aiohttp (the
same POST and answer, sequential, on this project's machine), and the bot makes about three
Bot API calls a turn. The CPU of a turn is what sets the press → table tail at a hundred
groups (services/bot/README.md "Figures").

It answers what ``HTTPXRequest`` answers: the status and the body, ``TimedOut`` when a
timeout ran out, ``NetworkError`` for any other failure to get an answer.
"""

from __future__ import annotations

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

#: A timeout a call may leave unset (``BaseRequest.DEFAULT_NONE``): the default then.
ODVFloat = float | None | object
UNSET = BaseRequest.DEFAULT_NONE


class AiohttpRequest(BaseRequest):
    """One connection pool of ``connections`` sockets; the timeouts are ``HTTPXRequest``'s
    defaults, and a call may set its own as PTB's methods do."""

    def __init__(
        self,
        connections: int,
        *,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        idle_seconds: float = 15.0,
    ) -> None:
        self._connections = connections
        self._idle_seconds = idle_seconds
        self._read = read_timeout
        self._connect, self._pool = connect_timeout, pool_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                limit=self._connections, keepalive_timeout=self._idle_seconds
            )
            self._session = aiohttp.ClientSession(connector=connector)

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVFloat = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVFloat = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVFloat = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVFloat = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized")
        read = _given(read_timeout, self._read)
        connect = _given(connect_timeout, self._connect)
        pool = _given(pool_timeout, self._pool)
        # aiohttp has no write timeout of its own (a call's ``write_timeout`` is ignored):
        # a body goes out within the read's.
        timeout = aiohttp.ClientTimeout(
            sock_read=read,
            sock_connect=connect,
            connect=None if pool is None or connect is None else pool + connect,
        )
        try:
            async with self._session.request(
                method,
                url,
                data=_body(request_data),
                headers={"User-Agent": self.USER_AGENT},
                timeout=timeout,
            ) as response:
                return response.status, await response.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err


def _given(timeout: ODVFloat, default: float | None) -> float | None:
    if timeout is UNSET:
        return default
    assert timeout is None or isinstance(timeout, int | float)
    return timeout


def _body(request_data: RequestData | None) -> aiohttp.FormData | dict[str, str] | None:
    """The call's parameters as a form, as ``HTTPXRequest`` sends them, with any files as
    multipart parts."""
    if request_data is None:
        return None
    if not request_data.contains_files:
        return request_data.json_parameters
    form = aiohttp.FormData(request_data.json_parameters)
    for name, (filename, content, mimetype) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mimetype)
    return form
