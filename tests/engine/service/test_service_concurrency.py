"""Correct under concurrency, over real HTTP: conflicting actions sent at the same moment
are applied exactly once each pair, and no card is created or lost."""

from __future__ import annotations

import asyncio

import redis
from service_helpers import EngineServer, card_count, deadlines, humans, load_record, stream_entries

from services.engine.client import ActionResult, StaleVersion

PAIRS = 1000
SETUP = {"hands": ["R5 R6 G7", "B1 B2 B3"], "discard": "R3", "current": 0, "draw_pile": "G1 G2"}
CARDS = 3 + 3 + 1 + 2


async def test_1000_pairs_of_conflicting_actions_apply_exactly_one_of_each(
    server: EngineServer, raw_redis: redis.Redis
) -> None:
    async with server.client(max_connections=128) as engine:
        gate = asyncio.Semaphore(128)

        async def create(chat: int) -> str:
            async with gate:
                game = await engine.create_test_game(chat, humans(2), SETUP)
                return game.game_id

        games = await asyncio.gather(*(create(-1_000_000 - i) for i in range(PAIRS)))

        async def pair(gid: str) -> list[ActionResult | BaseException]:
            # Both at version 1, each with its own action id: only one may win.
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
