"""A chat's own stand-in level (/settings, records ``stand_in``) decides for its away
players (RULES.md §7 "Timing in a chat"); a chat that chose none gets the worker's.

``fire`` (tasks.py) against the real engine app and a real (SQLite) records database.
"""

from __future__ import annotations

from pathlib import Path

from services.engine.client import EngineClient, SeatSpec
from services.records.prepare import prepare_database
from services.records.queries import ChatSettings, save_chat_settings
from services.worker.chat_level import chat_level_lookup
from services.worker.stand_in import choose_action
from services.worker.tasks import ClientTimerEngine, FireOutcome, fire
from services.worker.timers import Deadline, DeadlineKind

SETUP = {"hands": ["R5 G3 B7 R9", "B1 B2 B3"], "discard": "R3", "current": 0}
CHOSEN = "first-legal"  # plays the first legal card; the worker's own level does not


async def _stand_in_plays(engine: EngineClient, chat_id: int, records_url: str) -> str:
    seats = [SeatSpec(name="A", user_id=101), SeatSpec(name="B", user_id=102)]
    game = await engine.create_test_game(chat_id, seats, {**SETUP, "draw_pile": "G1 G2 G3"})
    turn = Deadline(game.game_id, DeadlineKind.TURN, game.version)
    records = prepare_database(records_url)
    outcome = await fire(
        turn,
        ClientTimerEngine(engine),
        policy_name="strong",
        chat_level=chat_level_lookup(engine, records),
    )
    assert outcome is FireOutcome.APPLIED
    seen = (await engine.view(game.game_id, 102)).view
    assert seen is not None
    return seen.top


async def test_the_chats_stand_in_level_plays_for_an_away_player(
    engine: EngineClient, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'records.db'}"
    save_chat_settings(prepare_database(url), -43, ChatSettings(stand_in=CHOSEN))
    seats = [SeatSpec(name="A", user_id=101), SeatSpec(name="B", user_id=102)]
    probe = await engine.create_test_game(-44, seats, {**SETUP, "draw_pile": "G1"})
    seen = (await engine.view(probe.game_id, 101)).view
    assert seen is not None
    wire = seen.model_dump()
    chosen = choose_action(wire, policy_name=CHOSEN, seed_text="s").partition(".")[2]
    default = choose_action(wire, policy_name="strong", seed_text="s").partition(".")[2]
    assert chosen != default  # the position tells the two levels apart

    assert await _stand_in_plays(engine, -43, url) == chosen
    assert await _stand_in_plays(engine, -45, url) == default  # a chat that chose nothing
