"""What every route works with: the settings, the game store, the game operations and the
metrics of one app, built once by ``create_app`` and handed to routes as a dependency."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from services.config import Settings
from services.engine.games import Games
from services.engine.metrics import ServiceMetrics
from services.engine.store import GameStore


@dataclass(frozen=True, slots=True)
class EngineContext:
    settings: Settings
    store: GameStore
    games: Games
    metrics: ServiceMetrics


def engine_context(request: Request) -> EngineContext:
    context: EngineContext = request.app.state.context
    return context


#: A route's parameter that receives the app's ``EngineContext``.
Context = Annotated[EngineContext, Depends(engine_context)]
