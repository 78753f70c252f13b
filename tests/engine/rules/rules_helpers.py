"""Helpers for the rules tests: scripted tables in RULES.md §1 notation, and assertions
that an action was applied or refused (a refusal must leave the state exactly as it was)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from services.engine.rules import (
    Action,
    Applied,
    Event,
    EventType,
    GameState,
    Reason,
    Rejected,
    Setup,
    apply,
    from_setup,
    to_json,
)
from services.engine.rules.variants import get_variant


def table(
    hands: Sequence[str],
    discard: str = "",
    draw_pile: str = "",
    **kw: Any,
) -> GameState:
    """A scripted table; with an empty ``discard`` the round is about to start."""
    state, _ = from_setup(Setup(hands=list(hands), discard=discard, draw_pile=draw_pile, **kw))
    return state


def table_with_events(
    hands: Sequence[str], discard: str = "", draw_pile: str = "", **kw: Any
) -> tuple[GameState, tuple[Event, ...]]:
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


def examples(base: int) -> int:
    """Hypothesis example count, scaled by ``UNO_RULES_EXAMPLES`` for thorough runs."""
    return max(1, int(base * float(os.environ.get("UNO_RULES_EXAMPLES", "1"))))
