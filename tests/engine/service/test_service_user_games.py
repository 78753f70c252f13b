"""A person's current games (``GET /v1/users/{id}/games``): the live games they hold a seat
in, kept by the engine's own writes: creating, joining, leaving and ending change the list
in the same compare-and-set as the game."""

from __future__ import annotations

import pytest
import redis

from services.engine.client import BadRequest, EngineClient
from services.engine.store import user_games_key

CHAT = -100_777
OTHER_CHAT = -100_778


async def listed(engine: EngineClient, user_id: int) -> list[str]:
    return [g.game_id for g in await engine.user_games(user_id)]


async def test_creating_and_joining_list_the_game_for_each_seated_person(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    assert await listed(engine, 1) == []
    game = await engine.create_game(CHAT, 1, "Ana")
    assert await listed(engine, 1) == [game.game_id]
    assert await listed(engine, 2) == []
    await engine.join(game.game_id, 2, "Bo")
    games = await engine.user_games(2)
    assert [g.game_id for g in games] == [game.game_id]
    assert games[0].chat_id == CHAT and games[0].status == "lobby"
    # The list lives no longer than its games do: it has the game's expiry.
    assert raw_redis.ttl(user_games_key(2)) > 0
    # An AI seat is nobody's list; a second game in another chat is listed beside the first.
    await engine.add_ai(game.game_id, 1, level="random")
    other = await engine.create_game(OTHER_CHAT, 2, "Bo")
    assert sorted(await listed(engine, 2)) == sorted([game.game_id, other.game_id])
    assert await listed(engine, 1) == [game.game_id]


async def test_leaving_the_lobby_or_a_game_in_play_takes_it_off_the_leavers_list(
    engine: EngineClient,
) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    for user_id, name in ((2, "Bo"), (3, "Cy"), (4, "Di")):
        await engine.join(game.game_id, user_id, name)
    await engine.leave(game.game_id, 4)  # the lobby: the seat goes
    assert await listed(engine, 4) == []
    await engine.start(game.game_id, 1)
    await engine.leave(game.game_id, 3)  # in play: the stand-in keeps the seat
    assert await listed(engine, 3) == []
    assert await listed(engine, 1) == [game.game_id]
    assert await listed(engine, 2) == [game.game_id]


async def test_ending_a_game_empties_every_list_and_frees_them_for_the_next(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    await engine.start(game.game_id, 1)
    await engine.end(game.game_id, 1)
    assert await listed(engine, 1) == [] and await listed(engine, 2) == []
    assert not raw_redis.exists(user_games_key(1), user_games_key(2))
    again = await engine.create_game(CHAT, 2, "Bo")
    assert await listed(engine, 2) == [again.game_id]


async def test_the_last_human_leaving_ends_the_game_off_every_list(engine: EngineClient) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    await engine.add_ai(game.game_id, 1, level="random")
    await engine.add_ai(game.game_id, 1, level="random")
    await engine.start(game.game_id, 1)
    await engine.leave(game.game_id, 1)
    assert (await engine.game(game.game_id)).status == "ended"
    assert await listed(engine, 1) == []


async def test_a_game_gone_from_redis_is_not_listed(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """A game nobody wrote for its whole TTL expires without an ending write; its id may
    outlive it in the list (the list's expiry is the latest of its games'), and is skipped."""
    gone = await engine.create_game(CHAT, 1, "Ana")
    kept = await engine.create_game(OTHER_CHAT, 1, "Ana")
    raw_redis.delete(f"uno:game:{gone.game_id}")
    assert await listed(engine, 1) == [kept.game_id]


async def test_a_bad_user_id_is_refused(engine: EngineClient) -> None:
    with pytest.raises(BadRequest):
        await engine.user_games(0)
