"""The test-only set-up endpoint (``POST /v1/test/games``) stores only a game that plays.

A set-up the rules cannot play on (no card to play on, scores that are not numbers, a
player without a seat) is 422 and nothing is stored: no game, no chat pointer, no deadline.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import redis

from services.engine.client import Conflict, EngineClient
from services.engine.rules import Options
from tests.helpers.engine_service import DRAW_PILE, dealt, humans

CHAT = -100_779


@pytest.mark.parametrize(
    ("setup", "status"),
    [
        ({"hands": ["R5", "B1"]}, 422),  # nothing to turn up: no discard pile, no draw pile
        ({"hands": ["R5", "B1"], "discard": ""}, 422),
        ({"hands": ["R5 ZZ", "B1"], "discard": "R3"}, 422),  # no such card
        ({"hands": ["R5", "B1", "G1"], "discard": "R3"}, 422),  # three hands, two seats
        ({"hands": ["R5", "B1"], "discard": "R3", "current": 5}, 422),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "scores": [5]}, 422),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "scores": ["a", "b"]}, 400),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "scores": [1.5, 0]}, 400),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "dealer": "0"}, 400),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "side": "upside-down"}, 400),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "options": {"seven_o": "yes"}}, 400),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "round": 0}, 400),
        ({"hands": ["R5 R6", 7], "discard": "R3"}, 400),
        ({"hands": ["R5 R6", "B1"], "discard": "R3", "deck": "mine"}, 400),
    ],
)
async def test_an_impossible_set_up_is_refused_and_stores_nothing(
    http: httpx.AsyncClient, raw_redis: redis.Redis, setup: dict[str, Any], status: int
) -> None:
    """A set-up the rules cannot play on is 422 ``bad_setup``; one of the wrong shape is
    400 ``bad_request``, like any other body."""
    body = {"chat_id": CHAT, "seats": [s.model_dump() for s in humans(2)], "setup": setup}
    refused = await http.post("/v1/test/games", json=body)
    assert refused.status_code == status, refused.text
    assert refused.json()["error"] == ("bad_setup" if status == 422 else "bad_request")
    assert list(raw_redis.scan_iter("uno:*")) == []


async def test_a_round_about_to_start_turns_its_first_card_up(engine: EngineClient) -> None:
    """RULES.md §1 set-ups: no discard pile but a draw pile is a round about to start."""
    game = await engine.create_test_game(
        CHAT, humans(2), {"hands": ["R5", "B1"], "draw_pile": DRAW_PILE}
    )
    table = await engine.spectator_view(game.game_id)
    assert table.view is not None and table.view.top == "G1"


async def test_scores_set_up_as_numbers_reach_the_round_end(engine: EngineClient) -> None:
    gid = await dealt(engine, ["R5", "B1 B2"], scores=[10, 20])
    won = await engine.act(gid, 101, "p.R5", version=1, action_id="win")
    assert any(e["type"] == "round_ended" for e in won.events), won.events


async def test_a_lobby_with_a_fixed_deal_starts_on_it_through_its_start(
    engine: EngineClient,
) -> None:
    """``POST /v1/test/games/{id}/deal``: the lobby's own Start deals the fixed hands to its
    seats (its names, its rules), the seed of later rounds still its own."""
    lobby = await engine.create_game(CHAT, 101, "Ann", rules=Options(target_score=1))
    await engine.join(lobby.game_id, 102, "Bob")
    await engine.fix_deal(
        lobby.game_id, {"hands": ["R5", "B0"], "discard": "R3", "draw_pile": DRAW_PILE}
    )
    started = await engine.start(lobby.game_id, 101)
    assert started.status == "playing"
    ann = await engine.view(lobby.game_id, 101)
    assert ann.view is not None and ann.view.top == "R3"
    assert ann.view.hand == ["R5"] and ann.view.target_score == 1


async def test_a_deal_is_fixed_only_for_a_lobby(engine: EngineClient) -> None:
    game = await engine.create_test_game(
        CHAT - 1, humans(2), {"hands": ["R5 R6", "B1"], "discard": "R3"}
    )
    with pytest.raises(Conflict):
        await engine.fix_deal(game.game_id, {"hands": ["R5", "B0"], "discard": "R3"})
