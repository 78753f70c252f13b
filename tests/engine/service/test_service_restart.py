"""Kill the service (SIGKILL) in the middle of load and start it again: no game is lost or
corrupted, and an action whose answer was lost can be sent again safely."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import httpx
import redis

from services.engine.client import Conflict, EngineClient, EngineError, IllegalAction
from tests.helpers.engine_service import (
    card_count,
    deadlines,
    deck_size,
    engine_server,
    load_record,
    new_started_game,
    owing_user,
    stream_entries,
)

GAMES = 40


async def random_move(engine: EngineClient, gid: str, rng: random.Random, tag: str) -> bool:
    """One random legal move; False once the game is over."""
    owing = await owing_user(engine, gid)
    if owing is None:
        return False
    user, _ = owing
    mine = await engine.view(gid, user)
    assert mine.view is not None
    code = rng.choice(mine.view.legal)
    with contextlib.suppress(Conflict, IllegalAction):  # another request was first: look again
        await engine.act(gid, user, code, version=mine.game.version, action_id=tag)
    return True


async def test_killing_the_service_mid_load_loses_and_corrupts_nothing(
    redis_url: str, raw_redis: redis.Redis, tmp_path: Path
) -> None:
    server = engine_server(redis_url, tmp_path)
    server.serve()
    cut_off: dict[str, tuple[int, str, int, str]] = {}  # game -> the request cut mid-flight
    try:
        async with server.client() as engine:
            games = [await new_started_game(engine, -2_000_000 - i) for i in range(GAMES)]

            async def agent(gid: str, seed: int) -> None:
                rng = random.Random(seed)
                n = 0
                while True:
                    n += 1
                    try:
                        owing = await owing_user(engine, gid)
                        if owing is None:
                            return
                        user, version = owing
                        mine = await engine.view(gid, user)
                        assert mine.view is not None
                        code = rng.choice(mine.view.legal)
                        action_id = f"{gid}-{n}"
                        cut_off[gid] = (user, code_version := mine.game.version, code, action_id)
                        del code_version
                        await engine.act(gid, user, code, version=version, action_id=action_id)
                        cut_off.pop(gid, None)
                    except (Conflict, IllegalAction):
                        cut_off.pop(gid, None)
                    except (httpx.HTTPError, EngineError):
                        return  # the server is gone

            agents = [asyncio.create_task(agent(gid, i)) for i, gid in enumerate(games)]
            await asyncio.sleep(1.5)
            server.kill()
            await asyncio.wait_for(asyncio.gather(*agents), timeout=30)

        for gid in games:
            record = load_record(raw_redis, gid)
            assert record.state is not None and record.state.version == record.version
            assert card_count(record) == deck_size(record)
            versions = [v for _, v, _ in stream_entries(raw_redis, gid)]
            assert versions == sorted(versions) and versions[-1] == record.version
            assert set(range(versions[0], versions[-1] + 1)) <= set(versions)
            if record.status == "playing":
                assert f"{gid}|turn|{record.version}" in deadlines(raw_redis)

        server.serve()
        async with server.client() as engine:
            # A request whose answer was lost is sent again: applied at most once.
            for gid, (user, version, code, action_id) in cut_off.items():
                before = load_record(raw_redis, gid).version
                try:
                    result = await engine.act(gid, user, code, version=version, action_id=action_id)
                    assert result.version == version + 1
                    assert load_record(raw_redis, gid).version == max(before, version + 1)
                except Conflict:
                    assert before != version  # it had not been applied and the game moved on
            rng = random.Random(7)
            for gid in games:
                for n in range(10):
                    await random_move(engine, gid, rng, f"{gid}-after-{n}")
                record = load_record(raw_redis, gid)
                assert card_count(record) == deck_size(record)
    finally:
        server.stop()
