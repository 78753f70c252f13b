"""Several people's views in one request (``GET /v1/games/{id}/views``, the Mini App's
fan-out): each seated person their own hand, everyone else the spectator's table, all at
one version."""

from __future__ import annotations

import httpx
import pytest

from services.engine.client import EngineClient, NotFound
from services.engine.wire.schemas import SeatSpec

CHAT = -100_991
ANN, BOB, SAM = 201, 202, 203


async def test_each_person_gets_their_own_seat_or_the_spectators_view(
    engine: EngineClient,
) -> None:
    seats = [SeatSpec(name="Ann", user_id=ANN), SeatSpec(name="Bob", user_id=BOB)]
    game = await engine.create_test_game(
        CHAT, seats, {"hands": ["R5 R6", "B1 B2 B3"], "discard": "R3", "current": 0}
    )
    answer = await engine.views_json(game.game_id, [BOB, SAM, ANN, SAM])
    assert answer["game"]["version"] == game.version
    views = {v["user_id"]: v for v in answer["views"]}
    assert list(views) == [BOB, SAM, ANN]  # each person once, in the order asked
    assert views[ANN]["seat"] == 0 and views[ANN]["view"]["hand"] == ["R5", "R6"]
    assert views[BOB]["seat"] == 1 and views[BOB]["view"]["hand"] == ["B1", "B2", "B3"]
    assert views[SAM]["seat"] is None and views[SAM]["view"]["hand"] == []
    assert views[SAM]["view"]["legal"] == []
    # the same views as one person's own request gives
    single = await engine.view(game.game_id, ANN)
    assert single.view is not None and views[ANN]["view"]["legal"] == single.view.legal


async def test_the_spectators_view_comes_with_the_hands_when_asked_for(
    engine: EngineClient,
) -> None:
    """What the bot reads per move: the group's table and every private hand at one
    version, one request."""
    seats = [SeatSpec(name="Ann", user_id=ANN), SeatSpec(name="Bob", user_id=BOB)]
    game = await engine.create_test_game(
        CHAT, seats, {"hands": ["R5 R6", "B1 B2 B3"], "discard": "R3", "current": 0}
    )
    both = await engine.views(game.game_id, [ANN, BOB], spectator=True)
    table = await engine.spectator_view(game.game_id)
    assert both.game.version == table.game.version == game.version
    assert both.spectator == table.view and both.spectator is not None
    assert both.spectator.hand == []
    assert [(v.user_id, v.seat) for v in both.views] == [(ANN, 0), (BOB, 1)]
    assert both.views[1].view is not None and both.views[1].view.hand == ["B1", "B2", "B3"]
    assert (await engine.views(game.game_id, [ANN])).spectator is None  # not asked for


async def test_an_unknown_game_or_a_bad_list_is_refused(
    engine: EngineClient, http: httpx.AsyncClient
) -> None:
    with pytest.raises(NotFound):
        await engine.views_json("nosuchgame00", [ANN])
    seats = [SeatSpec(name="Ann", user_id=ANN), SeatSpec(name="Bob", user_id=BOB)]
    game = await engine.create_test_game(CHAT, seats, {"hands": ["R5", "B1"], "discard": "R3"})
    for params in ([], [("user_id", "x")], [("user_id", "0")], [("user_id", 1)] * 65):
        answer = await http.get(f"/v1/games/{game.game_id}/views", params=params)
        assert answer.status_code == 400, params


async def test_the_views_say_how_long_the_decision_owed_has_left(engine: EngineClient) -> None:
    """README.md "Timers": the turn's deadline, as the Mini App counts down to it; none
    once the game has ended (RULES.md §7 "Timing in a chat")."""
    seats = [SeatSpec(name="Ann", user_id=ANN), SeatSpec(name="Bob", user_id=BOB)]
    game = await engine.create_test_game(
        CHAT,
        seats,
        {"hands": ["R5 R6", "B1 B2"], "discard": "R3", "current": 0},
        turn_seconds=90,
    )
    answer = await engine.views_json(game.game_id, [ANN])
    assert 0 < answer["turn_left"] <= 90
    # a UNO call settles no decision: the turn keeps the time it had (never more)
    called = await engine.act(game.game_id, ANN, "u", version=game.version, action_id="t:u")
    after = await engine.views_json(game.game_id, [ANN])
    assert after["game"]["version"] == called.version
    assert 0 < after["turn_left"] <= answer["turn_left"]
    await engine.end(game.game_id, ANN)
    assert (await engine.views_json(game.game_id, [ANN]))["turn_left"] is None
