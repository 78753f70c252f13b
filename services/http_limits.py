"""How much of a request the product's HTTP services read: its head (the request line and
the headers) and its body, each bounded, so that no client makes a service read and hold
megabytes (a 20 MB ``Authorization`` header was read whole, and held, before).

- **The head**: uvicorn's httptools protocol reads a head whatever its size (llhttp sets no
  bound, and httptools gathers a header's value in memory until it ends).
  ``HeadLimitProtocol`` counts a head's bytes as they arrive and, once they pass
  ``MAX_HEAD_BYTES``, answers 431 and closes the connection without reading the rest.
  uvicorn's h11 protocol, should an operator choose it, is bounded alike by
  ``h11_max_incomplete_event_size`` (it answers 400).
- **The body**: ``BodyLimit``, an ASGI layer, answers 413 to a body over its limit, reading
  no more than that. (The engine has its own, services/engine/layers.py, which also hands
  its fast path the body in one piece.)

The Mini App and the bot run uvicorn with ``server_options()``; the engine's command line
(scripts/entrypoint.sh, and the harness's) names the same with ``UVICORN_ARGS``.
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: [decision] The largest request head (request line and headers together) a service
#: reads. The largest honest one is the Mini App's stream, whose URL carries the launch's
#: initData (at most 4 KB, some 8 KB once encoded again): 16 KiB, as h11's own default.
MAX_HEAD_BYTES = 16 * 1024

#: The engine's uvicorn command line options for the same bound.
UVICORN_ARGS = (
    "--http",
    "services.http_limits:HeadLimitProtocol",
    "--h11-max-incomplete-event-size",
    str(MAX_HEAD_BYTES),
)


def server_options() -> dict[str, Any]:
    """``uvicorn.run`` / ``uvicorn.Config`` keywords bounding every request's head."""
    return {"http": HeadLimitProtocol, "h11_max_incomplete_event_size": MAX_HEAD_BYTES}


def _head_refusal() -> bytes:
    body = orjson.dumps(
        {
            "error": "head_too_large",
            "message": f"the request line and headers may not exceed {MAX_HEAD_BYTES} bytes",
        }
    )
    return (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
        b"content-type: application/json\r\n"
        b"content-length: %d\r\n"
        b"connection: close\r\n\r\n%s" % (len(body), body)
    )


#: The whole answer to a head too large: written as is, as no application sees the request.
HEAD_TOO_LARGE = _head_refusal()


class HeadLimitProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing a request whose head passes ``MAX_HEAD_BYTES``.

    Two counts, as the parser cannot say how far into a head it is: the bytes received
    while a head is being read (so one that never ends is refused after the first piece
    past the bound, without waiting for the rest), and the sizes of its request line and
    headers as the parser hands them over (so one that arrives whole, in one piece with
    what follows it, is refused too). A refused request reaches no application."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reading_head = True  # from a connection's start, or a message's end, to a head's end
        self.head_bytes = 0  # received while reading this head
        self.head_size = 0  # its request line and headers, as parsed so far
        self.refused = False

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.reading_head:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.reading_head and self.head_bytes > MAX_HEAD_BYTES:
            self.refuse_head()

    def refuse_head(self) -> None:
        if not self.refused:
            self.refused = True
            self.transport.write(HEAD_TOO_LARGE)
            self.transport.close()

    def on_message_begin(self) -> None:
        self.head_size = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self.head_size += len(url)
        if self.head_size > MAX_HEAD_BYTES:
            self.refuse_head()
        if not self.refused:
            super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.head_size += len(name) + len(value) + 4  # ": " and CRLF
        if self.head_size > MAX_HEAD_BYTES:
            self.refuse_head()
        if not self.refused:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.reading_head = False
        self.head_bytes = 0
        if not self.refused:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self.reading_head = True
        self.head_bytes = 0
        if not self.refused:
            super().on_message_complete()


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with 413, reading no more than that: a
    declared ``Content-Length`` over it before reading anything, a body sent in pieces as
    soon as it passes it. A body within the limit is read here and handed on in one piece;
    a request without one (every GET, the Mini App's streams) passes untouched."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: bytes | None = None
        chunked = False
        for key, value in scope["headers"]:
            if key == b"content-length":
                length = value
            elif key == b"transfer-encoding":
                chunked = True
        if length is None and not chunked:
            await self.app(scope, receive, send)
            return
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self.too_large(send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self.too_large(send)
                return
            more = message.get("more_body", False)
        await self.app(scope, replay_body(bytes(body), receive), send)

    async def too_large(self, send: Send) -> None:
        body = orjson.dumps(
            {
                "error": "body_too_large",
                "message": f"a request body may not exceed {self.limit} bytes",
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands over a body already read, then listens on (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
