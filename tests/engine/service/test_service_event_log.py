"""The event log (event_log.py, README.md "Events"): a few shared streams, each game in one.

Covers: games sharing a shard read back only their own events, in order; an entry's payload
round-trips deflated or as plain JSON; a tiny cap trims old entries and reads answer what
is kept; repeated action ids replay their first events while the log holds them.
"""

from __future__ import annotations

import asyncio
import random
import zlib
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import httpx
import orjson
import pytest
import redis
from redis.asyncio import Redis

from harness.services import ENGINE_TOKEN
from services.config import Settings
from services.engine.app import create_app
from services.engine.client import EngineClient, log_key, shard_of, stream_entry_events
from services.engine.game_record import GameRecord
from services.engine.rules import VARIANTS, apply, legal_actions, new_game
from services.engine.store import LOG_PAGE_FIRST, ChatOp, GameStore
from services.engine.wire.event_log import decode_events, encode_events
from tests.helpers.engine_service import (
    humans,
    load_record,
    owing_user,
    playing_record,
    stream_entries,
)

SHARDS = 4


def log_store(
    redis_url: str, *, shards: int, maxlen: int = 10_000, seconds: int = 3600
) -> GameStore:
    """A store whose event log has ``shards`` streams, capped at ``maxlen`` entries each and
    keeping ``seconds`` of writes."""
    return GameStore(
        Redis.from_url(redis_url),
        ttl_seconds=100,
        event_shards=shards,
        event_log_maxlen=maxlen,
        event_log_seconds=seconds,
    )


def same_shard_ids(n: int, shards: int = SHARDS) -> list[str]:
    """``n`` game ids that all map to one shard."""
    ids = [f"game{i}" for i in range(1000)]
    home = shard_of(ids[0], shards)
    return [g for g in ids if shard_of(g, shards) == home][:n]


def events_of(game_id: str, version: int) -> list[dict[str, Any]]:
    return [
        {"type": "played", "player": version % 2, "card": "R5", "game": game_id},
        {"type": "drew_cards", "player": 1, "cards": ["G1", "B9"], "to": 1, "n": version},
    ]


class Games:
    """Games written straight through a store, each at its own version."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.current: dict[str, GameRecord] = {}

    async def write(self, game_id: str, *, quiet: bool = False) -> None:
        """The game's next version, with ``events_of`` it (none if ``quiet``)."""
        old = self.current.get(game_id)
        if old is None:
            new = playing_record(game_id, chat_id=-len(self.current) - 1)
            result = await self.store.write(
                new, expected_version=0, events=events_of(game_id, 1), chat=ChatOp.CLAIM
            )
        else:
            new = replace(old, version=old.version + 1)
            result = await self.store.write(
                new,
                expected_version=old.version,
                events=() if quiet else events_of(game_id, new.version),
            )
        assert result.version == new.version  # type: ignore[union-attr]
        self.current[game_id] = new


async def test_games_sharing_a_shard_read_back_only_their_own_events_in_order(
    redis_url: str, raw_redis: redis.Redis
) -> None:
    store = log_store(redis_url, shards=SHARDS)
    a, b = same_shard_ids(2)
    other = next(
        g for g in (f"x{i}" for i in range(99)) if shard_of(g, SHARDS) != shard_of(a, SHARDS)
    )
    games = Games(store)
    for _ in range(60):  # interleaved, so that each game's entries span several pages
        for gid in (a, b, other):
            await games.write(gid)
    for _ in range(3 * LOG_PAGE_FIRST):  # b alone writes on: a's entries lie further back
        await games.write(b)
    assert raw_redis.xlen(log_key(shard_of(a, SHARDS))) == 60 + 60 + 3 * LOG_PAGE_FIRST
    assert raw_redis.xlen(log_key(shard_of(other, SHARDS))) == 60

    for gid, last in ((a, 60), (b, 60 + 3 * LOG_PAGE_FIRST), (other, 60)):
        every = await store.events(gid, count=10_000)
        assert [e.id for e in every] == [f"{v}-{i}" for v in range(1, last + 1) for i in (0, 1)]
        assert all(e.event == events_of(gid, e.version)[e.index] for e in every)
        assert [e.id for e in await store.events(gid, after="7-0", count=3)] == [
            "7-1", "8-0", "8-1"
        ]  # fmt: skip
        assert await store.events(gid, after=f"{last}-1") == []
        assert [e.event for e in await store.events_of_version(gid, 2)] == events_of(gid, 2)
        assert [e.id for e in await store.events_of_version(gid, last)] == [
            f"{last}-0",
            f"{last}-1",
        ]
        assert await store.events_of_version(gid, last + 1) == []
        # What a consumer of the raw log sees: the same events, in the same order.
        assert [(i, e) for i, _, e in stream_entries(raw_redis, gid, SHARDS)] == [
            (e.id, e.event) for e in every
        ]


