"""Correct under concurrency, over real HTTP: conflicting actions sent at the same moment
are applied exactly once each pair, and no card is created or lost."""

from __future__ import annotations

import asyncio

import redis
from redis.asyncio import Redis

from harness.services import EngineProcess
from services.engine.client import ActionResult, StaleVersion
from services.engine.game_record import Seat
from services.engine.games import Games, Timing
from services.engine.rules import Setup
from services.engine.store import GameStore
from tests.helpers.engine_service import card_count, deadlines, humans, load_record, stream_entries

PAIRS = 1000
SETUP: dict[str, object] = {
    "hands": ["R5 R6 G7", "B1 B2 B3"],
    "discard": "R3",
    "current": 0,
    "draw_pile": "G1 G2",
}
CARDS = 3 + 3 + 1 + 2


async def test_1000_pairs_of_conflicting_actions_apply_exactly_one_of_each(
    server: EngineProcess, raw_redis: redis.Redis, redis_url: str
) -> None:
    # The tables are laid straight into Redis (quicker than 1,000 set-up requests); the
    # actions all go over HTTP.
    games_here = Games(
        GameStore(
            Redis.from_url(redis_url),
            ttl_seconds=3600,
            event_shards=16,
            event_log_maxlen=10_000,
            event_log_seconds=3600,
        ),
        Timing(away_pause_seconds=2, uno_window_seconds=8),
    )
    seats = tuple(Seat(name=s.name, user_id=s.user_id) for s in humans(2))
    games = [
        (await games_here.create_from_setup(-1_000_000 - i, 0, seats, Setup(**SETUP), 60)).id  # type: ignore[arg-type]
        for i in range(PAIRS)
    ]
    async with server.client(max_connections=100, timeout=60) as engine:
        # Pairs go out 50 at a time (httpx's pool slows down badly with thousands of
        # waiters); the two actions of a pair are always sent together.
        gate = asyncio.Semaphore(50)

        async def pair(gid: str) -> list[ActionResult | BaseException]:
            # Both at version 1, each with its own action id: only one may win.
            async with gate:
                return await asyncio.gather(
                    engine.act(gid, 101, "p.R5", version=1, action_id=f"{gid}-play"),
                    engine.act(gid, 101, "d", version=1, action_id=f"{gid}-draw"),
                    return_exceptions=True,
                )

        outcomes = await asyncio.gather(*(pair(gid) for gid in games))

    board = deadlines(raw_redis)
    for gid, results in zip(games, outcomes, strict=True):
        applied = [r for r in results if isinstance(r, ActionResult)]
        refused = [r for r in results if isinstance(r, StaleVersion)]
        assert len(applied) == 1 and len(refused) == 1, results
        assert refused[0].current_version == 2
        record = load_record(raw_redis, gid)
        assert record.version == 2 and card_count(record) == CARDS
        versions = [v for _, v, _ in stream_entries(raw_redis, gid)]
        winner_events = [v for v in versions if v == 2]
        assert len(winner_events) == len(applied[0].events)  # one action's events, once
        assert f"{gid}|turn|2" in board and f"{gid}|turn|1" not in board
