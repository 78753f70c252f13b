"""An AI player never receives more than its own player's view (STYLE.md "Hidden
information leaves through one door"; RULES.md §3 "What is visible" for Flip's backs).

The arena hands a policy exactly ``view(state, seat)`` and a random generator of its own;
nothing reachable from those arguments is game state (no hand but its own, no draw pile
order, no seed, no bluff flag), and a policy that reaches for more finds nothing."""

from __future__ import annotations

import gc
import random
import types
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest

from services.engine.rules import (
    VARIANTS,
    Action,
    GameState,
    Options,
    Pending,
    View,
    new_game,
    view,
)
from services.engine.rules.state import PlayerState, Reveal
from services.worker.ai import Policy, get_policy
from services.worker.ai.arena import Arena, seat_names
from tests.helpers.ai import quick_policy

STATE_TYPES = (GameState, PlayerState, Pending, Reveal)


@dataclass
class Spy:
    """Plays like the strong policy and keeps every argument it was given."""

    name: str = "strong"
    seen: list[tuple[str, View, random.Random]] = field(default_factory=list)
    inner: Policy = field(default_factory=lambda: get_policy("strong").for_game())

    def for_game(self) -> Spy:
        return self

    def choose(self, view: View, rng: random.Random) -> Action:
        self.seen.append(("choose", view, rng))
        return self.inner.choose(view, rng)

    def react(self, view: View, rng: random.Random) -> Action | None:
        self.seen.append(("react", view, rng))
        return self.inner.react(view, rng)


def reachable(*roots: Any) -> list[Any]:
    """Every object reachable from ``roots`` through data (not through classes, modules or
    functions, which are the program, not the game)."""
    out: list[Any] = []
    seen_ids: set[int] = set()
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen_ids or isinstance(
            obj, type | types.ModuleType | types.FunctionType | types.BuiltinFunctionType
        ):
            continue
        seen_ids.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


@pytest.mark.parametrize("policy", ["strong", "hard"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_policy_gets_exactly_its_seats_view_and_nothing_reaches_the_state(
    variant: str, policy: str
) -> None:
    """The view a policy is given equals ``view(state, seat)`` of the state it decides
    on, for the owed decision and for out-of-turn chances alike (the hard player, which
    builds states of its own to search, included: they are guesses made from the view)."""
    options = Options(jump_in="jump_in" in {r.value for r in VARIANTS[variant].house_rules})
    spies = [Spy(inner=quick_policy(policy).for_game()) for _ in range(3)]
    state, _ = new_game(variant, seat_names(spies), options, seed=11)
    arena = Arena(spies, random.Random(11))
    checked = 0
    # Rounds can be short: play on into the next deals until enough views are checked.
    while state.pending is not None and checked <= 40:
        for spy in spies:
            spy.seen.clear()
        before = state
        state = arena.step(state)
        for seat, spy in enumerate(spies):
            for _, given, rng in spy.seen:
                assert type(given) is View
                assert given == view(before, seat)
                assert type(rng) is random.Random
                assert not [o for o in reachable(given, rng) if isinstance(o, STATE_TYPES)]
                checked += 1
    assert checked > 40


def test_flip_view_shows_opponents_backs_but_never_the_own_hands_other_side() -> None:
    """RULES.md §3 "What is visible": a Flip player sees the other side of every
    opponent's card and of the draw pile's top, never the other side of their own."""
    spy = Spy()
    state, _ = new_game("flip", ["a", "b", "c"], seed=5)
    arena = Arena([spy, get_policy("random"), get_policy("first")], random.Random(5))
    while not any(kind == "choose" for kind, _, _ in spy.seen):
        state = arena.step(state)
    _, given, _ = next(s for s in spy.seen if s[0] == "choose")
    assert given.seats[0].back_faces is None
    assert all(s.back_faces is not None for s in given.seats[1:])
    assert given.draw_pile_back is not None
    assert all("/" not in code for code in given.hand)
    assert all(a.card is None or a.card.dark is None for a in given.legal)


def test_a_policy_that_reaches_for_the_state_finds_nothing_to_reach() -> None:
    state, _ = new_game("classic", ["a", "b"], seed=3)
    given = view(state, 0)
    with pytest.raises(AttributeError):
        given.state  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(AttributeError):
        given.__dict__  # noqa: B018
    with pytest.raises(FrozenInstanceError):
        given.hand = state.players[1].hand  # type: ignore[misc, assignment]
    # Everything it holds is public: its own hand, and the others only as counts.
    assert given.hand == tuple(c.code for c in state.players[0].hand)
    assert [s.cards for s in given.seats] == [len(p.hand) for p in state.players]
    assert not [o for o in reachable(given) if isinstance(o, STATE_TYPES)]
    # ... and the search would have found the state had it been there.
    assert [o for o in reachable([given, state]) if isinstance(o, GameState)] == [state]
