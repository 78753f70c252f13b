"""The bodies the service answers with, built straight from a game record.

``player_view`` is the only place a hand is serialised (the rules engine's ``view`` for one
seat); ``action_result`` is the answer to every route that takes an action, its events
redacted by the rules engine's ``events_for`` (the one door for private events). Bodies are
encoded by orjson, which takes the rules engine's dataclasses as they are.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import orjson
from fastapi.responses import Response

from services.engine.game_record import GameRecord
from services.engine.games import Outcome
from services.engine.metrics import ServiceMetrics
from services.engine.rules import events_for, options_to_json, view


def json_response(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json")


def error_response(status: int, error: str, message: str, **extra: Any) -> Response:
    """Every error body: ``{error, message, ...}`` (``ErrorBody``)."""
    return json_response({"error": error, "message": message, **extra}, status)


def game_info(record: GameRecord) -> dict[str, Any]:
    return {
        "game_id": record.id,
        "version": record.version,
        "status": record.status.value,
        "chat_id": record.chat_id,
        "topic_id": record.topic_id,
        "host": record.host,
        "variant": record.variant,
        "turn_seconds": record.turn_seconds,
        "uno_window_seconds": record.uno_window_seconds,
        "rules": options_to_json(record.rules),
        "seats": [{"seat": i, **s.to_json()} for i, s in enumerate(record.seats)],
        "winner": record.state.winner if record.state is not None else None,
        "uno_opened": record.uno_opened,
        "removed": [r.to_json() for r in record.removed],
        "rematch": record.rematch.to_json(),
    }


def player_view(record: GameRecord, seat: int | None) -> dict[str, Any] | None:
    """The only place a hand is serialised: the rules engine's view for ``seat``.

    Equal to ``View.to_json()`` once encoded, but leaves the nested dataclasses to orjson,
    which encodes them natively (``dataclasses.asdict`` was the costliest step of a move).
    """
    if record.state is None:
        return None
    seen = view(record.state, seat)
    out = {f.name: getattr(seen, f.name) for f in fields(seen)}
    out["legal"] = list(seen.legal_codes)
    return out


def table_view(record: GameRecord, seat: int | None) -> dict[str, Any]:
    """A seat's view with the game's facts (``PlayerView``); ``seat`` None: a spectator's."""
    return {"game": game_info(record), "seat": seat, "view": player_view(record, seat)}


def action_result(outcome: Outcome) -> dict[str, Any]:
    """The answer to a move: the version it produced, whether it repeated an applied one,
    and its events as the acting seat may see them.

    [decision] No view rides along: the bot and the Mini App render every seat from the
    event log (the spectator's view, each hand from its owner's), the worker reads only
    whether it was applied, so a view here cost the move its priciest step for no reader,
    and put a hand on a path that needs no hand."""
    record, seat = outcome.record, outcome.seat
    return {
        "game_id": record.id,
        "version": outcome.version,
        "seat": seat,
        "duplicate": outcome.duplicate,
        "events": events_for(outcome.events, seat),
    }


def answer_action(metrics: ServiceMetrics, outcome: Outcome, by: str) -> Response:
    """The answer of every route that takes an action, counted by who took it (``player``,
    ``stand_in``, ``system``) or as a repeat."""
    if outcome.duplicate:
        metrics.duplicates.inc()
    else:
        metrics.actions.labels(by).inc()
    return json_response(action_result(outcome))
