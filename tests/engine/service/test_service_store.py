"""The store's one write script: all or nothing, compare-and-set on the version, and the
view's wire form equal to the rules engine's ``View.to_json``."""

from __future__ import annotations

import random
import zlib
from dataclasses import replace

import orjson
import pytest
import redis
from redis.asyncio import Redis

from services.engine.game_record import Seat
from services.engine.responses import player_view
from services.engine.rules import VARIANTS, apply, legal_actions, new_game, view
from services.engine.store import (
    ChatOp,
    ChatTaken,
    CorruptRecord,
    GameStore,
    Missing,
    Stale,
    Written,
    decode,
    encode,
)
from services.engine.wire.event_log import log_key, shard_of
from tests.helpers.engine_service import playing_record


@pytest.fixture
async def store(redis_url: str) -> GameStore:
    return GameStore(
        Redis.from_url(redis_url),
        ttl_seconds=100,
        event_shards=4,
        event_log_maxlen=1000,
        event_log_seconds=3600,
    )


def test_a_record_round_trips_through_its_stored_form() -> None:
    r = playing_record(version=7)
    assert decode(encode(r)) == r
    assert encode(r).startswith(b"7|")


def test_records_stored_without_the_dictionary_still_read_back() -> None:
    r = playing_record(version=7)
    text = orjson.dumps(r.to_json())
    assert decode(b"7|" + zlib.compress(text, 1)) == r  # deflated before the dictionary
    assert decode(b"7|" + text) == r  # plain JSON
    with pytest.raises(CorruptRecord):
        decode(b"7|" + encode(r)[2:-3])  # cut short
    with pytest.raises(CorruptRecord):
        decode(b"8|" + encode(r)[2:])  # the prefix disagrees


async def test_a_stale_write_changes_nothing_at_all(
    store: GameStore, raw_redis: redis.Redis
) -> None:
    first = playing_record()
    assert await store.write(first, expected_version=0, chat=ChatOp.CLAIM) == Written(1)
    second = replace(first, version=2)
    assert await store.write(second, expected_version=1, events=[{"type": "x"}], turn_delay=60)
    snapshot = {k: raw_redis.dump(k) for k in raw_redis.keys("*")}
    loser = replace(first, version=2, seats=(Seat("Z", user_id=9), Seat("B", user_id=2)))
    result = await store.write(
        loser, expected_version=1, events=[{"type": "y"}], turn_delay=5, uno_delay=5
    )
    assert result == Stale(2)
    assert {k: raw_redis.dump(k) for k in raw_redis.keys("*")} == snapshot
    assert raw_redis.xlen(log_key(shard_of("g1", 4))) == 1  # the winner's entry alone


async def test_writing_a_missing_game_or_claiming_a_taken_chat_is_refused(
    store: GameStore,
) -> None:
    assert await store.write(playing_record(), expected_version=3) == Missing()
    assert await store.write(
        playing_record("g1"), expected_version=0, chat=ChatOp.CLAIM
    ) == Written(1)
    assert await store.write(
        playing_record("g2"), expected_version=0, chat=ChatOp.CLAIM
    ) == ChatTaken("g1")
    assert await store.load("g2") is None


async def test_every_key_of_a_game_expires_after_a_day_without_activity(
    store: GameStore, raw_redis: redis.Redis
) -> None:
    await store.write(
        playing_record(), expected_version=0, events=[{"type": "a"}], chat=ChatOp.CLAIM
    )
    for key in ("uno:game:g1", "uno:chat:-5:0"):
        assert 0 < raw_redis.ttl(key) <= 100, key
    # The event log is shared by every game of its shard: its cap bounds it, not a TTL.
    assert raw_redis.ttl(log_key(shard_of("g1", 4))) == -1


async def test_events_page_by_event_id_even_within_one_write(store: GameStore) -> None:
    current = playing_record()
    await store.write(current, expected_version=0, events=[{"type": "a"}], chat=ChatOp.CLAIM)
    for v in (2, 3):
        nxt = replace(current, version=v)
        await store.write(nxt, expected_version=v - 1, events=[{"type": "b"}, {"type": "c"}])
        await store.write(replace(nxt, version=v + 10), expected_version=v - 1)  # stale: nothing
        current = nxt
    every = await store.events("g1")
    assert [(e.id, e.event["type"]) for e in every] == [
        ("1-0", "a"), ("2-0", "b"), ("2-1", "c"), ("3-0", "b"), ("3-1", "c")
    ]  # fmt: skip
    assert [e.id for e in await store.events("g1", after="2-0")] == ["2-1", "3-0", "3-1"]
    assert [e.id for e in await store.events("g1", after="2-0", count=2)] == ["2-1", "3-0"]
    assert [e.id for e in await store.events("g1", after="3-1")] == []
    assert [e.id for e in await store.events_of_version("g1", 2)] == ["2-0", "2-1"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_views_wire_form_is_the_rules_engines_to_json(variant: str) -> None:
    """The service encodes views itself (faster); it must say exactly what View.to_json says."""
    rng = random.Random(variant)
    v = VARIANTS[variant]
    state, _ = new_game(variant, [f"P{i}" for i in range(max(3, v.min_players))], seed=11)
    r = replace(
        playing_record(),
        variant=variant,
        state=state,
        seats=tuple(Seat(p.name) for p in state.players),
    )
    for _ in range(150):
        for seat in (None, *range(len(state.players))):
            expected = orjson.loads(orjson.dumps(view(state, seat).to_json()))
            assert (
                orjson.loads(orjson.dumps(player_view(replace(r, state=state), seat))) == expected
            )
        if state.pending is None:
            break
        result = apply(state, rng.choice(legal_actions(state, state.pending.player)))
        assert not hasattr(result, "reason")
        state = result.state  # type: ignore[union-attr]
