"""Who is out of a game, over the API: a player removed with /kick, or gone from the game's
chat, is refused every move, hand view, join and "I'm back" with ``seat_removed`` and the
reason, whichever front sends it; the removal is part of the game record, written with its
compare-and-set (README.md "Who is out of a game")."""

from __future__ import annotations

import pytest
import redis

from services.engine.client import EngineClient, Forbidden
from services.move_ids import action_id
from tests.helpers.engine_service import load_record

CHAT = -100_777
# RULES.md §1 notation: Ana (seat 0) to play on a red 3.
SETUP = {"hands": ["R5 R6 B9", "R7 G7 G8", "Y2 Y3 Y4"], "discard": "R3", "current": 0}


async def three_in_play(engine: EngineClient) -> str:
    from services.engine.client import SeatSpec

    seats = [SeatSpec(name=n, user_id=u) for n, u in (("Ana", 1), ("Bo", 2), ("Cy", 3))]
    game = await engine.create_test_game(CHAT, seats, SETUP, turn_seconds=300)
    return game.game_id


async def refused(engine: EngineClient, call: object) -> Forbidden:
    with pytest.raises(Forbidden) as caught:
        await call  # type: ignore[misc]
    return caught.value


async def test_a_kicked_player_is_refused_every_move_and_seat(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §7: the stand-in plays the seat; the player never takes it back."""
    gid = await three_in_play(engine)
    kicked = await engine.kick(gid, 1, 2)
    assert kicked.seats[1].left and kicked.seats[1].away
    (removal,) = kicked.removed
    assert (removal.user_id, removal.reason, removal.by) == (2, "kicked", 1)
    assert removal.at > 0
    # the removal is in the stored record itself, with the version it was written at
    stored = load_record(raw_redis, gid)
    assert stored.version == kicked.version
    assert [(r.user_id, r.reason.value, r.by) for r in stored.removed] == [(2, "kicked", 1)]
    version = kicked.version
    await engine.act(gid, 1, "p.R5", version=version, action_id="a1")  # Bo owes now
    version += 1
    for call in (
        engine.act(gid, 2, "p.R7", version=version, action_id=action_id(2, version, "p.R7")),
        engine.view(gid, 2),
        engine.back(gid, 2),
        engine.leave(gid, 2),
        engine.events(gid, user_id=2),
    ):
        error = await refused(engine, call)
        assert (error.error, error.reason, error.removed) == ("seat_removed", "kicked", "kicked")
    after = await engine.game(gid)
    assert after.version == version and after.seats[1].left
    assert [g.game_id for g in await engine.user_games(2)] == []
    # what a front showing Bo the table gets: the spectator's view, and why
    views = await engine.views_json(gid, [2, 3])
    bo, cy = views["views"]
    assert (bo["seat"], bo["removed"], bo["view"]["hand"]) == (None, "kicked", [])
    assert cy["seat"] == 2 and cy["view"]["hand"] == ["Y2", "Y3", "Y4"] and "removed" not in cy


async def test_only_the_host_or_an_admin_kicks_and_a_kick_is_once(engine: EngineClient) -> None:
    gid = await three_in_play(engine)
    error = await refused(engine, engine.kick(gid, 3, 2))
    assert error.error == "not_the_host"
    error = await refused(engine, engine.kick(gid, 1, 99))
    assert error.error == "not_a_player"
    first = await engine.kick(gid, 3, 2, admin=True)
    again = await engine.kick(gid, 1, 2)
    assert again.version == first.version  # nothing written twice
    lefts = [e.event for e in (await engine.events(gid)).events if e.event["type"] == "player_left"]
    assert lefts == [{"type": "player_left", "seat": 1, "user_id": 2, "reason": "kicked", "by": 3}]


async def test_a_player_kicked_from_the_lobby_cannot_join_again(engine: EngineClient) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    after = await engine.kick(game.game_id, 1, 2)
    assert [s.user_id for s in after.seats] == [1]
    error = await refused(engine, engine.join(game.game_id, 2, "Bo"))
    assert (error.error, error.reason) == ("seat_removed", "kicked")
    assert [s.user_id for s in (await engine.game(game.game_id)).seats] == [1]


async def test_leaving_the_chat_holds_a_player_out_until_they_are_back(
    engine: EngineClient,
) -> None:
    """Leaving the group counts at once, whichever front the player moves from next; back in
    the group, "I'm back" (or a move) takes the seat back from the stand-in."""
    gid = await three_in_play(engine)
    gone = await engine.left_group(gid, 1)
    assert gone.seats[0].left and [(r.user_id, r.reason, r.by) for r in gone.removed] == [
        (1, "left_group", None)
    ]
    assert gone.host == 2  # the host's role passed on, as when leaving
    # Telegram tells of one departure twice: the second changes nothing
    assert (await engine.left_group(gid, 1)).version == gone.version
    # a spectator leaving the chat is not the engine's to hold: nothing is written
    assert (await engine.left_group(gid, 77)).version == gone.version
    move = engine.act(gid, 1, "p.R5", version=gone.version, action_id="x1")
    error = await refused(engine, move)
    assert (error.error, error.reason) == ("seat_removed", "left_group")
    # back in the chat: not yet at the table (the stand-in keeps the seat) until "I'm back"
    back_in = await engine.rejoined_group(gid, 1)
    assert back_in.removed == [] and back_in.seats[0].left
    back = await engine.back(gid, 1)
    assert not back.seats[0].left and not back.seats[0].away


async def test_a_kick_outlasts_coming_back_to_the_chat(engine: EngineClient) -> None:
    gid = await three_in_play(engine)
    await engine.left_group(gid, 2)
    kicked = await engine.kick(gid, 1, 2)
    assert [(r.user_id, r.reason) for r in kicked.removed] == [(2, "kicked")]
    still = await engine.rejoined_group(gid, 2)
    assert still.version == kicked.version and still.removed == kicked.removed
    error = await refused(engine, engine.back(gid, 2))
    assert error.reason == "kicked"
