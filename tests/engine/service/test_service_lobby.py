"""The lobby over the API: create, join, leave, AI seats, options, start, end; one live
game per chat and topic; the token; clear 4xx answers for bad requests."""

from __future__ import annotations

import httpx
import pytest
import redis

from harness.services import ENGINE_TOKEN
from services.engine.client import (
    BadRequest,
    Conflict,
    EngineClient,
    Forbidden,
    IllegalAction,
    NotFound,
    Unauthorized,
)
from services.engine.rules import Options
from tests.helpers.engine_service import (
    card_count,
    deadlines,
    deck_size,
    load_record,
    stream_entries,
)

CHAT = -100_555


async def test_create_join_add_ai_and_start_deals_every_seat(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    assert game.status == "lobby" and game.host == 1 and game.version == 1
    await engine.join(game.game_id, 2, "Bo")
    await engine.add_ai(game.game_id, 1, level="random")
    started = await engine.start(game.game_id, 1)
    assert started.status == "playing"
    assert [s.user_id for s in started.seats] == [1, 2, None]
    assert started.seats[2].ai == "random"
    record = load_record(raw_redis, game.game_id)
    assert record.state is not None and record.state.version == record.version
    # Seven each (a +2 turned up first gives the first player two more: RULES.md §2).
    assert all(len(p.hand) >= 7 for p in record.state.players)
    assert card_count(record) == deck_size(record)
    types = [e["type"] for _, _, e in stream_entries(raw_redis, game.game_id)]
    assert types[:4] == ["game_created", "player_joined", "ai_added", "game_started"]
    assert "round_started" in types
    # The first decision has its deadline, at the version the game is at.
    assert f"{game.game_id}|turn|{started.version}" in deadlines(raw_redis)


async def test_one_live_game_per_chat_and_topic(engine: EngineClient) -> None:
    first = await engine.create_game(CHAT, 1, "Ana")
    with pytest.raises(Conflict) as exc:
        await engine.create_game(CHAT, 2, "Bo")
    assert exc.value.error == "game_exists" and exc.value.game_id == first.game_id
    other_topic = await engine.create_game(CHAT, 2, "Bo", topic_id=7)
    assert other_topic.game_id != first.game_id
    assert (await engine.chat_game(CHAT)).game_id == first.game_id  # type: ignore[union-attr]
    # Ending the game frees the chat.
    await engine.end(first.game_id, 1)
    assert await engine.chat_game(CHAT) is None
    again = await engine.create_game(CHAT, 3, "Cy")
    assert again.game_id != first.game_id


async def test_joining_twice_keeps_one_seat_and_full_games_refuse(engine: EngineClient) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    again = await engine.join(game.game_id, 2, "Bo")
    assert [s.user_id for s in again.seats] == [1, 2]
    for user in range(3, 11):
        await engine.join(game.game_id, user, f"U{user}")
    with pytest.raises(Conflict) as exc:
        await engine.join(game.game_id, 11, "Eleven")
    assert exc.value.error == "game_full"


async def test_only_the_host_or_an_admin_starts_sets_options_and_ends(
    engine: EngineClient,
) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    with pytest.raises(Forbidden):
        await engine.start(game.game_id, 2)
    with pytest.raises(Forbidden):
        await engine.set_options(game.game_id, 2, turn_seconds=30)
    changed = await engine.set_options(
        game.game_id, 2, admin=True, turn_seconds=30, rules=Options(progressive_draw=True)
    )
    assert changed.turn_seconds == 30 and changed.rules == {"progressive_draw": True}
    with pytest.raises(Forbidden):
        await engine.end(game.game_id, 2)
    ended = await engine.end(game.game_id, 2, admin=True)
    assert ended.status == "ended"
    with pytest.raises(Conflict) as exc:
        await engine.start(game.game_id, 1)
    assert exc.value.error == "game_ended"


async def test_unknown_variant_and_too_few_players_are_refused_clearly(
    engine: EngineClient,
) -> None:
    with pytest.raises(IllegalAction) as exc:
        await engine.create_game(CHAT, 1, "Ana", variant="no-such-variant")
    assert exc.value.error == "unknown_variant"
    game = await engine.create_game(CHAT, 1, "Ana")
    with pytest.raises(IllegalAction) as exc:
        await engine.start(game.game_id, 1)
    assert exc.value.error == "cannot_start"


async def test_leaving_the_lobby_passes_the_host_and_the_last_leaver_ends_it(
    engine: EngineClient,
) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    after = await engine.leave(game.game_id, 1)
    assert [s.user_id for s in after.seats] == [2] and after.host == 2
    gone = await engine.leave(game.game_id, 2)
    assert gone.status == "ended"
    assert await engine.chat_game(CHAT) is None


async def test_leaving_a_game_in_play_hands_the_seat_to_the_stand_in(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §7: the stand-in plays a seat whose player is not there."""
    game = await engine.create_game(CHAT, 1, "Ana")
    await engine.join(game.game_id, 2, "Bo")
    await engine.join(game.game_id, 3, "Cy")
    await engine.start(game.game_id, 1)
    after = await engine.leave(game.game_id, 2)
    assert after.status == "playing"
    assert after.seats[1].left and after.seats[1].away
    back = await engine.back(game.game_id, 2)
    assert not back.seats[1].left and not back.seats[1].away


async def test_unknown_game_is_404_and_forged_player_403(engine: EngineClient) -> None:
    with pytest.raises(NotFound):
        await engine.game("nosuchgame")
    with pytest.raises(NotFound):
        await engine.join("nosuchgame", 1, "Ana")
    game = await engine.create_game(CHAT, 1, "Ana")
    with pytest.raises(Forbidden):
        await engine.view(game.game_id, 999)


async def test_bad_token_is_401_and_health_needs_none(settings: object) -> None:
    from services.engine.app import create_app

    app = create_app(settings)  # type: ignore[arg-type]
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://e") as http:
        assert (await http.get("/healthz")).status_code == 200
        assert (await http.get("/readyz")).status_code == 200
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic x"}):
            response = await http.get("/v1/games/abc", headers=headers)
            assert response.status_code == 401, headers
            assert response.json()["error"] == "unauthorized"
        assert (await http.get("/metrics")).status_code == 401
        ok = await http.get("/metrics", headers={"Authorization": f"Bearer {ENGINE_TOKEN}"})
        assert ok.status_code == 200 and b"uno_engine_requests_total" in ok.content


async def test_malformed_bodies_are_400_with_a_message_and_change_nothing(
    settings: object, raw_redis: redis.Redis
) -> None:
    from services.engine.app import create_app

    app = create_app(settings)  # type: ignore[arg-type]
    headers = {"Authorization": f"Bearer {ENGINE_TOKEN}"}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://e", headers=headers) as http:
        created = await http.post("/v1/games", json={"chat_id": 5, "user_id": 1, "name": "Ana"})
        game_id = created.json()["game_id"]
        before = raw_redis.get(f"uno:game:{game_id}")
        for body in (b"{", b"[]", b'{"user_id": "x"}', b'{"user_id": 1, "name": ""}', b"null"):
            response = await http.post(f"/v1/games/{game_id}/join", content=body)
            assert response.status_code == 400, body
            assert response.json()["error"] == "bad_request" and response.json()["message"]
        bad_path = await http.get("/v1/games/bad|id")
        assert bad_path.status_code == 400
        assert raw_redis.get(f"uno:game:{game_id}") == before


async def test_bad_request_surfaces_as_bad_request_in_the_client(engine: EngineClient) -> None:
    game = await engine.create_game(CHAT, 1, "Ana")
    with pytest.raises(BadRequest):
        await engine.events(game.game_id, after="not-an-id")
    with pytest.raises(Unauthorized):
        async with EngineClient(
            "http://engine", "wrong", transport=engine._http._transport
        ) as wrong:
            await wrong.game(game.game_id)
