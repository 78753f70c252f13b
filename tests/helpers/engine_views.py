"""The engine's game info and views of a rules-library state, as the bot gets them over
the wire: for the pure rendering tests (no engine service)."""

from __future__ import annotations

from typing import Any

import orjson

from services.engine.client import EngineView, GameInfo, SeatInfo
from services.engine.rules import view
from services.engine.rules.state import GameState

GAME_ID = "Gx7-_abcdEF1"


def game_info(state: GameState, status: str = "playing", game_id: str = GAME_ID) -> GameInfo:
    return GameInfo(
        game_id=game_id,
        version=state.version,
        status=status,  # type: ignore[arg-type]
        chat_id=-100,
        topic_id=0,
        host=1,
        variant=state.variant,
        turn_seconds=60,
        rules={},
        seats=[SeatInfo(seat=i, name=p.name, user_id=i + 1) for i, p in enumerate(state.players)],
    )


def engine_view(state: GameState, seat: int | None) -> EngineView:
    data: Any = orjson.loads(orjson.dumps(view(state, seat).to_json()))
    return EngineView.model_validate(data)
