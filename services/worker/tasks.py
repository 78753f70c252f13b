"""The timer task: fire one deadline through the engine, once, whatever the delivery.

``fire_deadline(game_id, kind, version)`` is sent by the deadline drainer (timers.py) when a
deadline falls due. It asks the engine to act on exactly the version the timer was set for:

- ``turn`` (RULES.md §7): fetch the owing player's view at that version, let the stand-in
  choose (stand_in.py), and send the move as a stand-in move;
- ``uno`` (RULES.md §2 "UNO"): close the UNO window opened at that version, unless the next
  player already closed it;
- ``nudge``: the human owing that version's decision has not made it yet: record that they
  are to be reminded (``DeadlineBoard.nudge_due``), for the bot to send, unless the game
  has moved on. The worker speaks to no one itself.

A late, early-claimed, duplicated or redelivered task finds a later version and the engine
answers 409: the task does nothing. Its action id is fixed by the deadline
(``timer:{game}:{kind}:{version}``), so even two copies racing past the version check apply
one move. The worker never writes game state; it calls the engine like any other client.

Only a definite answer (applied, stale, game gone, refused) releases the deadline's claim.
When the engine cannot be reached the claim is kept, and the drainer claims the deadline
again once its lease runs out: one retry path for every failure, crash included.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Protocol, TypeVar

import httpx
import redis
from pydantic import ValidationError
from sqlalchemy import Engine

from services.config import get_settings
from services.engine.client import (
    ActionResult,
    BadRequest,
    Conflict,
    EngineClient,
    EngineError,
    IllegalAction,
    NotFound,
)
from services.records.prepare import prepare_database
from services.worker.celery_app import app
from services.worker.chat_level import ChatLevel, chat_level_lookup
from services.worker.engine_loop import engine_loop
from services.worker.metrics import record_fire
from services.worker.stand_in import BadView, choose_action, first_settling_code
from services.worker.timers import Deadline, DeadlineBoard, DeadlineKind

log = logging.getLogger(__name__)
_R = TypeVar("_R")


class FireOutcome(StrEnum):
    APPLIED = "applied"  # the stand-in's move, or the window's close, was applied
    # The engine had already applied this timer's action id: another copy of it went first.
    DUPLICATE = "duplicate"
    # The policy's move was refused; the first settling legal move went in instead.
    APPLIED_FALLBACK = "applied_fallback"
    STALE = "stale"  # the game had moved on: the timer had nothing left to do
    GONE = "gone"  # the game no longer exists
    REFUSED = "refused"  # the engine refused every move the stand-in could offer
    NUDGED = "nudged"  # the decision is still owed: its reminder is recorded for the bot


class EngineUnavailable(RuntimeError):
    """The engine could not give a definite answer (network, 5xx); try again later."""


class MoveResult(StrEnum):
    APPLIED = "applied"
    DUPLICATE = "duplicate"  # 200 with ``duplicate: true``: applied before, not now
    STALE = "stale"  # 409
    ILLEGAL = "illegal"  # 422
    GONE = "gone"  # 404


@dataclass(frozen=True, slots=True)
class StandInTurn:
    seat: int
    view: Mapping[str, Any]
    ai: str | None = None  # the seat's AI level when it is an AI player's own turn


class TimerEngine(Protocol):
    """The engine calls a timer needs (README "Timers" has the contract)."""

    async def still_at(self, game_id: str, version: int) -> MoveResult: ...

    async def stand_in_view(self, game_id: str, version: int) -> StandInTurn | MoveResult: ...

    async def stand_in_move(
        self, game_id: str, version: int, action: str, action_id: str
    ) -> MoveResult: ...

    async def close_uno_window(
        self, game_id: str, opened_version: int, action_id: str
    ) -> MoveResult: ...


class ClientTimerEngine:
    """The timer calls through the engine's typed client (services/engine/client.py)."""

    def __init__(self, client: EngineClient) -> None:
        self._client = client

    async def still_at(self, game_id: str, version: int) -> MoveResult:
        """APPLIED while the game is in play at ``version``, else STALE (or GONE)."""
        game = await _answer(f"the version of {game_id}", self._client.game(game_id))
        if isinstance(game, MoveResult):
            return game
        if game.version != version or game.status != "playing":
            return MoveResult.STALE
        return MoveResult.APPLIED

    async def stand_in_view(self, game_id: str, version: int) -> StandInTurn | MoveResult:
        turn = await _answer(
            f"stand-in view of {game_id}", self._client.stand_in_turn(game_id, version)
        )
        if isinstance(turn, MoveResult):
            return turn
        return StandInTurn(seat=turn.seat, view=turn.view.model_dump(), ai=turn.ai)

    async def stand_in_move(
        self, game_id: str, version: int, action: str, action_id: str
    ) -> MoveResult:
        moved = await _answer(
            f"stand-in move in {game_id}",
            self._client.stand_in_act(game_id, version=version, action=action, action_id=action_id),
        )
        return moved if isinstance(moved, MoveResult) else _applied(moved)

    async def close_uno_window(
        self, game_id: str, opened_version: int, action_id: str
    ) -> MoveResult:
        closed = await _answer(
            f"closing the UNO window of {game_id}",
            self._client.close_uno_window(
                game_id, opened_version=opened_version, action_id=action_id
            ),
        )
        return closed if isinstance(closed, MoveResult) else _applied(closed)


def _applied(result: ActionResult) -> MoveResult:
    """What the engine did with an action it accepted: applied now, or a repeat."""
    return MoveResult.DUPLICATE if result.duplicate else MoveResult.APPLIED


