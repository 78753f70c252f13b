"""Games and rounds between AI players on the pure rules engine (no service, no Redis).

The arena plays the part the engine service and the bot play in a chat: it owns the state,
hands each seat only ``view(state, seat)``, checks every answer against that view's legal
actions and applies it.  Used by ``play.py`` (``make play``), ``bench/ai_strength.py`` and
the tests.

One step of the loop: first every seat that may act out of turn right now (call UNO, catch,
jump in) is asked, in an order drawn at random (who is quickest in a chat is a race); then
the seat owing the pending decision is asked.  A frozen Minions player who acts when no
decision of theirs is owed pays the Dumb Fu penalty, which the engine charges (RULES.md §6).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from services.engine.rules import (
    Action,
    Applied,
    Event,
    EventType,
    GameState,
    Options,
    View,
    apply,
    legal_actions,
    new_game,
    view,
)

from .policy import IllegalChoice, Policy

# A round of UNO is a few hundred actions at most; a runaway loop is a bug, not a long game.
MAX_ACTIONS_PER_ROUND = 20_000


@dataclass(frozen=True, slots=True)
class Turn:
    """One action taken by an AI player, for observers (the terminal renderer)."""

    seat: int
    view: View  # what the seat saw when it decided
    action: Action
    out_of_turn: bool
    state: GameState  # the state after the action
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    winner: int
    points: tuple[int, ...]  # each seat's score gained in the round (knock-outs included)
    actions: int


Observer = Callable[[Turn], None]


@dataclass
class Arena:
    """Seats AI players at one game.  ``rng`` drives the policies and the out-of-turn race;
    it is separate from the game's own seeded randomness, which no policy can reach."""

    policies: Sequence[Policy]
    rng: random.Random = field(default_factory=random.Random)
    observer: Observer | None = None
    # Per policy name, the seconds each decision took (filled only when not None).
    latencies: dict[str, list[float]] | None = None

    def __post_init__(self) -> None:
        # Each seat gets its own player for this game: a policy that remembers its seat's
        # earlier views (``Policy.for_game``) starts afresh and never shares a memory.
        self.seated: list[Policy] = [p.for_game() for p in self.policies]

    def step(self, state: GameState) -> GameState:
        """Let the table take one action (an out-of-turn one, or the owed decision)."""
        return self._step(state)[0]

    def _step(self, state: GameState) -> tuple[GameState, tuple[Event, ...]]:
        pending = state.pending
        if pending is None:
            raise ValueError("the game is over")
        reactors = [
            seat
            for seat in range(len(state.players))
            if seat != pending.player and legal_actions(state, seat)
        ]
        self.rng.shuffle(reactors)
        for seat in reactors:
            seen = view(state, seat)
            action = self._ask(seat, seen, owed=False)
            if action is not None:
                return self._apply(state, seat, seen, action, out_of_turn=True)
        seat = pending.player
        seen = view(state, seat)
        action = self._ask(seat, seen, owed=True)
        assert action is not None
        return self._apply(state, seat, seen, action, out_of_turn=False)

    def play_round(self, state: GameState) -> tuple[GameState, RoundResult]:
        """Play until the round in progress ends; the state then holds the next deal (or the
        finished game)."""
        start_round = state.round
        before = tuple(p.score for p in state.players)
        for count in range(1, MAX_ACTIONS_PER_ROUND + 1):
            state, ended = self._step_watching(state)
            if ended is not None:
                winner, scores = ended
                points = tuple(after - b for after, b in zip(scores, before, strict=True))
                return state, RoundResult(start_round, winner, points, count)
        raise RuntimeError(f"round {start_round} did not end in {MAX_ACTIONS_PER_ROUND} actions")

    def play_game(self, state: GameState, rounds: int | None = None) -> GameState:
        """Play whole rounds until the game is won, or ``rounds`` rounds have been played."""
        played = 0
        while not state.is_over and (rounds is None or played < rounds):
            state, _ = self.play_round(state)
            played += 1
        return state

    # -- internals ------------------------------------------------------------------------

    def _step_watching(self, state: GameState) -> tuple[GameState, tuple[int, list[int]] | None]:
        state, events = self._step(state)
        for event in events:
            if event.type is EventType.ROUND_ENDED:
                return state, (int(event.data["winner"]), list(event.data["scores"]))
        return state, None

    def _ask(self, seat: int, seen: View, owed: bool) -> Action | None:
        policy = self.seated[seat]
        started = time.perf_counter()
        action = policy.choose(seen, self.rng) if owed else policy.react(seen, self.rng)
        if self.latencies is not None:
            self.latencies.setdefault(policy.name, []).append(time.perf_counter() - started)
        if action is None:
            if owed:
                raise IllegalChoice(f"{policy.name} (seat {seat}) owed a decision and gave none")
            return None
        if action not in seen.legal:
            raise IllegalChoice(
                f"{policy.name} (seat {seat}) chose {action.code!r}, "
                f"not one of {list(seen.legal_codes)}"
            )
        return action

    def _apply(
        self, state: GameState, seat: int, seen: View, action: Action, out_of_turn: bool
    ) -> tuple[GameState, tuple[Event, ...]]:
        # A frozen Minions player's out-of-turn move costs its 4 cards inside ``apply``
        # (RULES.md §6 [decision frozen-call-or-catch]).
        state, events = _apply_or_raise(state, action)
        if self.observer is not None:
            self.observer(Turn(seat, seen, action, out_of_turn, state, events))
        return state, events


def _apply_or_raise(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    result = apply(state, action)
    if not isinstance(result, Applied):
        raise IllegalChoice(f"the engine refused {action}: {result.message}")
    return result.state, result.events


def seat_names(policies: Sequence[Policy]) -> list[str]:
    return [f"{p.name}-{i}" for i, p in enumerate(policies)]


def play_one_round(
    variant: str,
    policies: Sequence[Policy],
    seed: int,
    options: Options | None = None,
    rng: random.Random | None = None,
    observer: Observer | None = None,
) -> RoundResult:
    """Deal a fresh game from ``seed`` and play its first round (the bench's unit)."""
    state, _ = new_game(variant, seat_names(policies), options, seed=seed)
    arena = Arena(policies, rng or random.Random(seed ^ 0x5EED), observer=observer)
    _, result = arena.play_round(state)
    return result
