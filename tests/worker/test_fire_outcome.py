"""What a fired deadline reports: the engine's own answer, ``duplicate`` included.

``fire`` (tasks.py) against the real engine app (the shared ``engine`` fixture: in-process,
over the real Redis): a second delivery of a timer whose first one was applied is reported
``duplicate`` in the fire log, never ``applied`` a second time.
"""

from __future__ import annotations

from services.engine.client import EngineClient, SeatSpec
from services.worker.tasks import ClientTimerEngine, FireOutcome, fire
from services.worker.timers import Deadline, DeadlineKind


async def test_a_repeated_fire_reports_duplicate(engine: EngineClient) -> None:
    seats = [SeatSpec(name="A", user_id=101), SeatSpec(name="B", user_id=102)]
    game = await engine.create_test_game(
        -42,
        seats,
        {"hands": ["R5 R6", "B1 B2 B3"], "discard": "R3", "current": 0, "draw_pile": "G1 G2 G3"},
    )
    played = await engine.act(game.game_id, 101, "p.R5", version=1, action_id="a")
    window = Deadline(game.game_id, DeadlineKind.UNO, played.version)
    timers = ClientTimerEngine(engine)
    assert await fire(window, timers, policy_name="first-legal") is FireOutcome.APPLIED
    assert await fire(window, timers, policy_name="first-legal") is FireOutcome.DUPLICATE
    assert (await engine.game(game.game_id)).version == played.version + 1


async def test_a_reminder_fires_only_while_its_decision_is_owed(engine: EngineClient) -> None:
    """A ``nudge`` deadline reports ``nudged`` (its reminder recorded for the bot) while the
    game is at its version, and ``stale`` once the decision was made: a late or repeated
    fire reminds no one of a turn already taken."""
    seats = [SeatSpec(name="A", user_id=101), SeatSpec(name="B", user_id=102)]
    game = await engine.create_test_game(
        -43,
        seats,
        {"hands": ["R5 R6", "B1 B2 B3"], "discard": "R3", "current": 0, "draw_pile": "G1 G2 G3"},
    )
    reminder = Deadline(game.game_id, DeadlineKind.NUDGE, game.version)
    timers = ClientTimerEngine(engine)
    assert await fire(reminder, timers, policy_name="first-legal") is FireOutcome.NUDGED
    await engine.act(game.game_id, 101, "p.R5", version=game.version, action_id="a")
    assert await fire(reminder, timers, policy_name="first-legal") is FireOutcome.STALE
