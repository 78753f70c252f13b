"""The baseline AI players: ``random`` (uniform among the legal plays, draws only with no
play) and ``first`` (the first legal play); both always call UNO and never challenge, and
[decision] neither catches nor jumps in."""

from __future__ import annotations

from collections import Counter

import pytest

from services.engine.rules import ActionType, GameState, Options, PendingKind
from services.engine.rules.actions import choose_color, play
from services.worker.ai import FirstLegalPolicy, RandomPolicy, UnknownPolicy, get_policy
from tests.helpers.ai import rng, seen, table
from tests.helpers.rules import after

BASELINES = [RandomPolicy(), FirstLegalPolicy()]


def wild_draw_four_on_seat_0() -> GameState:
    """Seat 1 has played W+4 (holding red: a bluff) and named blue; seat 0 must answer."""
    state = table(["G1 G2 G3", "W+4 R3 R4"], discard="R5", current=1)
    return after(state, play(1, "W+4"), choose_color(1, "B"))


def seat_0_forgot_uno() -> GameState:
    state = table(["R1 Y2", "G1 G2 G3", "B1 B2 B3"], discard="R5", current=0)
    return after(state, play(0, "R1"))


def test_random_plays_uniformly_among_the_legal_plays_and_never_draws_then() -> None:
    state = table(["R1 R2 B5 G7 W", "G1 G2"], discard="R5")
    picks = Counter(RandomPolicy().choose(seen(state, 0), rng(i)).code for i in range(400))
    assert set(picks) == {"p.R1", "p.R2", "p.B5", "p.W"}
    assert min(picks.values()) > 60  # about 100 each


def test_random_draws_only_without_a_play_and_then_plays_what_it_drew() -> None:
    state = table(["G7 B3 Y2", "G1 G2"], discard="R5", draw_pile="R9 Y1")
    action = RandomPolicy().choose(seen(state, 0), rng())
    assert action.type is ActionType.DRAW
    state = after(state, action)
    assert state.pending is not None and state.pending.kind is PendingKind.PLAY_DRAWN
    assert RandomPolicy().choose(seen(state, 0), rng()).code == "p.R9"


def test_first_legal_plays_the_first_play_in_hand_order_and_names_the_first_colour() -> None:
    state = table(["G7 B5 R1 W", "G1 G2"], discard="R5")
    action = FirstLegalPolicy().choose(seen(state, 0), rng())
    assert action.code == "p.B5"
    state = after(table(["W G7 Y2", "G1 G2"], discard="R5"), play(0, "W"))
    assert FirstLegalPolicy().choose(seen(state, 0), rng()).code == "c.R"


@pytest.mark.parametrize("policy", BASELINES, ids=lambda p: p.name)
def test_baselines_always_call_uno(policy: RandomPolicy | FirstLegalPolicy) -> None:
    """RULES.md §2 "UNO": called with two cards, before the play."""
    state = table(["R1 R2", "G1 G2"], discard="R5")
    for i in range(20):
        assert policy.choose(seen(state, 0), rng(i)).type is ActionType.CALL_UNO


@pytest.mark.parametrize("policy", BASELINES, ids=lambda p: p.name)
def test_baselines_never_challenge(policy: RandomPolicy | FirstLegalPolicy) -> None:
    """RULES.md §2 "Challenge": the baselines always take the cards, even from a bluff."""
    state = wild_draw_four_on_seat_0()
    given = seen(state, 0)
    assert given.pending is not None and given.pending.challengeable
    for i in range(50):
        assert policy.choose(given, rng(i)).type is ActionType.ACCEPT


@pytest.mark.parametrize("policy", BASELINES, ids=lambda p: p.name)
def test_baselines_never_catch_a_player_who_forgot_uno(
    policy: RandomPolicy | FirstLegalPolicy,
) -> None:
    state = seat_0_forgot_uno()
    assert state.uno_window == 0
    for seat in (1, 2):
        given = seen(state, seat)
        assert any(a.type is ActionType.CATCH for a in given.legal)
        assert policy.react(given, rng()) is None
    assert policy.choose(seen(state, 1), rng()).type is not ActionType.CATCH
    # The player who forgot still calls it while the window is open.
    assert policy.react(seen(state, 0), rng()).code == "u"  # type: ignore[union-attr]


@pytest.mark.parametrize("policy", BASELINES, ids=lambda p: p.name)
def test_baselines_stack_when_they_can(policy: RandomPolicy | FirstLegalPolicy) -> None:
    """Progressive Draw (RULES.md §2 "House rules"): a stacked +2 is a play."""
    state = table(
        ["G1 R+2 G3", "R+2 B4 B5"], discard="R5", current=1, options=Options(progressive_draw=True)
    )
    state = after(state, play(1, "R+2"))
    assert policy.choose(seen(state, 0), rng()).code == "p.R+2"


def test_the_registry_names_every_policy_and_refuses_an_unknown_one() -> None:
    assert get_policy("random").name == "random"
    assert get_policy("first").name == "first"
    assert get_policy("strong").name == "strong"
    assert get_policy("hard").name == "hard"
    with pytest.raises(UnknownPolicy, match="known: first, hard, random, strong"):
        get_policy("clever")
