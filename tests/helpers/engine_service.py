"""Helpers shared by the engine service tests: the engine as a real uvicorn process, games
dealt through the service, and readers of what it wrote to Redis."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import redis

from harness.services import EngineProcess, engine_process
from services.config import Settings
from services.engine.client import EngineClient, log_key, shard_of
from services.engine.game_record import GameRecord, GameStatus, Seat
from services.engine.rules import Options, get_variant, new_game
from services.engine.store import decode, game_key
from services.engine.wire.event_log import decode_entry
from services.engine.wire.schemas import GameInfo, SeatSpec


def playing_record(game_id: str = "g1", *, version: int = 1, chat_id: int = -5) -> GameRecord:
    """A two-player Classic game in play at ``version``, for writing through the store."""
    state, _ = new_game("classic", ["A", "B"], seed=3)
    return GameRecord(
        id=game_id,
        version=version,
        chat_id=chat_id,
        topic_id=0,
        host=1,
        status=GameStatus.PLAYING,
        variant="classic",
        turn_seconds=60,
        rules=Options(),
        seats=(Seat("A", user_id=1), Seat("B", user_id=2)),
        state=replace(state, version=version),
    )


def engine_server(redis_url: str, log_dir: Path) -> EngineProcess:
    """The engine as a uvicorn process on a free port, not started yet (``serve()``), ready
    once it reaches Redis (``/readyz``)."""
    return engine_process(
        redis_url,
        log_dir,
        ready_path="/readyz",
        options=("--no-access-log",),
        # A loaded machine can stretch a long test past the log's two-minute retention,
        # which would trim the very entries the test reads back.
        UNO_EVENT_LOG_SECONDS="3600",
    )


# -- helpers -----------------------------------------------------------------------------


def load_record(client: redis.Redis, game_id: str) -> GameRecord:
    raw = client.get(game_key(game_id))
    assert isinstance(raw, bytes), f"game {game_id} is missing"
    return decode(raw)


def card_count(record: GameRecord) -> int:
    state = record.state
    assert state is not None
    return (
        sum(len(p.hand) for p in state.players)
        + len(state.draw_pile)
        + len(state.discard)
        + len(state.set_aside)
    )


def deck_size(record: GameRecord) -> int:
    return len(get_variant(record.variant).deck)


def stream_entries(
    client: redis.Redis, game_id: str, shards: int | None = None
) -> list[tuple[str, int, dict[str, Any]]]:
    """Every event of the game in the event log, private ones too, as ``(event id, version,
    event)``: every shard, one entry per write, each decoded whole by the service's own
    ``decode_entry`` (a reader of the log gets the public ones alone:
    ``stream_entry_events``). The game's entries must all be in its own shard (of
    ``shards``, by default the settings' count)."""
    out = []
    home = log_key(shard_of(game_id, shards or Settings().event_shards)).encode()
    for key in sorted(client.scan_iter(match="uno:eventlog:*")):
        for _, fields in client.xrange(key):  # type: ignore[union-attr]
            gid, version, events = decode_entry(fields)
            if gid != game_id:
                continue
            assert key == home and events  # one shard per game; an entry per write with events
            out += [(f"{version}-{i}", version, e) for i, e in enumerate(events)]
    return out


def deadlines(client: redis.Redis) -> dict[str, float]:
    return {m.decode(): s for m, s in client.zrange("uno:deadlines", 0, -1, withscores=True)}  # type: ignore[union-attr]


def humans(n: int, first_user: int = 101) -> list[SeatSpec]:
    return [SeatSpec(name=f"P{i}", user_id=first_user + i) for i in range(n)]


async def new_started_game(engine: EngineClient, chat_id: int, players: int = 4) -> str:
    """A game dealt through the lobby, users 1..players."""
    game = await engine.create_game(chat_id, 1, "P1")
    for user in range(2, players + 1):
        await engine.join(game.game_id, user, f"P{user}")
    await engine.start(game.game_id, 1)
    return game.game_id


async def owing_user(engine: EngineClient, game_id: str) -> tuple[int, int] | None:
    """(user id, version) of the player who owes the decision now; None once it is over."""
    table = await engine.spectator_view(game_id)
    if table.view is None or table.view.pending is None:
        return None
    user = table.game.seats[table.view.pending.player].user_id
    assert user is not None
    return user, table.game.version


#: A draw pile long enough for the scripted games of the service tests.
DRAW_PILE = "G1 G2 G3 G4 G5 G6 G7 G8 G9 B9 B8 B7 Y7 Y8 Y9"


async def deal(
    engine: EngineClient,
    hands: list[str],
    *,
    chat_id: int = -100_778,
    seats: list[SeatSpec] | None = None,
    turn_seconds: int | None = None,
    uno_window_seconds: int | None = None,
    **setup: Any,
) -> GameInfo:
    """A game in play from an explicit table (seat ``i`` is user ``101 + i``, who owes the
    turn is seat 0 unless ``current`` says otherwise, on a discarded R3 and ``DRAW_PILE``
    unless ``setup`` says otherwise); ``turn_seconds`` and ``uno_window_seconds`` are the
    game's, the service's defaults unless given."""
    return await engine.create_test_game(
        chat_id,
        seats or humans(len(hands)),
        {"hands": hands, "discard": "R3", "current": 0, "draw_pile": DRAW_PILE, **setup},
        turn_seconds=turn_seconds,
        uno_window_seconds=uno_window_seconds,
    )


async def dealt(engine: EngineClient, hands: list[str], **how: Any) -> str:
    """``deal``'s game id."""
    return (await deal(engine, hands, **how)).game_id