def random_play_writes() -> list[list[dict[str, Any]]]:
    """Every write's events of random games in every variant: the real vocabulary."""
    out = []
    for variant in sorted(VARIANTS):
        rng = random.Random(variant)
        state, events = new_game(variant, ["Ana", "Bő", "C", "D"], seed=1)
        out.append([e.to_json() for e in events])
        for _ in range(150):
            if state.pending is None:
                break
            result = apply(state, rng.choice(legal_actions(state, state.pending.player)))
            state = result.state  # type: ignore[union-attr]
            out.append([e.to_json() for e in result.events])  # type: ignore[union-attr]
    return [w for w in out if w]


def test_an_entrys_payload_round_trips_deflated_or_as_plain_json() -> None:
    writes = random_play_writes()
    deflated = plain = 0
    for events in [*writes, [{"type": "player_joined", "name": "Zoë 🃏", "user_id": 7}]]:
        payload = encode_events(events)
        assert payload[:1] not in (b"[", b"{")  # never taken for plain JSON
        assert decode_events(payload) == events
        assert decode_events(orjson.dumps(events)) == events  # plain JSON reads too
        deflated += len(payload)
        plain += len(orjson.dumps(events))
    assert deflated < plain / 3  # the dictionary pays
    single = {"type": "turn", "player": 1}
    assert decode_events(orjson.dumps(single)) == [single]  # one event per entry, as once
    with pytest.raises(zlib.error):
        decode_events(encode_events(writes[0])[:-3])  # cut short


async def test_plain_json_entries_in_the_log_read_back_beside_deflated_ones(
    redis_url: str, raw_redis: redis.Redis
) -> None:
    store = log_store(redis_url, shards=SHARDS, maxlen=100)
    (gid,) = same_shard_ids(1)
    games = Games(store)
    await games.write(gid)
    key = log_key(shard_of(gid, SHARDS))
    await games.write(gid, quiet=True)  # version 2, its entry written by hand as plain JSON:
    raw_redis.xadd(key, {"g": gid, "v": 2, "e": orjson.dumps([{"type": "plain"}])})
    await games.write(gid)
    assert [(e.id, e.event["type"]) for e in await store.events(gid)] == [
        ("1-0", "played"), ("1-1", "drew_cards"), ("2-0", "plain"),
        ("3-0", "played"), ("3-1", "drew_cards"),
    ]  # fmt: skip
    (_, (_, fields)) = raw_redis.xrange(key)[:2]  # type: ignore[index]
    assert stream_entry_events(fields) == (gid, 2, [(0, {"type": "plain"})])


async def test_a_reader_of_the_log_gets_a_writes_public_events_alone_each_with_its_place(
    redis_url: str, raw_redis: redis.Redis
) -> None:
    """README.md "Events": the client's reader of an entry is the log's door to the fronts;
    a private event (``to``) stays in the log, for the engine to give its addressee, and
    the public ones keep the ids the engine gives them (``{version}-{n}``)."""
    store = log_store(redis_url, shards=1)
    games = Games(store)
    await games.write("g")
    key = log_key(0)
    written = [{"type": "drew_cards", "cards": ["R1"], "to": 0}, {"type": "drew", "count": 1}]
    raw_redis.xadd(key, {"g": "g", "v": 2, "e": encode_events(written)})
    first, second = (fields for _, fields in raw_redis.xrange(key))  # type: ignore[union-attr]
    assert stream_entry_events(first) == ("g", 1, [(0, events_of("g", 1)[0])])
    assert stream_entry_events(second) == ("g", 2, [(1, {"type": "drew", "count": 1})])
    assert [(e.id, e.event) for e in await store.events("g")][2:] == [
        ("2-0", written[0]),  # the log holds it whole: the engine redacts per reader
        ("2-1", written[1]),
    ]


async def test_a_tiny_cap_trims_old_entries_and_reads_answer_what_is_kept(
    redis_url: str, raw_redis: redis.Redis
) -> None:
    """``MAXLEN ~``: whole stream nodes go, never one of the last ``event_log_maxlen``."""
    store = log_store(redis_url, shards=1, maxlen=4)
    games = Games(store)
    for _ in range(300):
        for gid in ("a", "b"):
            await games.write(gid)
    key = log_key(0)
    kept = raw_redis.xlen(key)
    assert 4 <= kept < 300  # trimmed, by whole nodes
    read = 0
    for gid in ("a", "b"):
        every = await store.events(gid)
        read += len(every)
        versions = sorted({e.version for e in every})
        assert versions == list(range(versions[0], 301)) and versions[0] > 1  # the newest ones
        assert [(i, e) for i, _, e in stream_entries(raw_redis, gid, 1)] == [
            (e.id, e.event) for e in every
        ]
        assert await store.events(gid, after="1-0") == every  # history gone: what is left
        assert await store.events_of_version(gid, 1) == []
        assert [e.event for e in await store.events_of_version(gid, 300)] == events_of(gid, 300)
    assert read == 2 * kept  # two events an entry: every kept entry read, by its game


