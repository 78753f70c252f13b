"""Actions, views, events and deadlines over the API, from explicit set-ups (RULES.md §1).

Covers: the expected-version check (409), the rules' refusals (422 with the engine's
reason), repeated action ids (the first result, applied once), the views as the only place
a hand appears, events in the Redis stream in the same step as the state, and the
deadline handshake with the worker (README.md "Timers", RULES.md §7 and §2 "UNO").
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pydantic
import pytest
import redis

from harness.services import ENGINE_TOKEN
from services.config import Settings
from services.engine.app import create_app
from services.engine.client import (
    BadRequest,
    Conflict,
    CreateGame,
    EngineClient,
    Forbidden,
    IllegalAction,
    NotFound,
    StaleVersion,
)
from services.engine.wire.schemas import GameInfo, SeatSpec
from tests.helpers.engine_service import (
    DRAW_PILE,
    card_count,
    deadlines,
    deal,
    humans,
    load_record,
    stream_entries,
)

CHAT = -100_777


async def table(
    engine: EngineClient, hands: list[str], *, seats: list[SeatSpec] | None = None, **setup: Any
) -> GameInfo:
    return await deal(engine, hands, chat_id=CHAT, seats=seats, **setup)


def redis_now(client: redis.Redis) -> float:
    seconds, micros = client.time()  # type: ignore[misc]
    return float(seconds) + micros / 1e6


async def test_an_action_returns_the_new_version_and_its_events(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3", "Y1 Y2 Y3"])
    result = await engine.act(game.game_id, 101, "p.R5", version=1, action_id="a1")
    assert result.version == 2 and result.seat == 0 and not result.duplicate
    assert [e["type"] for e in result.events] == ["played", "turn"]
    mine = await engine.view(game.game_id, 101)
    assert mine.game.version == 2 and mine.view is not None and mine.view.hand == ["R6", "G7"]
    record = load_record(raw_redis, game.game_id)
    assert record.version == 2 and record.state is not None and record.state.version == 2
    assert card_count(record) == 3 + 3 + 3 + 1 + len(DRAW_PILE.split())
    entries = [(i, v, e["type"]) for i, v, e in stream_entries(raw_redis, game.game_id)]
    assert ("2-0", 2, "played") in entries and ("2-1", 2, "turn") in entries


async def test_an_actions_answer_carries_no_hand_not_even_the_actors_or_the_next_players(
    engine: EngineClient, http: httpx.AsyncClient
) -> None:
    """README.md "The API": every front renders hands from the views (the event log's
    render), so the answer to a move serialises none; the cards the actor drew reach them
    in their own private event."""
    game = await table(engine, ["R5 R6 W", "R1 B2 B3", "Y1 Y2 Y3"])
    body = {"user_id": 101, "action": "p.R5", "version": 1, "action_id": "a1"}
    played = await http.post(f"/v1/games/{game.game_id}/actions", json=body)
    assert played.status_code == 200
    assert set(played.json()) == {"game_id", "version", "seat", "duplicate", "events"}
    # Card codes are looked for as JSON strings: a random game id may hold the same two
    # letters ("…vB4v9").
    held = ("R6", "W", "R1", "B2", "B3", "Y1", "Y2", "Y3")
    assert not [c for c in held if f'"{c}"' in played.text]
    body = {"user_id": 102, "action": "d", "version": 2, "action_id": "b1"}
    drew = (await http.post(f"/v1/games/{game.game_id}/actions", json=body)).json()
    assert {"type": "drew_cards", "player": 1, "cards": ["G1"], "to": 1} in drew["events"]
    assert set(drew) == {"game_id", "version", "seat", "duplicate", "events"}


async def test_a_stale_version_is_409_with_the_current_version_and_changes_nothing(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5 R6 G7", "R1 B2 B3", "Y1 Y2 Y3"])
    await engine.act(game.game_id, 101, "p.R5", version=1, action_id="a1")
    before = raw_redis.get(f"uno:game:{game.game_id}")
    with pytest.raises(StaleVersion) as exc:
        await engine.act(game.game_id, 102, "p.R1", version=1, action_id="b1")
    assert exc.value.current_version == 2
    assert raw_redis.get(f"uno:game:{game.game_id}") == before


async def test_an_illegal_action_is_422_with_the_engines_reason(engine: EngineClient) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3", "Y1 Y2 Y3"])
    cases = [
        (102, "p.B1", "not_your_turn"),
        (101, "p.G7", "does_not_match"),
        (101, "p.Y9", "card_not_in_hand"),
        (101, "ch", "wrong_decision"),
    ]
    for user, code, reason in cases:
        with pytest.raises(IllegalAction) as exc:
            await engine.act(game.game_id, user, code, version=1, action_id=f"{user}{code}")
        assert exc.value.reason == reason, code
    assert (await engine.game(game.game_id)).version == 1


async def test_a_forged_player_or_a_system_action_is_refused(engine: EngineClient) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    with pytest.raises(Forbidden):
        await engine.act(game.game_id, 999, "p.R5", version=1, action_id="x")
    with pytest.raises(IllegalAction) as exc:
        await engine.act(game.game_id, 101, "close", version=1, action_id="y")
    assert exc.value.reason == "system_only"
    with pytest.raises(NotFound):
        await engine.act("nosuchgame", 101, "d", version=1, action_id="z")


async def test_a_repeated_action_id_returns_the_first_result_applied_once(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    first = await engine.act(game.game_id, 101, "d", version=1, action_id="tap-1")
    again = await engine.act(game.game_id, 101, "d", version=1, action_id="tap-1")
    assert again.duplicate and again.version == first.version == 2
    assert again.events == first.events
    record = load_record(raw_redis, game.game_id)
    assert record.version == 2 and len(record.state.players[0].hand) == 4  # type: ignore[union-attr]


async def test_the_same_action_id_sent_twice_at_once_is_applied_once(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    results = await asyncio.gather(
        *(engine.act(game.game_id, 101, "d", version=1, action_id="same") for _ in range(5)),
        return_exceptions=True,
    )
    assert all(not isinstance(r, BaseException) for r in results), results
    assert {r.version for r in results} == {2}  # type: ignore[union-attr]
    assert sum(not r.duplicate for r in results) == 1  # type: ignore[union-attr]
    assert load_record(raw_redis, game.game_id).version == 2


async def test_views_show_a_hand_only_to_its_player(engine: EngineClient) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B4"])
    mine = await engine.view(game.game_id, 101)
    assert mine.seat == 0 and mine.view is not None
    assert mine.view.hand == ["R5", "R6", "G7"] and "p.R5" in mine.view.legal
    assert '"B4"' not in mine.model_dump_json()
    spectator = await engine.spectator_view(game.game_id)
    assert spectator.seat is None and spectator.view is not None
    assert spectator.view.hand == [] and spectator.view.legal == []
    text = spectator.model_dump_json()
    assert '"R6"' not in text and '"B4"' not in text
    assert [s.cards for s in spectator.view.seats] == [3, 3]
    info = await engine.game(game.game_id)
    assert '"R6"' not in info.model_dump_json()


async def test_private_events_reach_only_their_player(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["B5 B6 G7", "B1 B2 B4"])
    result = await engine.act(game.game_id, 101, "d", version=1, action_id="d1")
    assert {"type": "drew_cards", "player": 0, "cards": ["G1"], "to": 0} in result.events
    stream = [e for _, _, e in stream_entries(raw_redis, game.game_id)]
    assert {"type": "drew_cards", "player": 0, "cards": ["G1"], "to": 0} in stream
    theirs = await engine.events(game.game_id, user_id=102)
    assert all(e.event.get("to") in (None, 1) for e in theirs.events)
    assert not any(e.event["type"] == "drew_cards" and e.event["to"] == 0 for e in theirs.events)
    public = await engine.events(game.game_id)
    assert all("to" not in e.event for e in public.events)
    later = await engine.events(game.game_id, after=public.last_id)
    assert later.events == []


async def test_each_write_moves_the_turn_deadline_and_its_reminder_to_the_new_version(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """README "Timers": ``{gid}|turn|{version}``, due after the game's turn time, and
    ``{gid}|nudge|{version}``, when the human owing the decision is reminded of it (15 s
    into a 60 s turn); the write that replaces the version drops both."""
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    gid = game.game_id
    assert set(deadlines(raw_redis)) == {f"{gid}|turn|1", f"{gid}|nudge|1"}
    now = redis_now(raw_redis)
    await engine.act(gid, 101, "p.R5", version=1, action_id="a")
    board = deadlines(raw_redis)
    assert set(board) == {f"{gid}|turn|2", f"{gid}|nudge|2"}
    assert now + 55 < board[f"{gid}|turn|2"] < now + 65
    assert now + 10 < board[f"{gid}|nudge|2"] < now + 20


async def test_s7_a_uno_call_or_a_catch_keeps_the_turns_deadline(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §7: a UNO call and a catch settle no decision, so the decision owed keeps
    the due time it had: pressing UNO! buys no fresh turn time."""
    game = await table(engine, ["R5 R6", "R1 B2", "G1 G2 G3"], uno_window_seconds=30)
    gid = game.game_id
    due = deadlines(raw_redis)[f"{gid}|turn|1"]
    await engine.act(gid, 101, "u", version=1, action_id="call")
    assert deadlines(raw_redis)[f"{gid}|turn|2"] == due
    await engine.act(gid, 101, "p.R5", version=2, action_id="r5")
    uncalled = await engine.act(gid, 102, "p.R1", version=3, action_id="r1")
    assert {"type": "uno_window_opened", "player": 1} in uncalled.events
    due = deadlines(raw_redis)[f"{gid}|turn|4"]
    caught = await engine.act(gid, 101, "x.1", version=4, action_id="catch")
    assert {"type": "caught", "player": 0, "target": 1} in caught.events
    assert deadlines(raw_redis)[f"{gid}|turn|5"] == due


