"""The replay page's positions and the check of a game's deals, pure (no services):
stepping through an export reaches the game's own final state, each position showing every
hand; a tampered export shows no position at all; the check names, round by round, which
rounds hold and where one parts from the rules (RULES.md §2 "Checking a deal")."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from services.engine.game_export import Divergence, positions
from services.engine.rules import Options
from services.presentation.screens.table import FINGERPRINT_DIGITS
from services.webapp.replays import replay_payload, verdict
from tests.helpers.chat_text import plain_text
from tests.helpers.engine_views import game_info
from tests.helpers.replays import PlayedGame, play


@pytest.fixture(scope="module")
def finished() -> PlayedGame:
    """A Classic game of three rounds or more, played to its end."""
    for seed in range(80):
        game = play("classic", 2, Options(target_score=150), random.Random(seed), 6000)
        if game.state.pending is None and len(game.export["rounds"]) >= 3:
            return game
    raise AssertionError("no finished game of three rounds or more")


def test_stepping_through_an_export_reaches_the_games_final_state(finished: PlayedGame) -> None:
    every = list(positions(finished.export))
    moves = sum(len(r["moves"]) for r in finished.export["rounds"])
    assert len(every) == moves + 1 and every[0].move is None
    assert every[-1].state == finished.state
    assert [e for p in every for e in p.events] == finished.events


def test_a_tampered_export_shows_no_position(finished: PlayedGame) -> None:
    """RULES.md §2 "Checking a deal": nothing of a game that does not check out is shown."""
    tampered = copy.deepcopy(finished.export)
    tampered["rounds"][-1]["seed"] = str(int(tampered["rounds"][-1]["seed"]) + 1)
    with pytest.raises(Divergence):
        next(positions(tampered))


def test_the_payload_shows_every_hand_and_each_rounds_fingerprint(finished: PlayedGame) -> None:
    info = game_info(finished.state, status="over")
    payload = replay_payload(finished.export, info, "en")
    first = payload["positions"][0]
    assert [len(hand) for hand in first["hands"]] == [s["cards"] for s in first["view"]["seats"]]
    assert "deal_commitment" not in first["view"]
    for shown, entry in zip(payload["rounds"], finished.export["rounds"], strict=True):
        assert shown["fingerprint"] == entry["commitment"][:FINGERPRINT_DIGITS]
        assert payload["positions"][shown["first"]]["view"]["round"] == entry["round"]
    assert payload["positions"][-1]["words"]["game_over"].startswith("🏆")
    assert "⏱" not in "".join(p["words"]["owing"] for p in payload["positions"])


def test_the_check_passes_every_round_of_an_untouched_game(finished: PlayedGame) -> None:
    checked = verdict(finished.export, "en")
    assert checked["valid"] is True
    assert [r["ok"] for r in checked["rounds"]] == [True] * len(finished.export["rounds"])
    assert checked["rounds"][0]["words"] == "✓ round 1: deal and moves check out"


def _tampered_move(export: dict[str, Any], round_index: int) -> tuple[dict[str, Any], int]:
    tampered = copy.deepcopy(export)
    moves = tampered["rounds"][round_index]["moves"]
    at = next(i for i, m in enumerate(moves) if m["action"].startswith("p."))
    moves[at]["action"] = "p.Y0" if moves[at]["action"] != "p.Y0" else "p.B0"
    return tampered, at


def test_the_check_says_where_a_tampered_round_parts_from_the_rules(
    finished: PlayedGame,
) -> None:
    """RULES.md §2 "Checking a deal": the rounds before it hold, it parts at its move, the
    rounds after it are not checked."""
    tampered, at = _tampered_move(finished.export, 1)
    checked = verdict(tampered, "en")
    assert checked["valid"] is False and checked["words"].startswith("❌")
    first, second, *rest = checked["rounds"]
    assert first["ok"] is True
    assert second["ok"] is False and second["move"] == at + 1
    assert second["words"].startswith("✗ round 2:")
    assert all(r["ok"] is None for r in rest) and rest


def test_the_check_refuses_another_format_and_a_changed_seed(finished: PlayedGame) -> None:
    other = copy.deepcopy(finished.export)
    other["format"] = 2
    assert verdict(other, "en")["valid"] is False
    seeded = copy.deepcopy(finished.export)
    seeded["rounds"][0]["seed"] = str(int(seeded["rounds"][0]["seed"]) ^ 1)
    checked = verdict(seeded, "fa")
    assert checked["valid"] is False and checked["rounds"][0]["ok"] is False


def test_a_move_the_stand_in_made_is_told_as_the_chat_told_it(finished: PlayedGame) -> None:
    """RULES.md §7: a move the AI made for a player out of time or away says so."""
    export = copy.deepcopy(finished.export)
    export["rounds"][0]["moves"][0]["by"] = "stand_in"
    seat = export["rounds"][0]["moves"][0]["seat"]
    payload = replay_payload(export, game_info(finished.state, status="over"), "en")
    name = payload["seats"][seat]["name"]
    assert plain_text(payload["positions"][1]["words"]["lines"][0]) == f"🤖 AI plays for {name}"
    assert not payload["positions"][2]["words"]["lines"][0].startswith("🤖")
