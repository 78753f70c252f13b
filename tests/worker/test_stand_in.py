"""The stand-in's choice from a player view as JSON (services/worker/stand_in.py).

RULES.md §7 "Timing in a chat": when a deadline passes, an AI stand-in makes the decision
the player owes, seeing only that player's view; it makes one settling move per deadline.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from services.engine.rules import (
    ActionType,
    Applied,
    GameState,
    View,
    apply,
    legal_actions,
    new_game,
    view,
)
from services.worker.stand_in import BadView, choose_action, first_settling_code, view_from_json

POLICY_NAMES = ("hard", "strong", "random", "first-legal", "no-such-policy")


def owed_views(variant: str, seed: int, steps: int = 400) -> Iterator[tuple[GameState, View]]:
    """The owing player's view at every step of a random game."""
    rng = random.Random(seed)
    state, _ = new_game(variant, ["Ana", "Bo", "Cy"], seed=seed)
    for _ in range(steps):
        if state.pending is None:
            return
        seat = state.pending.player
        yield state, view(state, seat)
        result = apply(state, rng.choice(legal_actions(state, seat)))
        assert isinstance(result, Applied)
        state = result.state


def as_wire(v: View) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(json.dumps(v.to_json()))
    return loaded


def test_view_survives_the_wire(variant_name: str) -> None:
    """What the engine sends (``View.to_json`` over JSON) reads back as the same view."""
    seen = 0
    for state, v in owed_views(variant_name, seed=7):
        assert view_from_json(as_wire(v)) == v
        spectator = view(state, None)
        assert view_from_json(as_wire(spectator)) == spectator
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("policy_name", POLICY_NAMES)
def test_s7_stand_in_answers_with_a_legal_settling_move(
    variant_name: str, policy_name: str
) -> None:
    """RULES.md §7: the stand-in makes the owed decision: a legal move that settles it
    (never only a UNO call or a catch, which leave the decision owed)."""
    for _, v in owed_views(variant_name, seed=11, steps=150):
        code = choose_action(as_wire(v), policy_name=policy_name, seed_text=f"t:{v.version}")
        assert code in v.legal_codes
        settling = [a for a in v.legal if a.type not in (ActionType.CALL_UNO, ActionType.CATCH)]
        if settling:
            assert code in {a.code for a in settling}


def test_s7_stand_in_does_not_spend_the_deadline_on_a_uno_call() -> None:
    """RULES.md §7 [decision]: with two cards the strong policy would call UNO first; as a
    stand-in it plays instead, so one timeout is one stand-in move."""
    found = 0
    for seed in range(40):
        for _, v in owed_views("classic", seed=seed):
            if "u" not in v.legal_codes or v.pending is None:
                continue
            found += 1
            wire = as_wire(v)
            assert choose_action(wire, policy_name="strong", seed_text="s") != "u"
            as_ai_seat = choose_action(wire, policy_name="strong", seed_text="s", settle_only=False)
            assert as_ai_seat == "u"  # an AI seat plays as itself: it calls
    assert found > 0


@pytest.mark.parametrize("policy_name", ["random", "hard"])
def test_the_same_timer_makes_the_same_choice(policy_name: str) -> None:
    """A redelivered timer that sees the same view sends the same move (the hard policy's
    search included: its budget is a count of rollouts, its randomness the timer's)."""
    for _, v in owed_views("classic", seed=3, steps=60):
        wire = as_wire(v)
        first = choose_action(wire, policy_name=policy_name, seed_text="timer:g:turn:5")
        again = choose_action(wire, policy_name=policy_name, seed_text="timer:g:turn:5")
        assert first == again


def test_fallback_is_the_first_settling_code() -> None:
    assert first_settling_code(["u", "x.2", "p.R5", "d"]) == "p.R5"
    assert first_settling_code(["u"]) == "u"
    with pytest.raises(BadView):
        first_settling_code([])


def test_unreadable_view_is_a_clear_error() -> None:
    _, v = next(owed_views("classic", seed=1))
    wire = as_wire(v)
    del wire["seats"]
    with pytest.raises(BadView):
        view_from_json(wire)
    wire = as_wire(v)
    wire["legal"] = ["zz.9"]
    with pytest.raises(BadView):
        view_from_json(wire)
