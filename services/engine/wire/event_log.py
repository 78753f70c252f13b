"""The event log's layout: a few shared Redis streams, each game's writes in one of them.

``uno:eventlog:{shard}`` (shard ``0 .. shards-1``) is a Redis Stream; a game's writes all go
to the shard ``shard_of(game_id, shards)``, so a game's entries keep their order. One entry
per write that published events, id chosen by Redis (``*``: ids only grow), fields:

``g``  the game id
``v``  the version the write produced
``e``  the write's events as one JSON array, raw-deflated with ``EVENT_DICTIONARY``
       (``encode_events``); ``decode_events`` also reads a plain JSON array (or a single
       event object), which starts with ``[`` or ``{``

An event's own id, the one API clients see, stays per game: ``{version}-{n}``, ``n`` its
index in the write. services/engine/README.md "Events" shows a reader of every shard.

[decision] A handful of shared streams instead of one per game: Redis allocates a stream
node at ``stream-node-max-bytes`` (4 KB by default) up front, so a stream per game cost
some 5 KB per live game under Redis's default configuration, while a few long streams fill
their nodes; and a bot serving thousands of chats reads a few keys, not thousands.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from services.engine.wire.event_dictionary import EVENT_DICTIONARY

LOG_PREFIX = "uno:eventlog:"


def shard_of(game_id: str, shards: int) -> int:
    """The shard holding the game's entries. Fixed for a deployment: changing ``shards``
    sends a game's later writes to another stream than its earlier ones."""
    return zlib.crc32(game_id.encode()) % shards


def log_key(shard: int) -> str:
    return f"{LOG_PREFIX}{shard}"


def log_keys(shards: int) -> list[str]:
    """Every shard's key, for a reader of the whole log."""
    return [log_key(s) for s in range(shards)]


def encode_events(events: Sequence[Mapping[str, Any]]) -> bytes:
    """The write's events as one JSON array, raw-deflated with the event dictionary.

    [decision] Level 9 with ``EVENT_DICTIONARY``: a write's events take about 16 bytes
    instead of 63 deflated without it (96 as JSON), for some 8 µs a write; the log's memory
    is mostly these payloads. Raw deflate (no zlib header and checksum) spares 6 bytes an
    entry."""
    text = orjson.dumps(list(events))
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS, 9, zlib.Z_DEFAULT_STRATEGY,
                               EVENT_DICTIONARY)  # fmt: skip
    body = deflate.compress(text) + deflate.flush()
    # The deflate of a JSON array never starts with "[" or "{" (its first code is a literal
    # "[" or a match, neither of which gives those bits), so the two forms cannot be taken
    # for one another; should it ever, the plain JSON is stored instead.
    return text if body[:1] in (b"[", b"{") else body


def decode_events(payload: bytes) -> list[dict[str, Any]]:
    """The events of an entry's ``e``, in order. Raises ``zlib.error`` or
    ``orjson.JSONDecodeError`` for a payload this service did not write."""
    if payload[:1] in (b"[", b"{"):
        text = payload
    else:
        inflate = zlib.decompressobj(-zlib.MAX_WBITS, EVENT_DICTIONARY)
        text = inflate.decompress(payload)
        if not inflate.eof:
            raise zlib.error("truncated event payload")
    events = orjson.loads(text)
    # A single object: one event per entry, as entries were once written.
    return [events] if isinstance(events, dict) else list(events)


def decode_entry(fields: Mapping[bytes, bytes]) -> tuple[str, int, list[dict[str, Any]]]:
    """An entry's fields as XREAD/XRANGE return them: ``(game id, version, events)``."""
    return fields[b"g"].decode(), int(fields[b"v"]), decode_events(fields[b"e"])
