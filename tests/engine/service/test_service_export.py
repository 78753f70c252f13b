"""A finished game's export over the API (docs/EXPORT.md; RULES.md §2 "Checking a deal"):
served once the game is over or ended, refused while it is played, verified by the
verifier; the table shows each round's commitment and the seed shows nowhere before its
round's end, not in a view, an event of the log or the engine's log output."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import httpx
import pytest

from services.engine.client import Conflict, EngineClient, NotFound
from services.engine.game_export import replay
from services.engine.rules import Options, deal_commitment
from tests.helpers.engine_service import load_record, stream_entries

CHAT = -100_4646
HOST, GUEST = 4601, 4602


async def _started(engine: EngineClient, target: int = 1) -> str:
    game = await engine.create_game(CHAT, HOST, "Ann", rules=Options(target_score=target))
    await engine.join(game.game_id, GUEST, "Bob")
    await engine.start(game.game_id, HOST)
    return game.game_id


async def _play_to_the_end(
    engine: EngineClient, game_id: str, raw: Any, looks: list[tuple[int, str]]
) -> None:
    """Play legal moves until the game is over, writing down before every move what every
    viewer (both seats, a spectator) sees, with the seed of the round in play then. A card
    is played whenever one may be (a random walk that drew as often as it played could
    take thousands of moves to reach the target)."""
    rng = random.Random(46)
    for n in range(3000):
        views = await engine.views_json(game_id, [HOST, GUEST])
        spectator = (await engine.spectator_view(game_id)).model_dump()
        state = load_record(raw, game_id).state
        assert state is not None
        looks.append((state.seed, json.dumps([views, spectator], default=str)))
        if state.pending is None:
            return
        user = (HOST, GUEST)[state.pending.player]
        mine = next(v for v in views["views"] if v["user_id"] == user)["view"]
        plays = [code for code in mine["legal"] if code.startswith("p.")]
        code = rng.choice(plays or mine["legal"])
        await engine.act(game_id, user, code, version=mine["version"], action_id=f"m{n}")
    raise AssertionError("the game did not end")


async def test_a_finished_game_exports_and_verifies_and_no_seed_shows_early(
    engine: EngineClient, raw_redis: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    game_id = await _started(engine, target=150)
    with pytest.raises(Conflict) as refused:
        await engine.export(game_id)
    assert refused.value.error == "game_in_progress"
    looks: list[tuple[int, str]] = []
    await _play_to_the_end(engine, game_id, raw_redis, looks)
    export = await engine.export(game_id)
    replayed = replay(export)
    assert replayed.state.winner == export["winner"]
    seeds = [int(r["seed"]) for r in export["rounds"]]
    assert len(seeds) >= 2 and len(set(seeds)) == len(seeds)  # a fresh seed each round
    # Views: the round's commitment, never its seed (the last look is after the game's end).
    for seed, shown in looks[:-1]:
        assert deal_commitment(seed) in shown
        assert str(seed) not in shown
    # Every event of the log, private ones too: a seed first appears in its round's end.
    log = [json.dumps(event) for _, _, event in stream_entries(raw_redis, game_id)]
    for number, seed in enumerate(seeds, start=1):
        first = next(i for i, text in enumerate(log) if str(seed) in text)
        revealed = json.loads(log[first])
        assert revealed["type"] == "round_ended" and revealed["round"] == number
        assert revealed["seed"] == str(seed) and "to" not in revealed
    # The engine's own log lines never hold one.
    for seed in seeds:
        assert str(seed) not in caplog.text


async def test_an_ended_game_exports_its_rounds_so_far(engine: EngineClient) -> None:
    game_id = await _started(engine, target=500)
    await engine.end(game_id, HOST)
    export = await engine.export(game_id)
    assert export["ended_early"] is True
    assert len(export["rounds"]) == 1 and export["rounds"][0]["moves"] == []
    replay(export)


async def test_unknown_and_malformed_ids_are_refused(
    engine: EngineClient, http: httpx.AsyncClient
) -> None:
    with pytest.raises(NotFound):
        await engine.export("no-such-game")
    bad = await http.get("/v1/games/not%20an%20id!/export")
    assert bad.status_code in (400, 404, 422)
    assert bad.json()["error"]