async def test_s7_the_uno_windows_close_keeps_the_turns_deadline(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §2 "The catch window" and §7: the window's time running out changes no
    decision owed; the next player's turn keeps its due time."""
    game = await table(engine, ["R5 R6", "B1 B2 B3"], uno_window_seconds=30)
    gid = game.game_id
    await engine.act(gid, 101, "p.R5", version=1, action_id="r5")
    due = deadlines(raw_redis)[f"{gid}|turn|2"]
    await engine.close_uno_window(gid, opened_version=2, action_id="w")
    assert deadlines(raw_redis)[f"{gid}|turn|3"] == due


async def test_an_ai_seat_is_due_after_the_short_pause(
    engine: EngineClient, raw_redis: redis.Redis, settings: Settings
) -> None:
    seats = [SeatSpec(name="Ana", user_id=101), SeatSpec(name="Bot", ai="strong")]
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"], seats=seats)
    now = redis_now(raw_redis)
    await engine.act(game.game_id, 101, "p.R5", version=1, action_id="a")
    board = deadlines(raw_redis)
    assert now < board[f"{game.game_id}|turn|2"] < now + settings.away_pause_seconds + 5
    assert f"{game.game_id}|nudge|2" not in board  # an AI is reminded of nothing


async def test_stand_in_turn_gives_the_owing_seats_view_or_409_when_stale(
    engine: EngineClient,
) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    turn = await engine.stand_in_turn(game.game_id, 1)
    assert turn.seat == 0 and turn.view.hand == ["R5", "R6", "G7"] and turn.view.viewer == 0
    with pytest.raises(Conflict):
        await engine.stand_in_turn(game.game_id, 2)


async def test_two_missed_deadlines_mark_a_player_away_and_their_own_action_clears_it(
    engine: EngineClient, raw_redis: redis.Redis, settings: Settings
) -> None:
    """RULES.md §7 "Timing in a chat": misses, away, and coming back."""
    game = await table(engine, ["R5 R6 G7 G8", "R1 R2 B3 B4"])
    gid = game.game_id
    first = await engine.stand_in_act(gid, version=1, action="p.R5", action_id="t1")
    assert first.seat == 0
    assert {"type": "stand_in", "seat": 0, "timed_out": True} in first.events
    assert (await engine.game(gid)).seats[0].missed == 1
    await engine.act(gid, 102, "p.R1", version=2, action_id="b1")
    second = await engine.stand_in_act(gid, version=3, action="p.R6", action_id="t2")
    assert {"type": "player_away", "seat": 0} in second.events
    info = await engine.game(gid)
    assert info.seats[0].away and info.seats[0].missed == 2
    # Away: the seat's next decision is due after the short pause, not the turn time.
    now = redis_now(raw_redis)
    await engine.act(gid, 102, "p.R2", version=4, action_id="b2")
    assert deadlines(raw_redis)[f"{gid}|turn|5"] < now + settings.away_pause_seconds + 5
    back = await engine.act(gid, 101, "d", version=5, action_id="own")
    assert {"type": "player_back", "seat": 0} in back.events
    info = await engine.game(gid)
    assert not info.seats[0].away and info.seats[0].missed == 0


async def test_s7_the_stand_in_finishes_the_turn_it_took_as_one_miss(
    engine: EngineClient, raw_redis: redis.Redis, settings: Settings
) -> None:
    """RULES.md §7 "Timing in a chat": one missed turn is one missed deadline. The stand-in
    draws for the player with nothing to play, then decides the card drawn itself after the
    short pause (not a second turn time handed back to the absent player), and the turn
    passes with the player one miss down, not away."""
    game = await table(engine, ["B5 B6 B7", "G1 G2 G3"], draw_pile="R9 " + DRAW_PILE)
    gid = game.game_id
    drew = await engine.stand_in_act(gid, version=1, action="d", action_id="t1")
    assert {"type": "stand_in", "seat": 0, "timed_out": True} in drew.events
    assert (await engine.stand_in_turn(gid, 2)).seat == 0  # the drawn R9 is still owed
    assert (await engine.game(gid)).seats[0].finishing_turn
    now = redis_now(raw_redis)
    assert deadlines(raw_redis)[f"{gid}|turn|2"] < now + settings.away_pause_seconds + 1
    kept = await engine.stand_in_act(gid, version=2, action="k", action_id="t2")
    assert {"type": "stand_in", "seat": 0, "timed_out": False} in kept.events
    assert not any(e["type"] == "player_away" for e in kept.events)
    info = await engine.game(gid)
    assert info.seats[0].missed == 1 and not info.seats[0].away
    assert not info.seats[0].finishing_turn
    assert (await engine.stand_in_turn(gid, 3)).seat == 1
    # The next player's turn gets the whole turn time again.
    assert deadlines(raw_redis)[f"{gid}|turn|3"] > now + 50


async def test_s7_a_new_turn_of_the_same_player_is_a_new_deadline(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §7: the stand-in finishes a turn, not the next one: after its Skip with two
    players (§2 "Actions": you play again) the player has the whole turn time again."""
    game = await table(engine, ["RS B6 B7", "G1 G2 G3"])
    gid = game.game_id
    now = redis_now(raw_redis)
    await engine.stand_in_act(gid, version=1, action="p.RS", action_id="t1")
    assert (await engine.stand_in_turn(gid, 2)).seat == 0
    assert deadlines(raw_redis)[f"{gid}|turn|2"] > now + 50


async def test_an_ai_seats_move_is_not_a_miss(engine: EngineClient) -> None:
    seats = [SeatSpec(name="Bot", ai="random"), SeatSpec(name="Ana", user_id=101)]
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"], seats=seats)
    result = await engine.stand_in_act(game.game_id, version=1, action="p.R5", action_id="t")
    assert result.events[0]["type"] == "played"
    assert (await engine.game(game.game_id)).seats[0].missed == 0


async def test_im_back_clears_away_and_restarts_the_turn_time(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5 R6 G7 G8", "R1 R2 B3 B4"])
    gid = game.game_id
    await engine.stand_in_act(gid, version=1, action="p.R5", action_id="t1")
    await engine.act(gid, 102, "p.R1", version=2, action_id="b1")
    await engine.stand_in_act(gid, version=3, action="p.R6", action_id="t2")
    await engine.act(gid, 102, "p.R2", version=4, action_id="b2")
    now = redis_now(raw_redis)
    back = await engine.back(gid, 101)
    assert back.version == 6 and not back.seats[0].away
    assert deadlines(raw_redis)[f"{gid}|turn|6"] > now + 50


async def test_a_repeated_stand_in_move_is_applied_once(engine: EngineClient) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    first = await engine.stand_in_act(game.game_id, version=1, action="p.R5", action_id="t1")
    again = await engine.stand_in_act(game.game_id, version=1, action="d", action_id="t1")
    assert again.duplicate and again.version == first.version
    with pytest.raises(StaleVersion):
        await engine.stand_in_act(game.game_id, version=1, action="d", action_id="t1-other")
    assert (await engine.game(game.game_id)).seats[0].missed == 1


async def test_the_uno_window_gets_a_deadline_and_closes_only_at_its_version(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §2 "UNO": the window closes when its time runs out."""
    game = await table(engine, ["R5 R6", "B1 B2 B3"])
    gid = game.game_id
    now = redis_now(raw_redis)
    played = await engine.act(gid, 101, "p.R5", version=1, action_id="a")
    assert {"type": "uno_window_opened", "player": 0} in played.events
    board = deadlines(raw_redis)
    assert now + 5 < board[f"{gid}|uno|2"] < now + 11
    assert (await engine.game(gid)).uno_opened == 2
    with pytest.raises(Conflict) as exc:
        await engine.close_uno_window(gid, opened_version=1, action_id="w1")
    assert exc.value.error == "window_not_open"
    closed = await engine.close_uno_window(gid, opened_version=2, action_id="w2")
    assert closed.version == 3 and closed.seat is None
    assert [e["type"] for e in closed.events] == ["uno_window_closed"]
    assert f"{gid}|uno|2" not in deadlines(raw_redis)
    again = await engine.close_uno_window(gid, opened_version=2, action_id="w2")
    assert again.duplicate and again.version == 3
    with pytest.raises(Conflict):
        await engine.close_uno_window(gid, opened_version=2, action_id="w3")
    assert (await engine.game(gid)).uno_opened is None


async def test_a_games_own_uno_window_times_its_deadline(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §2 "UNO": the window closes "after the chat's UNO-window time": a chat's
    setting is the game's, not the service's 8 s."""
    game = await deal(engine, ["R5 R6", "B1 B2 B3"], chat_id=CHAT, uno_window_seconds=30)
    gid = game.game_id
    assert game.uno_window_seconds == 30
    now = redis_now(raw_redis)
    await engine.act(gid, 101, "p.R5", version=1, action_id="a")
    assert now + 25 < deadlines(raw_redis)[f"{gid}|uno|2"] < now + 35
    assert load_record(raw_redis, gid).uno_window_seconds == 30


async def test_a_lobby_game_keeps_the_uno_window_it_was_created_with(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """RULES.md §2 "UNO": the chat's UNO-window time, chosen at /new, lasts the game."""
    made = await engine.create_game(CHAT - 1, 101, "P0", uno_window_seconds=4)
    assert made.uno_window_seconds == 4
    await engine.join(made.game_id, 102, "P1")
    started = await engine.start(made.game_id, 101)
    assert started.uno_window_seconds == 4
    assert load_record(raw_redis, made.game_id).uno_window_seconds == 4
    plain = await engine.create_game(CHAT - 2, 101, "P0")
    assert plain.uno_window_seconds is None  # the service's own, whenever a window opens
    with pytest.raises(pydantic.ValidationError):
        await engine.create_game(CHAT - 3, 101, "P0", uno_window_seconds=1)
    # Past the client's own check, the service refuses it too, and creates nothing.
    forged = CreateGame.model_construct(
        chat_id=CHAT - 3, topic_id=0, user_id=101, name="P0", uno_window_seconds=61
    )
    with pytest.raises(BadRequest):
        await engine._call(GameInfo, "POST", "/v1/games", body=forged)
    assert await engine.chat_game(CHAT - 3) is None


async def test_a_catch_closes_the_window_and_drops_its_deadline(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5 R6", "B1 B2 B3"])
    gid = game.game_id
    await engine.act(gid, 101, "p.R5", version=1, action_id="a")
    caught = await engine.act(gid, 102, "x.0", version=2, action_id="c")
    assert any(e["type"] == "caught" for e in caught.events)
    assert f"{gid}|uno|2" not in deadlines(raw_redis)
    with pytest.raises(Conflict):
        await engine.close_uno_window(gid, opened_version=2, action_id="late")
    record = load_record(raw_redis, gid)
    assert len(record.state.players[0].hand) == 3  # type: ignore[union-attr]


async def test_game_over_frees_the_chat_and_leaves_no_turn_deadline(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5", "B1 B2 B3"], options={"target_score": 1})
    gid = game.game_id
    result = await engine.act(gid, 101, "p.R5", version=1, action_id="win")
    assert any(e["type"] == "game_over" for e in result.events)
    info = await engine.game(gid)
    assert info.status == "over" and info.winner == 0
    assert await engine.chat_game(CHAT) is None
    assert not any(m.startswith(gid) for m in deadlines(raw_redis))
    with pytest.raises(Conflict) as exc:
        await engine.act(gid, 102, "d", version=2, action_id="late")
    assert exc.value.error == "game_over"


async def test_a_new_round_starts_at_its_round_started_event(engine: EngineClient) -> None:
    """RULES.md §2 "Scoring": a round won short of the target deals the next round in the
    same write. Its events keep the rounds apart: the old round's moves and its
    ``round_ended`` come first; ``round_started`` (with the new round's number) opens the
    new round, whose deal, first card and turn follow; the views then show that round. A
    table can start the new round's log empty from that event."""
    game = await table(engine, ["R5", "B1 B2 B3"])
    won = await engine.act(game.game_id, 101, "p.R5", version=1, action_id="out")
    kinds = [e["type"] for e in won.events]
    ended, started = kinds.index("round_ended"), kinds.index("round_started")
    assert kinds.index("played") < ended < started < kinds.index("first_card")
    assert won.events[started]["round"] == 2
    assert kinds[started:].count("played") == 0  # nothing of the old round after it
    seen = await engine.spectator_view(game.game_id)
    assert seen.view is not None and seen.view.round == 2 and seen.view.pending is not None


async def test_a_won_game_leaves_nothing_live_in_its_views(engine: EngineClient) -> None:
    """An ended game leaves nothing that looks live: once it is won, no view of it owes a
    decision or offers a move, and it names the winner."""
    game = await table(engine, ["R5", "B1 B2 B3"], options={"target_score": 1})
    gid = game.game_id
    await engine.act(gid, 101, "p.R5", version=1, action_id="win")
    for seen in (await engine.view(gid, 101), await engine.view(gid, 102)):
        assert seen.game.status == "over" and seen.view is not None
        assert seen.view.pending is None and seen.view.legal == [] and seen.view.winner == 0
        assert seen.view.uno_window is None


async def test_an_ended_game_owes_nothing_and_keeps_no_timer(
    engine: EngineClient, raw_redis: redis.Redis
) -> None:
    """`/end` in the middle of a turn, with a UNO window open: no view of the ended game
    owes a decision, offers a move or shows the window, and its turn and UNO timers are
    gone in the same write (the worker has nothing left to fire)."""
    game = await table(engine, ["R5 R6", "B1 B2 B3"], uno_window_seconds=30)
    gid = game.game_id
    await engine.act(gid, 101, "p.R5", version=1, action_id="uncalled")
    assert {f"{gid}|turn|2", f"{gid}|uno|2"} <= set(deadlines(raw_redis))
    ended = await engine.end(gid, game.host)
    assert ended.status == "ended" and ended.uno_opened is None
    assert not any(m.startswith(f"{gid}|") for m in deadlines(raw_redis))
    for seen in (
        await engine.view(gid, 101),
        await engine.view(gid, 102),
        await engine.spectator_view(gid),
    ):
        assert seen.game.status == "ended" and seen.view is not None
        assert seen.view.pending is None and seen.view.legal == []
        assert seen.view.uno_window is None and seen.view.winner is None
    with pytest.raises(Conflict) as exc:
        await engine.act(gid, 102, "d", version=ended.version, action_id="late")
    assert exc.value.error == "game_ended"


async def test_the_set_up_endpoint_checks_its_input(engine: EngineClient) -> None:
    with pytest.raises(Exception) as exc:
        await engine.create_test_game(CHAT, humans(2), {"hands": ["R5 ZZ", "B1"], "discard": "R3"})
    assert getattr(exc.value, "status", None) == 422
    with pytest.raises(Exception) as exc:
        await engine.create_test_game(CHAT, humans(3), {"hands": ["R5", "B1"], "discard": "R3"})
    assert getattr(exc.value, "status", None) == 422


async def test_the_set_up_endpoint_is_absent_unless_enabled(settings: Settings) -> None:
    import httpx

    from services.engine.app import create_app

    app = create_app(settings.model_copy(update={"enable_test_endpoints": False}))
    async with EngineClient(
        "http://engine",
        settings.engine_token.get_secret_value(),
        transport=httpx.ASGITransport(app=app),
    ) as engine:
        with pytest.raises(NotFound):
            await engine.create_test_game(CHAT, humans(2), {"hands": ["R5", "B1"], "discard": "R3"})
    assert "/v1/test/games" not in app.openapi()["paths"]


async def test_a_reported_move_of_an_unfrozen_player_is_refused(engine: EngineClient) -> None:
    """RULES.md §6 (Minions' Dumb Fu): only a frozen player pays for moving."""
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    with pytest.raises(IllegalAction) as exc:
        await engine.frozen_moved(game.game_id, version=1, seat=1, action_id="fm")
    assert exc.value.reason == "not_frozen"
    with pytest.raises(StaleVersion):
        await engine.frozen_moved(game.game_id, version=5, seat=1, action_id="fm2")


async def test_a_process_that_last_saw_an_older_version_still_answers_409(
    settings: Settings,
) -> None:
    """Two service processes on one Redis: the one that served version 1 must not act on
    its memory of it once the other has moved the game on."""
    import httpx

    from services.engine.app import create_app

    token = settings.engine_token.get_secret_value()
    first, second = create_app(settings), create_app(settings)
    async with (
        EngineClient("http://a", token, transport=httpx.ASGITransport(app=first)) as a,
        EngineClient("http://b", token, transport=httpx.ASGITransport(app=second)) as b,
    ):
        game = await table(a, ["R5 R6 G7", "R1 B2 B3"])
        await a.view(game.game_id, 101)  # process a has now seen version 1
        await b.act(game.game_id, 101, "p.R5", version=1, action_id="via-b")
        with pytest.raises(StaleVersion) as exc:
            await a.act(game.game_id, 101, "p.R6", version=1, action_id="via-a")
        assert exc.value.current_version == 2
        with pytest.raises(StaleVersion):  # stale comes before "not your turn"
            await a.act(game.game_id, 101, "p.G7", version=1, action_id="via-a-2")
        # The same action id through the other process: the first result, applied once.
        again = await a.act(game.game_id, 101, "p.R5", version=1, action_id="via-b")
        assert again.duplicate and again.version == 2


async def test_an_unreadable_record_is_a_clear_500_and_stays_as_it_was(
    settings: Settings, engine: EngineClient, raw_redis: redis.Redis
) -> None:
    game = await table(engine, ["R5 R6 G7", "B1 B2 B3"])
    key = f"uno:game:{game.game_id}"
    raw_redis.set(key, b"7|not a record")
    app = create_app(settings)
    auth = {"Authorization": f"Bearer {ENGINE_TOKEN}"}
    # Starlette re-raises a fault after answering it (for the server's log); the answer is
    # what the caller gets.
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://e", headers=auth) as http:
        body = {"user_id": 101, "action": "p.R5", "version": 7, "action_id": "c1"}
        for response in (
            await http.get(f"/v1/games/{game.game_id}/view", params={"user_id": 101}),  # hot path
            await http.post(f"/v1/games/{game.game_id}/actions", json=body),  # hot path
            await http.get(f"/v1/games/{game.game_id}/spectator"),  # through FastAPI
        ):
            assert response.status_code == 500
            assert response.json()["error"] == "corrupt_game"
    assert raw_redis.get(key) == b"7|not a record"