async def _answer(what: str, request: Awaitable[_R]) -> _R | MoveResult:
    """The engine's answer to ``request``, or its refusal as a definite result; raises
    ``EngineUnavailable`` when it gave neither."""
    try:
        return await request
    except EngineError as exc:
        return _definite(exc)
    except (httpx.HTTPError, ValidationError) as exc:
        raise EngineUnavailable(f"{what}: {exc!r}") from exc


def _definite(exc: EngineError) -> MoveResult:
    """The engine's refusal as a definite result; raises when there is none to be had."""
    if isinstance(exc, Conflict) and exc.error != "busy":
        return MoveResult.STALE  # 409: stale version, window no longer open, game over
    if isinstance(exc, NotFound):
        return MoveResult.GONE
    if isinstance(exc, IllegalAction | BadRequest):  # 422, or a code the API will not parse
        return MoveResult.ILLEGAL
    # 5xx, 409 "busy" (lost too many compare-and-sets in a row), and 401/403 (a token
    # mismatch is a deployment fault an operator fixes): no answer yet, so try again later.
    raise EngineUnavailable(f"engine answered {exc.status} {exc.error}: {exc.message}") from exc


async def fire(
    deadline: Deadline,
    engine: TimerEngine,
    *,
    policy_name: str,
    chat_level: ChatLevel | None = None,
) -> FireOutcome:
    """Act on ``deadline`` through the engine; the outcome is definite (or it raises).
    A human's stand-in plays at the chat's level (``chat_level``), else ``policy_name``."""
    if deadline.kind is DeadlineKind.NUDGE:
        owed = await engine.still_at(deadline.game_id, deadline.version)
        return FireOutcome.NUDGED if owed is MoveResult.APPLIED else _outcome(owed)
    if deadline.kind is DeadlineKind.UNO:
        closed = await engine.close_uno_window(
            deadline.game_id, deadline.version, deadline.action_id
        )
        return _outcome(closed)
    turn = await engine.stand_in_view(deadline.game_id, deadline.version)
    if isinstance(turn, MoveResult):
        return _outcome(turn)
    level = turn.ai
    if level is None and chat_level is not None:
        level = await chat_level(deadline.game_id)
    try:
        action = choose_action(
            turn.view,
            policy_name=level or policy_name,
            seed_text=deadline.action_id,
            # A human's stand-in settles the decision; an AI seat plays as itself.
            settle_only=turn.ai is None,
        )
        fallback = first_settling_code([str(code) for code in turn.view.get("legal", ())])
    except BadView:
        log.exception("stand-in for %s: unreadable view", deadline.member)
        return FireOutcome.REFUSED
    result = await engine.stand_in_move(
        deadline.game_id, deadline.version, action, deadline.action_id
    )
    if result is not MoveResult.ILLEGAL:
        return _outcome(result)
    if action == fallback:
        log.error("stand-in for %s: the engine refused %s", deadline.member, action)
        return FireOutcome.REFUSED
    # A policy bug must not stall the game: the first legal move, under its own fixed id.
    log.error("stand-in for %s: %s refused; sending %s", deadline.member, action, fallback)
    result = await engine.stand_in_move(
        deadline.game_id, deadline.version, fallback, deadline.action_id + ":fallback"
    )
    if result is MoveResult.APPLIED:
        return FireOutcome.APPLIED_FALLBACK
    return _outcome(result)


def _outcome(result: MoveResult) -> FireOutcome:
    return {
        MoveResult.APPLIED: FireOutcome.APPLIED,
        MoveResult.DUPLICATE: FireOutcome.DUPLICATE,
        MoveResult.STALE: FireOutcome.STALE,
        MoveResult.GONE: FireOutcome.GONE,
        MoveResult.ILLEGAL: FireOutcome.REFUSED,
    }[result]


@cache
def deadline_board() -> DeadlineBoard:
    """This process's board (redis-py reopens its connections in a forked pool child)."""
    settings = get_settings()
    return DeadlineBoard(
        redis.Redis.from_url(settings.redis_url),
        lease_seconds=settings.timer_lease_seconds,
        claim_batch=settings.timer_claim_batch,
        max_attempts=settings.timer_max_attempts,
    )


@cache
def records_database() -> Engine:
    """This process's records database, where a chat's stand-in level is read."""
    return prepare_database(get_settings().database_url)


@app.task(  # type: ignore[untyped-decorator]
    name="uno.fire_deadline", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def fire_deadline(
    game_id: str, kind: str, version: int, due: float | None = None, attempt: int = 1
) -> str:
    """Fire the deadline ``game_id|kind|version`` (``due``: when it fell due, for the log)."""
    deadline = Deadline(game_id, DeadlineKind(kind), version)
    engine = engine_loop()
    try:
        outcome = engine.call(
            fire(
                deadline,
                ClientTimerEngine(engine.client),
                policy_name=engine.settings.stand_in_policy,
                chat_level=chat_level_lookup(engine.client, records_database()),
            )
        )
    except EngineUnavailable as exc:
        # Keep the claim: the drainer claims it again when the lease runs out.
        log.warning("deadline %s (attempt %d) left for later: %s", deadline.member, attempt, exc)
        record_fire("later", None)
        return "later"
    if outcome is FireOutcome.NUDGED:
        deadline_board().nudge_due(deadline)
    lateness = deadline_board().release(deadline, outcome.value, due)
    record_fire(outcome.value, lateness)
    log.info(
        "deadline %s fired: %s (attempt %d, %s s after due)",
        deadline.member,
        outcome.value,
        attempt,
        "?" if lateness is None else f"{lateness:.3f}",
    )
    return outcome.value
