"""Helpers for the rules tests: scripted tables in RULES.md §1 notation, and assertions
that an action was applied or refused (a refusal must leave the state exactly as it was)."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from services.engine.rules import (
    Action,
    ActionType,
    Applied,
    Event,
    EventType,
    GameState,
    Kind,
    Reason,
    Rejected,
    Setup,
    apply,
    from_setup,
    legal_actions,
    to_json,
)
from services.engine.rules.actions import catch, play
from services.engine.rules.variants import get_variant


def table(
    hands: Sequence[str],
    discard: str = "",
    draw_pile: str = "",
    **kw: Any,
) -> GameState:
    """A scripted table; with an empty ``discard`` the round is about to start."""
    return table_with_events(hands, discard, draw_pile, **kw)[0]


def table_with_events(
    hands: Sequence[str], discard: str = "", draw_pile: str = "", **kw: Any
) -> tuple[GameState, tuple[Event, ...]]:
    """A scripted table and the events of setting it up (the first card turned up)."""
    return from_setup(Setup(hands=list(hands), discard=discard, draw_pile=draw_pile, **kw))


def ok(state: GameState, action: Action) -> Applied:
    """Apply an action that must be legal; return the result."""
    result = apply(state, action)
    assert isinstance(result, Applied), f"{action} refused: {result}"
    assert result.state.version == state.version + 1
    return result


def after(state: GameState, *actions: Action) -> GameState:
    """The state after a sequence of legal actions."""
    for action in actions:
        state = ok(state, action).state
    return state


def refused(state: GameState, action: Action, reason: Reason) -> Rejected:
    """Apply an action that must be refused for ``reason``; the state must be untouched."""
    before = to_json(state)
    result = apply(state, action)
    assert isinstance(result, Rejected), f"{action} was applied, expected {reason}"
    assert result.reason is reason, f"{action}: {result.reason} ({result.message}), not {reason}"
    assert result.message
    assert to_json(state) == before
    return result


def hand(state: GameState, seat: int) -> list[str]:
    return [c.code for c in state.hand(seat)]


def pile(cards: Iterable[Any]) -> list[str]:
    return [c.code for c in cards]


def types(events: Iterable[Event]) -> list[EventType]:
    return [e.type for e in events]


def of_type(events: Iterable[Event], kind: EventType) -> list[Event]:
    return [e for e in events if e.type is kind]


def all_cards(state: GameState) -> Counter[Any]:
    """Every card on the table, as a multiset."""
    found: Counter[Any] = Counter()
    for p in state.players:
        found.update(p.hand)
    found.update(state.draw_pile)
    found.update(state.discard)
    found.update(state.set_aside)
    return found


def deck_of(state: GameState) -> Counter[Any]:
    return Counter(get_variant(state.variant).deck)


def added_to_classic(variant: str) -> Counter[str]:
    """The card codes a variant's deck adds to Classic's 108 (RULES.md §5, §6); it must
    take none away."""
    deck = Counter(c.code for c in get_variant(variant).deck)
    classic = Counter(c.code for c in get_variant("classic").deck)
    assert classic - deck == Counter()
    return deck - classic


def assert_classic_apart_from(variant: str, own: set[Kind]) -> None:
    """RULES.md §5, §6 "Everything else is Classic": apart from its ``own`` cards, the
    variant plays Classic's card rules (first-card rules, the W+4 challenge, points), deal,
    draw, house rules and target; a round reaching 500 ends the game, and UNO is caught."""
    v, classic = get_variant(variant), get_variant("classic")
    assert set(v.rules) - set(classic.rules) == own
    for kind, rule in classic.rules.items():
        assert v.rules[kind] == rule, kind
    assert v.seven_o_rules == classic.seven_o_rules
    assert v.house_rules == classic.house_rules
    same = ("hand_size", "target_score", "min_players", "max_players", "draw_policy")
    same += ("must_play_drawn", "draw_only_when_stuck", "stacking", "mercy_limit")
    for name in same:
        assert getattr(v, name) == getattr(classic, name), name
    for before, winner in ((0, None), (443, 0)):
        state = table(
            ["B1", "W R5", "G2"], discard="B5", current=0, variant=variant, scores=[before, 0, 0]
        )
        result = ok(state, play(0, "B1"))
        assert result.state.players[0].score == before + 57
        assert result.state.winner == winner
    state = table(["R1 R2", "B1 B2"], discard="R5", draw_pile="Y1 Y2", current=0, variant=variant)
    state = after(state, play(0, "R1"))
    assert state.uno_window == 0
    assert hand(after(state, catch(1, 0)), 0) == ["R2", "Y1", "Y2"]


def examples(base: int) -> int:
    """Hypothesis example count, scaled by ``UNO_RULES_EXAMPLES`` for thorough runs."""
    return max(1, int(base * float(os.environ.get("UNO_RULES_EXAMPLES", "1"))))


def random_action(state: GameState, rng: random.Random, others: float = 0.15) -> Action:
    """Mostly the owed player, uniformly among their legal actions; sometimes another
    player calls, catches or jumps in, or the service closes the UNO window or reports a
    frozen player's move (``others``: how often another player is tried first; a smaller
    share lets more random games reach their end)."""
    assert state.pending is not None
    roll = rng.random()
    if roll < others:
        seats = list(range(len(state.players)))
        rng.shuffle(seats)
        for seat in seats:
            if seat == state.pending.player:
                continue
            actions = legal_actions(state, seat)
            if actions:
                return rng.choice(actions)
    if roll < others + 0.05 and state.uno_window is not None:
        return Action(ActionType.CLOSE_UNO_WINDOW)
    if roll < others + 0.07:
        frozen = [i for i, p in enumerate(state.players) if p.frozen]
        if frozen:
            return Action(ActionType.FROZEN_MOVED, target=rng.choice(frozen))
    return rng.choice(legal_actions(state, state.pending.player))
