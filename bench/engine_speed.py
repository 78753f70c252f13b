"""Speed of the rules engine under random legal play, with RLCard's UNO as a baseline.

Policy: the player owing a decision plays a card chosen uniformly among their legal plays,
draws only when they have none, always calls UNO and never challenges (colours, swaps and
other decisions uniformly).  Prints, for every variant in the registry and 2 and 4 players:
whole games (to the target score) per second, single rounds per second and decisions per
second.  When ``rlcard`` is importable (``make setup-bench``), RLCard's ``uno`` environment
with its random agents runs in the same process as a baseline (two players, one round is one
RLCard game), and the ratio of our two-player Classic rounds/s to its games/s is printed;
beside them, the same rounds in a bare loop with nothing around the rules (``bare_round``),
the floor any Python engine stands on.  Then the cost per decision of each engine call
(``legal_actions``, ``apply``, ``view``, ``to_json``, ``from_json``) over recorded 2-player
Classic rounds, and the size of a 4-player Classic state serialised as compact JSON.

Usage: .venv/bin/python bench/engine_speed.py [--seconds S]
Nothing here asserts on time; the figures are for reading.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.engine.rules import (
    VARIANTS,
    Action,
    ActionType,
    Applied,
    GameState,
    Options,
    apply,
    legal_actions,
    new_game,
    view,
)
from services.engine.rules.serialize import from_json, to_json

ONE_ROUND = Options(target_score=1)  # any round won with a card left elsewhere ends the game


def choose(state: GameState, rng: random.Random) -> Action:
    assert state.pending is not None
    actions = legal_actions(state, state.pending.player)
    calls = [a for a in actions if a.type is ActionType.CALL_UNO]
    if calls:
        return calls[0]
    plays = [a for a in actions if a.type is ActionType.PLAY]
    if plays:
        return rng.choice(plays)
    others = [a for a in actions if a.type is not ActionType.CHALLENGE]
    for kind in (ActionType.CHOOSE_COLOR, ActionType.SWAP, ActionType.ACCEPT, ActionType.DRAW):
        of_kind = [a for a in others if a.type is kind]
        if of_kind:
            return rng.choice(of_kind)
    return rng.choice(others or list(actions))


def play_game(variant: str, players: int, seed: int, options: Options | None) -> int:
    """Play one game; return the number of decisions taken."""
    rng = random.Random(seed)
    state, _ = new_game(variant, [f"P{i}" for i in range(players)], options, seed=seed)
    decisions = 0
    while state.pending is not None and decisions < 100_000:
        result = apply(state, choose(state, rng))
        assert isinstance(result, Applied), result
        state = result.state
        decisions += 1
    return decisions


def measure(
    variant: str, players: int, options: Options | None, seconds: float, first_seed: int = 0
) -> tuple[float, float]:
    """Games/s and decisions/s over at least ``seconds`` of play."""
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play_game(variant, players, first_seed + games, options)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and games >= 3:
            return games / elapsed, decisions / elapsed


def rlcard_env() -> Any | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    return env


def measure_rlcard(env: Any, seconds: float) -> tuple[float, float]:
    games = decisions = 0
    start = time.perf_counter()
    while True:
        trajectories, _ = env.run(is_training=False)
        # Each player's trajectory alternates state, action, ..., state.
        decisions += sum(len(t) // 2 for t in trajectories)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and games >= 3:
            return games / elapsed, decisions / elapsed


# -- the floor: a bare loop -------------------------------------------------------------------

_BARE_COLORS = "RYGB"
# (colour, kind): kinds 0-9 numbers, 10 S, 11 R, 12 +2, 13 W, 14 W+4; a colour of None is wild.
_BARE_DECK = [
    *((c, k) for c in _BARE_COLORS for k in (0, *(k for k in range(1, 13) for _ in (0, 1)))),
    *((None, k) for k in (13, 14) for _ in range(4)),
]


def bare_round(rng: random.Random) -> int:
    """One 2-player Classic round in a deliberately bare loop; returns its decisions.

    Not a rules engine: mutable lists of tuples, no state values, versions, events, owed
    decisions, UNO calls, challenges or validation, and the drawn card is kept. It is what
    the rules cost with nothing else around them, the floor any Python engine stands on:
    how far the engine is from it says what its architecture (an immutable state per
    action, events, explicit decisions) costs, and what a goal set against RLCard asks."""
    deck = _BARE_DECK[:]
    rng.shuffle(deck)
    hands, pile = [deck[:7], deck[7:14]], deck[14:]
    top = pile.pop()
    while top[0] is None:
        pile.insert(0, top)
        top = pile.pop()
    color, kind = top
    discard = [top]
    seat = decisions = 0
    while True:
        decisions += 1
        hand = hands[seat]
        plays = [c for c in hand if c[0] is None or c[0] == color or c[1] == kind]
        if not plays:
            if not pile:
                pile, discard = discard[:-1], discard[-1:]
                rng.shuffle(pile)
            if pile:
                hand.append(pile.pop())
            seat = 1 - seat
            continue
        card = plays[int(rng.random() * len(plays))]
        hand.remove(card)
        discard.append(card)
        kind = card[1]
        if card[0] is None:
            decisions += 1  # the colour choice
            color = _BARE_COLORS[int(rng.random() * 4)]
        else:
            color = card[0]
        if not hand:
            return decisions
        if kind in (12, 14):
            victim = hands[1 - seat]
            for _ in range(2 if kind == 12 else 4):
                if not pile:
                    pile, discard = discard[:-1], discard[-1:]
                    rng.shuffle(pile)
                if pile:
                    victim.append(pile.pop())
        if kind not in (10, 11, 12, 14):  # with two players S, R, +2 and W+4 play again
            seat = 1 - seat


def measure_bare(seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    rounds = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or rounds < 3:
        decisions += bare_round(rng)
        rounds += 1
    return rounds / elapsed, decisions / elapsed


def recorded_decisions(games: int) -> list[tuple[GameState, Action]]:
    """Every (state, chosen action) of ``games`` seeded 2-player Classic single rounds."""
    decisions = []
    for seed in range(games):
        rng = random.Random(seed)
        state, _ = new_game("classic", ["P0", "P1"], ONE_ROUND, seed=seed)
        while state.pending is not None:
            action = choose(state, rng)
            decisions.append((state, action))
            result = apply(state, action)
            assert isinstance(result, Applied), result
            state = result.state
    return decisions


def breakdown(seconds: float) -> dict[str, float]:
    """Microseconds per decision of each engine call, over recorded 2-player Classic rounds.

    Each pass runs one call over every recorded decision in order, so consecutive calls see
    different states and ``legal_actions`` computes every answer afresh; ``apply`` is timed
    the way callers use it, right after ``legal_actions`` for the same state (whose answer
    it reuses to validate), with that ``legal_actions`` time taken off.  Best pass of those
    fitting in ``seconds``.
    """
    decisions = recorded_decisions(40)
    jsons = [to_json(state) for state, _ in decisions]

    def legal() -> None:
        for state, _ in decisions:
            legal_actions(state, owed(state))

    def legal_then_apply() -> None:
        for state, action in decisions:
            legal_actions(state, owed(state))
            apply(state, action)

    def views() -> None:
        for state, _ in decisions:
            view(state, owed(state))

    def states_to_json() -> None:
        for state, _ in decisions:
            to_json(state)

    def states_from_json() -> None:
        for data in jsons:
            from_json(data)

    def best(run: Callable[[], None]) -> float:
        times: list[float] = []
        deadline = time.perf_counter() + seconds / 5
        while len(times) < 3 or time.perf_counter() < deadline:
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        return min(times) / len(decisions) * 1e6

    legal_us = best(legal)
    return {
        "legal_actions": legal_us,
        "apply": best(legal_then_apply) - legal_us,
        "view": best(views),
        "to_json": best(states_to_json),
        "from_json": best(states_from_json),
    }


def owed(state: GameState) -> int:
    assert state.pending is not None
    return state.pending.player


def state_size() -> int:
    state, _ = new_game("classic", ["Ana", "Ben", "Cy", "Dee"], seed=1)
    rng = random.Random(1)
    sizes = []
    for _ in range(200):
        if state.pending is None:
            break
        sizes.append(len(json.dumps(to_json(state), separators=(",", ":"))))
        result = apply(state, choose(state, rng))
        assert isinstance(result, Applied)
        state = result.state
    return max(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--slices", type=int, default=6, help="interleaved baseline slices")
    args = parser.parse_args()

    print(f"{'variant':<10} {'players':>7} {'games/s':>9} {'rounds/s':>9} {'decisions/s':>12}")
    for name in sorted(VARIANTS):
        for players in (2, 4):
            games, decisions = measure(name, players, None, args.seconds)
            rounds, _ = measure(name, players, ONE_ROUND, args.seconds)
            print(f"{name:<10} {players:>7} {games:>9.1f} {rounds:>9.1f} {decisions:>12.0f}")

    env = rlcard_env()
    if env is None:
        print("rlcard: not installed (make setup-bench) — no baseline")
    else:
        # Interleaved slices, best of each: a busy machine slows both sides alike.
        ours_best = theirs_best = bare_best = (0.0, 0.0)
        for slice_number in range(args.slices):
            ours = measure("classic", 2, ONE_ROUND, args.seconds / 2, 1000 * slice_number)
            theirs = measure_rlcard(env, args.seconds / 2)
            bare = measure_bare(args.seconds / 2)
            ours_best, theirs_best = max(ours_best, ours), max(theirs_best, theirs)
            bare_best = max(bare_best, bare)
        print(
            f"{'classic':<10} {2:>7} {'':>9} {ours_best[0]:>9.1f} {ours_best[1]:>12.0f}"
            "  (one round, interleaved with RLCard)"
        )
        print(f"{'rlcard uno':<10} {2:>7} {'':>9} {theirs_best[0]:>9.1f} {theirs_best[1]:>12.0f}")
        print(
            f"{'bare loop':<10} {2:>7} {'':>9} {bare_best[0]:>9.1f} {bare_best[1]:>12.0f}"
            "  (bare_round: the floor, not a rules engine)"
        )
        ratio = ours_best[0] / theirs_best[0]
        print(f"ratio ours/RLCard, 2-player rounds/s: {ratio:.1f}x (goal 10x)")
        print(
            f"ratio bare loop/RLCard: {bare_best[0] / theirs_best[0]:.1f}x; "
            f"ours/bare loop: {ours_best[0] / bare_best[0]:.2f}x"
        )

    costs = breakdown(args.seconds)
    print(
        "per decision, 2-player Classic (µs): "
        + "  ".join(f"{name} {us:.1f}" for name, us in costs.items())
    )
    print(f"4-player Classic state as compact JSON: {state_size()} bytes at most (goal 4096)")


if __name__ == "__main__":
    main()
