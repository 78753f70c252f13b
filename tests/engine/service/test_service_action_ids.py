"""Action ids are remembered per actor: a seat, or the service itself (its timers).

A repeated id answers the first result, applied once (test_service_play.py); these tests
show that one actor's id never stands for another's: a player cannot silence a timer by
sending its predictable id first, nor swallow another player's move by reusing their id;
and a player's id that looks like the service's own is refused (README "Idempotency").
"""

from __future__ import annotations

import httpx
import pytest

from services.engine.client import EngineClient
from tests.helpers.engine_service import dealt


@pytest.mark.parametrize("prefix", ["timer:", "TIMER:", "system:", "service:"])
async def test_a_player_cannot_send_a_system_looking_action_id(
    engine: EngineClient, http: httpx.AsyncClient, prefix: str
) -> None:
    gid = await dealt(engine, ["R5 R6 G7", "B1 B2 B3"])
    forged = f"{prefix}{gid}:turn:2"
    body = {"user_id": 101, "action": "p.R5", "version": 1, "action_id": forged}
    refused = await http.post(f"/v1/games/{gid}/actions", json=body)
    assert refused.status_code == 400 and refused.json()["error"] == "bad_request"
    assert "action_id" in refused.json()["message"]
    frozen = {"version": 1, "seat": 1, "action_id": forged}
    assert (await http.post(f"/v1/games/{gid}/frozen-moved", json=frozen)).status_code == 400
    assert (await engine.game(gid)).version == 1  # nothing was applied


async def test_a_players_action_id_does_not_silence_the_timer(engine: EngineClient) -> None:
    """The probe's stall: a player sends the id the next timer will use; the timer must
    still act (a seat's ids and the service's are apart)."""
    gid = await dealt(engine, ["R5 R6 G7", "B1 B2 B3"])
    played = await engine.act(gid, 101, "p.R5", version=1, action_id="next-timer")
    timer = await engine.stand_in_act(gid, version=2, action="d", action_id="next-timer")
    assert not timer.duplicate and timer.seat == 1 and timer.version == played.version + 1
    assert {"type": "stand_in", "seat": 1, "timed_out": True} in timer.events
    assert (await engine.game(gid)).seats[1].missed == 1


async def test_a_player_reusing_another_players_id_still_moves(engine: EngineClient) -> None:
    gid = await dealt(engine, ["R5 R6 G7", "R1 B2 B3"])
    first = await engine.act(gid, 101, "p.R5", version=1, action_id="tap")
    second = await engine.act(gid, 102, "p.R1", version=2, action_id="tap")
    assert not second.duplicate and second.seat == 1 and second.version == first.version + 1
    again = await engine.act(gid, 102, "p.R1", version=2, action_id="tap")
    assert again.duplicate and again.version == 3  # the same actor's repeat: applied once
    assert (await engine.game(gid)).version == 3