async def test_the_log_keeps_the_writes_of_its_last_seconds_and_lets_older_nodes_go(
    redis_url: str, raw_redis: redis.Redis
) -> None:
    """``MINID ~``: a node whose entries are all older than ``event_log_seconds`` goes at
    the next write; the writes of the last seconds all stay, however many they are."""
    store = log_store(redis_url, shards=1, seconds=1)
    games = Games(store)
    for _ in range(150):  # more than a stream node holds (100 entries by default)
        await games.write("old")
    key = log_key(0)
    assert raw_redis.xlen(key) == 150  # all within the last second or so: all kept
    # Wait on the Redis server's own clock (the one entry ids and the trim use) until the
    # first node is more than a second old.
    last_old = int(raw_redis.xrevrange(key, count=1)[0][0].split(b"-")[0])  # type: ignore[index]
    while _redis_ms(raw_redis) <= last_old + 1000:
        await asyncio.sleep(0.05)
    for _ in range(3):
        await games.write("new")
    kept = [stream_entry_events(fields)[:2] for _, fields in raw_redis.xrange(key)]  # type: ignore[union-attr]
    assert ("new", 1) in kept and ("new", 3) in kept  # the last seconds' writes stay
    assert ("old", 1) not in kept and len(kept) < 150  # the first whole node went
    assert [e.version for e in await store.events("new")] == [1, 1, 2, 2, 3, 3]


def _redis_ms(client: redis.Redis) -> int:
    seconds, micros = client.time()  # type: ignore[misc]
    return int(seconds) * 1000 + int(micros) // 1000


# -- over the API, with the log's settings overridden --------------------------------------


@pytest.fixture
async def one_shard(settings: Settings) -> AsyncIterator[EngineClient]:
    """The app with every game in one shard, capped at a single entry (``MAXLEN ~``: a
    node of entries stays until a whole node can go)."""
    app = create_app(settings.model_copy(update={"event_shards": 1, "event_log_maxlen": 1}))
    transport = httpx.ASGITransport(app=app)
    async with EngineClient("http://engine", ENGINE_TOKEN, transport=transport) as client:
        yield client


async def move(engine: EngineClient, gid: str, action_id: str) -> int:
    """The owing player takes their first legal action; the version it was taken at."""
    owing = await owing_user(engine, gid)
    assert owing is not None
    user, version = owing
    code = (await engine.view(gid, user)).view.legal[0]  # type: ignore[union-attr]
    await engine.act(gid, user, code, version=version, action_id=action_id)
    return version


def crowd_the_shard(raw_redis: redis.Redis, entries: int) -> None:
    """Other games' writes in the one shard, after the ones under test."""
    for n in range(entries):
        raw_redis.xadd(log_key(0), {"g": f"other{n % 7}", "v": n + 1, "e": b'[{"type":"x"}]'})


async def test_a_repeated_action_id_replays_its_first_events_while_the_log_holds_them(
    one_shard: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await one_shard.create_test_game(
        -100_555,
        humans(2),
        {"hands": ["R5 R6 G7", "B1 B2 B3"], "discard": "R3", "current": 0, "draw_pile": "G1 G2 G3"},
    )
    gid = game.game_id
    first = await one_shard.act(gid, 101, "p.R5", version=1, action_id="tap-1")
    crowd_the_shard(raw_redis, 3 * LOG_PAGE_FIRST)  # further back than a first page
    again = await one_shard.act(gid, 101, "p.R5", version=1, action_id="tap-1")
    assert again.duplicate and again.version == first.version == 2
    assert again.events == first.events and again.events

    # Enough other writes, and one of the game's own to trim with, for the log to let the
    # first result go: the repeat still answers that version, applied once, without events.
    crowd_the_shard(raw_redis, 500)
    version = await move(one_shard, gid, "next-1")
    assert raw_redis.xlen(log_key(0)) < 500
    gone = await one_shard.act(gid, 101, "p.R5", version=1, action_id="tap-1")
    assert gone.duplicate and gone.version == 2 and gone.events == []
    assert load_record(raw_redis, gid).version == version + 1
    # The newest write is kept (never fewer than the cap), and the HTTP reader gets it.
    page = await one_shard.events(gid)
    assert {e.version for e in page.events} == {version + 1}
    assert page.last_id.startswith(f"{version + 1}-")
