"""The export of a finished game (docs/EXPORT.md, RULES.md §2 "Checking a deal"): random
games of every variant replay from their export to the same final state and the same events;
the verifier names where a tampered export parts from the rules, field by field; no seed is
seen before its round ends."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.engine import verify
from services.engine.game_export import FORMAT, Divergence, compact, expand, replay
from services.engine.rules import VARIANTS, Options, deal_commitment, view
from services.engine.rules.events import EventType
from tests.helpers.replays import PlayedGame, play
from tests.helpers.rules import examples


@settings(
    max_examples=examples(6),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), low_target=st.booleans())
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_random_game_replays_from_its_export(
    variant: str, seed: int, players: int, low_target: bool
) -> None:
    options = Options(target_score=40 if low_target else None)
    game = play(variant, players, options, random.Random(seed))
    exported = json.loads(json.dumps(game.export))  # what a file holds
    replayed = replay(exported)
    assert replayed.state == game.state
    assert list(replayed.events) == game.events
    assert [r["seed"] for r in exported["rounds"]] == [str(s) for s in game.seeds]
    # What the records archive (no names) writes out as the same export again.
    kept = json.loads(json.dumps(compact(exported)))
    names = [s["name"] for s in exported["seats"]]
    assert expand(exported["game"], kept, names) == exported


# -- the verifier: one mutation per field -----------------------------------------------------


@pytest.fixture(scope="module")
def finished() -> PlayedGame:
    """A Classic game of several rounds, played to its end."""
    for seed in range(50):
        game = play("classic", 3, Options(target_score=60), random.Random(seed), 5000)
        if game.state.pending is None and len(game.export["rounds"]) >= 2:
            return game
    raise AssertionError("no finished game of two rounds or more")


def _divergence(export: dict[str, Any]) -> Divergence:
    with pytest.raises(Divergence) as caught:
        replay(export)
    return caught.value


def _first_play(export: dict[str, Any], round_index: int) -> int:
    moves = export["rounds"][round_index]["moves"]
    return next(i for i, m in enumerate(moves) if m["action"].startswith("p."))


def test_the_untouched_export_verifies(finished: PlayedGame, tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished.export))
    assert verify.main([str(path)]) == 0


def test_another_format_version_is_refused(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["format"] = FORMAT + 1
    assert "format 2 is not one this verifier reads" in str(_divergence(export))


def test_another_variant_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["variant"] = "no_mercy"
    found = _divergence(export)
    assert found.round == 1  # the deal is another deck's


def test_changed_options_are_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["options"]["target_score"] = 10_000  # the game would not be over
    assert "does not finish" in str(_divergence(export))


def test_a_changed_seat_count_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["seats"].append({"seat": 3, "name": "X", "ai": None})
    assert _divergence(export).round == 1


def test_a_changed_seed_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][1]["seed"] = str(int(export["rounds"][1]["seed"]) + 1)
    found = _divergence(export)
    assert (found.round, found.move) == (2, None)
    assert "commitment" in str(found)


def test_a_seed_changed_with_its_commitment_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    seed = int(export["rounds"][1]["seed"]) + 1
    export["rounds"][1]["seed"] = str(seed)
    export["rounds"][1]["commitment"] = deal_commitment(seed)
    found = _divergence(export)
    assert found.round == 2  # the deal written down is not the new seed's


def test_a_changed_commitment_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][0]["commitment"] = "0" * 64
    found = _divergence(export)
    assert found.round == 1 and "commitment" in str(found)


def test_a_changed_card_in_a_dealt_hand_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    hand = export["rounds"][1]["hands"][2]
    hand[0] = "R1" if hand[0] != "R1" else "G1"
    found = _divergence(export)
    assert found.round == 2 and "seat 2's hand" in str(found)


def test_a_changed_first_card_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    first = export["rounds"][0]["first_cards"]
    first[-1] = "B9" if first[-1] != "B9" else "Y9"
    assert "turned up" in str(_divergence(export))


def test_a_changed_dealer_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][0]["dealer"] = (export["rounds"][0]["dealer"] + 1) % 3
    assert "dealer" in str(_divergence(export))


def test_a_changed_card_in_a_move_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    i = _first_play(export, 0)
    move = export["rounds"][0]["moves"][i]
    seat = move["seat"]
    held = set(finished.export["rounds"][0]["hands"][seat])
    move["action"] = "p." + next(c for c in ("R0", "G0", "B0", "Y0") if c not in held)
    found = _divergence(export)
    assert (found.round, found.move) == (1, i)


def test_a_changed_move_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    i = _first_play(export, 1)
    export["rounds"][1]["moves"][i]["action"] = "c.R"  # no colour is owed there
    found = _divergence(export)
    assert (found.round, found.move) == (2, i)


def test_a_move_by_another_seat_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    i = _first_play(export, 0)
    move = export["rounds"][0]["moves"][i]
    move["seat"] = (move["seat"] + 1) % 3
    found = _divergence(export)
    assert (found.round, found.move) == (1, i)


def test_a_removed_move_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][0]["moves"].pop()
    assert _divergence(export).round == 1


def test_a_changed_round_result_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][0]["result"]["scores"][0] += 1
    assert _divergence(export).round == 1


def test_a_changed_winner_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["winner"] = (export["winner"] + 1) % 3
    assert "winner" in str(_divergence(export))


def test_changed_final_scores_are_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["scores"][1] += 5
    assert "final scores" in str(_divergence(export))


def test_the_verifier_exits_non_zero_with_the_verdict(
    finished: PlayedGame, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][1]["seed"] = "12345"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export))
    assert verify.main([str(path)]) == 1
    assert "NOT VALID: round 2: the seed does not match" in capsys.readouterr().out
    path.write_text("{not json")
    assert verify.main([str(path)]) == 2


# -- no seed before its round ends ------------------------------------------------------------


def test_no_seed_is_seen_before_its_round_ends() -> None:
    """Every view (each seat's and a spectator's) and every event (all of them, private ones
    too) of a round holds neither the round's seed nor the next round's, until the round's
    ``round_ended`` reveals its own; the views show its commitment."""
    from services.engine.rules import Applied, apply, new_game
    from services.engine.rules.view import as_seen
    from tests.helpers.rules import random_action

    rng = random.Random(7)
    seed = rng.getrandbits(63)
    state, events = new_game("classic", ["A", "B", "C"], Options(), seed=seed)
    seen: list[str] = [json.dumps([e.to_json() for e in events])]
    ended = False
    next_seed = rng.getrandbits(63)
    while not ended:
        for viewer in (None, 0, 1, 2):
            shown = view(state, viewer)
            assert shown.deal_commitment == deal_commitment(seed)
            seen.append(json.dumps(shown.to_json(), default=str))
        chosen = as_seen(random_action(state, rng, others=0.1), state.side)
        result = apply(state, chosen, next_seed)
        assert isinstance(result, Applied), result
        state, events = result
        before_end = []
        for e in events:
            if e.type is EventType.ROUND_ENDED:
                assert e.data["seed"] == str(seed)
                ended = True
                break
            before_end.append(e)
        seen.append(json.dumps([e.to_json() for e in before_end]))
    text = "\n".join(seen)
    assert str(seed) not in text
    assert str(next_seed) not in text
    assert state.round == 2 and state.seed == next_seed
    assert view(state, None).deal_commitment == deal_commitment(next_seed)
    assert str(next_seed) not in json.dumps([e.to_json() for e in events])


def test_a_renumbered_round_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][1]["round"] = 3
    assert "round 2 is numbered 3" in str(_divergence(export))


def test_an_unfinished_game_passed_off_as_finished_is_caught(finished: PlayedGame) -> None:
    export = copy.deepcopy(finished.export)
    export["rounds"][-1]["moves"].pop()
    export["ended_early"] = False
    assert _divergence(export).round == len(export["rounds"])
