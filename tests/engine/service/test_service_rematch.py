"""``POST /v1/games/{gid}/rematch`` (RULES.md §7 "Rematch"): the vote's refusals, the new
game it starts in the same chat, the old game's events, and the two writes of the last vote
never half-done (two last votes at once; a crash between the writes)."""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis.asyncio import Redis

from services.config import Settings
from services.engine import game_record
from services.engine.client import Conflict, EngineClient, Forbidden, GameInfo
from services.engine.store import ChatOp, GameStore
from tests.helpers.engine_service import load_record, stream_entries

CHAT = -100_4242


async def ended_game(engine: EngineClient, *, humans: int = 3, ai: bool = True) -> GameInfo:
    """A game of users 1..humans (1 the host) and an AI seat after the second, dealt then
    ended by its host."""
    game = await engine.create_game(CHAT, 1, "P1", topic_id=3, turn_seconds=77)
    await engine.join(game.game_id, 2, "P2")
    if ai:
        await engine.add_ai(game.game_id, 1, level="random", name="Robo")
    for user in range(3, humans + 1):
        await engine.join(game.game_id, user, f"P{user}")
    await engine.start(game.game_id, 1)
    return await engine.end(game.game_id, 1)


async def test_rules_s7_rematch_vote_starts_the_new_game_in_the_same_chat(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §7 "Rematch": every human votes; the yes-voters and the AI seats play again
    at once, in the same chat and topic, with the same options; the old game links to it."""
    old = await ended_game(engine)
    assert old.rematch.yes == [] and old.rematch.no == [] and old.rematch.next_game_id is None
    info = await engine.rematch(old.game_id, 2, True)
    assert info.rematch.yes == [2] and info.rematch.next_game_id is None
    info = await engine.rematch(old.game_id, 1, False)
    assert info.rematch.no == [1]
    info = await engine.rematch(old.game_id, 3, True)
    next_id = info.rematch.next_game_id
    assert next_id == game_record.rematch_id(old.game_id)
    assert info.status == "ended" and info.rematch.yes == [2, 3] and info.rematch.no == [1]

    new = await engine.game(next_id)
    assert new.status == "playing" and new.version == 1
    assert [(s.name, s.user_id, s.ai) for s in new.seats] == [
        ("P2", 2, None),
        ("Robo", None, "random"),
        ("P3", 3, None),
    ]
    assert (new.chat_id, new.topic_id, new.turn_seconds) == (CHAT, 3, 77)
    assert new.host == 2  # the old host said no: the first to say yes
    live = await engine.chat_game(CHAT, topic_id=3)
    assert live is not None and live.game_id == next_id
    assert [g.game_id for g in await engine.user_games(3)] == [next_id]
    assert await engine.user_games(1) == []

    events = [e for _, _, e in stream_entries(raw_redis, old.game_id)]
    assert [e for e in events if e["type"].startswith("rematch")] == [
        {"type": "rematch_vote", "user_id": 2, "vote": True},
        {"type": "rematch_vote", "user_id": 1, "vote": False},
        {"type": "rematch_vote", "user_id": 3, "vote": True},
        {"type": "rematch_started", "next_game_id": next_id},
    ]
    created = [e for _, _, e in stream_entries(raw_redis, next_id)]
    assert created[0]["type"] == "game_created" and created[1]["type"] == "game_started"


async def test_a_rematch_of_one_human_is_a_lobby_on_their_games_list(
    engine: EngineClient,
) -> None:
    old = await ended_game(engine, humans=2, ai=False)
    await engine.rematch(old.game_id, 1, True)
    info = await engine.rematch(old.game_id, 2, False)
    assert info.rematch.next_game_id is not None
    new = await engine.game(info.rematch.next_game_id)
    assert new.status == "lobby" and [s.user_id for s in new.seats] == [1]
    # The Mini App's "my games": the lobby is there, and so is one somebody joins.
    assert [g.game_id for g in await engine.user_games(1)] == [new.game_id]
    await engine.join(new.game_id, 5, "P5")
    listed = await engine.user_games(5)
    assert [(g.game_id, g.status) for g in listed] == [(new.game_id, "lobby")]


async def test_nobody_saying_yes_starts_nothing_and_frees_the_chat(engine: EngineClient) -> None:
    old = await ended_game(engine, humans=2)
    await engine.rematch(old.game_id, 1, False)
    info = await engine.rematch(old.game_id, 2, False)
    assert info.rematch.next_game_id is None and info.rematch.no == [1, 2]
    assert await engine.chat_game(CHAT, topic_id=3) is None


async def test_refusals_change_nothing(engine: EngineClient, raw_redis: redis.Redis) -> None:
    live = await engine.create_game(CHAT, 1, "P1", topic_id=9)
    with pytest.raises(Conflict) as conflict:
        await engine.rematch(live.game_id, 1, True)
    assert (conflict.value.status, conflict.value.error) == (409, "game_not_over")

    old = await ended_game(engine)
    with pytest.raises(Forbidden) as forbidden:
        await engine.rematch(old.game_id, 99, True)
    assert forbidden.value.error == "not_a_player"
    await engine.rematch(old.game_id, 1, True)
    with pytest.raises(Conflict) as conflict:
        await engine.rematch(old.game_id, 1, False)
    assert conflict.value.error == "already_voted"
    before = load_record(raw_redis, old.game_id)

    # Somebody starts another game in the chat meanwhile: no vote is taken.
    other = await engine.create_game(CHAT, 7, "P7", topic_id=3)
    with pytest.raises(Conflict) as conflict:
        await engine.rematch(old.game_id, 2, True)
    assert conflict.value.error == "chat_busy" and "another game" in conflict.value.message
    assert conflict.value.body["game_id"] == other.game_id
    assert load_record(raw_redis, old.game_id) == before
    await engine.end(other.game_id, 7)

    await engine.rematch(old.game_id, 2, True)
    started = await engine.rematch(old.game_id, 3, True)
    with pytest.raises(Conflict) as conflict:
        await engine.rematch(old.game_id, 3, True)
    assert conflict.value.error == "rematch_started"
    assert conflict.value.body["game_id"] == started.rematch.next_game_id


async def test_kicked_players_are_refused_and_not_waited_for(engine: EngineClient) -> None:
    game = await engine.create_game(CHAT, 1, "P1")
    await engine.join(game.game_id, 2, "P2")
    await engine.join(game.game_id, 3, "P3")
    await engine.start(game.game_id, 1)
    await engine.kick(game.game_id, 1, 3)
    old = await engine.end(game.game_id, 1)
    with pytest.raises(Forbidden) as forbidden:
        await engine.rematch(old.game_id, 3, True)
    assert (forbidden.value.error, forbidden.value.body["reason"]) == ("seat_removed", "kicked")
    await engine.rematch(old.game_id, 1, True)
    info = await engine.rematch(old.game_id, 2, True)
    assert info.rematch.next_game_id is not None
    assert [s.user_id for s in (await engine.game(info.rematch.next_game_id)).seats] == [1, 2]


async def test_two_last_votes_at_once_start_one_game(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    for round_ in range(10):
        old = await ended_game(engine)
        await engine.rematch(old.game_id, 1, True)
        answers = await asyncio.gather(
            engine.rematch(old.game_id, 2, True),
            engine.rematch(old.game_id, 3, True),
            return_exceptions=True,
        )
        assert all(isinstance(a, GameInfo) for a in answers), answers
        final = await engine.game(old.game_id)
        next_id = final.rematch.next_game_id
        assert next_id is not None and sorted(final.rematch.yes) == [1, 2, 3]
        new = await engine.game(next_id)
        assert [s.user_id for s in new.seats] == [1, 2, None, 3]
        created = [e for _, _, e in stream_entries(raw_redis, next_id)]
        assert [e["type"] for e in created].count("game_created") == 1, round_
        started = [e for _, _, e in stream_entries(raw_redis, old.game_id)]
        assert [e["type"] for e in started].count("rematch_started") == 1
        await engine.end(next_id, 1)


async def test_a_crash_between_the_two_writes_is_finished_by_the_vote_sent_again(
    engine: EngineClient, raw_redis: redis.Redis, settings: Settings
) -> None:
    """The new game was made but the old record's write never came: the same vote sent
    again finds the game and links to it; the game is not made twice."""
    old = await ended_game(engine, humans=2)
    await engine.rematch(old.game_id, 1, True)
    store = GameStore(
        Redis.from_url(settings.redis_url),
        ttl_seconds=600,
        event_shards=settings.event_shards,
        event_log_maxlen=settings.event_log_maxlen,
        event_log_seconds=settings.event_log_seconds,
    )
    record = load_record(raw_redis, old.game_id)
    voted, _ = game_record.vote_rematch(record, 2, True)
    made, events = game_record.rematch_game(voted, seed=11)
    await store.write(made, expected_version=0, events=events, chat=ChatOp.CLAIM)
    assert load_record(raw_redis, old.game_id) == record  # the crash: no second write

    # The other answer of the same person loses to what was made.
    with pytest.raises(Conflict) as conflict:
        await engine.rematch(old.game_id, 2, False)
    assert conflict.value.error == "already_voted"
    assert load_record(raw_redis, old.game_id) == record
    info = await engine.rematch(old.game_id, 2, True)
    assert info.rematch.next_game_id == made.id
    assert load_record(raw_redis, made.id) == made
    await store.redis.aclose()


@pytest.mark.parametrize("second", [True, False])
async def test_the_last_vote_sent_twice_at_once_is_taken_once(
    engine: EngineClient, raw_redis: redis.Redis, second: bool
) -> None:
    """A double press (or yes and no pressed together): one answer takes the vote, the
    other is refused, and the rematch is made once, as the vote taken says."""
    for _ in range(5):
        old = await ended_game(engine, humans=2)
        await engine.rematch(old.game_id, 1, True)
        answers = await asyncio.gather(
            engine.rematch(old.game_id, 2, True),
            engine.rematch(old.game_id, 2, second),
            return_exceptions=True,
        )
        taken = [a for a in answers if isinstance(a, GameInfo)]
        refused = [a for a in answers if isinstance(a, Conflict)]
        assert len(taken) == 1 and len(refused) == 1, answers
        assert refused[0].error in ("rematch_started", "already_voted")
        final = await engine.game(old.game_id)
        assert final.rematch == taken[0].rematch
        next_id = final.rematch.next_game_id
        assert next_id is not None
        new = await engine.game(next_id)
        humans = [s.user_id for s in new.seats if s.user_id is not None]
        assert humans == [1, *final.rematch.yes[1:]]
        created = [e for _, _, e in stream_entries(raw_redis, next_id)]
        assert [e["type"] for e in created].count("game_created") == 1
        await engine.end(next_id, 1)
