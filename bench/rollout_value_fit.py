"""How well the hard player's rollout value predicts who wins a round, and what a refit gives.

``services/worker/ai/rollout.py`` values a rollout cut short by a softmax of a score per
seat (hand size, wilds, action cards, the move), fitted on strong players' rounds at that
table (or, for a table without weights of its own, on 2-player Classic's).  This script
plays such rounds again (strong at every seat, fresh deals from ``--seed``), keeps every
third state of each round labelled with the round's winner, holds out ``--test-share`` of
the rounds, and prints per player count the held-out log-likelihood per state of:

- the coin: every standing seat equally likely;
- ``rollout.value`` as it is (the table's weights);
- the same features refitted on these rounds (maximum likelihood, conditional logit, by
  Newton's method);
- that refit plus the seat's place in the order of play after the seat to move (next,
  the one after): with 4 players, who moves sooner may matter beyond the move itself.

Higher is better; the coin is the floor.  The refits' weights are printed beside, in
``ValueWeights``' order, so a refit that predicts better can be copied into
``rollout.TABLE_WEIGHTS``.

    .venv/bin/python bench/rollout_value_fit.py [--rounds 2500] [--players 2 4]
        [--variant classic] [--seed 70000]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.engine.rules import GameState
from services.worker.ai import get_policy
from services.worker.ai.arena import Turn, play_one_round
from services.worker.ai.rollout import CLASSIC_TWO, value, value_weights

LAST = len(CLASSIC_TWO.hand_score) - 1
# Feature order: hand sizes 2..LAST (a hand of 0 or 1 card scores 0), the slope beyond,
# wilds, action cards, the move; then, for the order refit, the next seat and the one after.
SIZE_FEATURES = LAST - 1
BASE_FEATURES = SIZE_FEATURES + 4
ORDER_FEATURES = BASE_FEATURES + 2

# A state: per standing seat its sparse features (index -> value); and the winner's place
# in that list.
Sample = tuple[list[dict[int, float]], int]


def features(state: GameState, seat: int, with_order: bool) -> dict[int, float]:
    side = state.side
    hand = state.players[seat].hand
    n = len(hand)
    x: dict[int, float] = {}
    if 2 <= n <= LAST:
        x[n - 2] = 1.0
    elif n > LAST:
        x[LAST - 2] = 1.0
        x[SIZE_FEATURES] = float(n - LAST)
    wilds = sum(1 for c in hand if c.face(side).color is None)
    actions = sum(
        1 for c in hand if c.face(side).color is not None and not c.face(side).kind.is_number
    )
    if wilds:
        x[SIZE_FEATURES + 1] = float(wilds)
    if actions:
        x[SIZE_FEATURES + 2] = float(actions)
    owing = state.pending.player if state.pending is not None else -1
    if seat == owing:
        x[SIZE_FEATURES + 3] = 1.0
    if with_order and owing >= 0:
        places = (seat - owing) * state.direction % len(state.players)
        if places in (1, 2):
            x[BASE_FEATURES + places - 1] = 1.0
    return x


def play_rounds(
    variant: str, players: int, rounds: int, seed: int
) -> list[tuple[list[GameState], int]]:
    """Per round: every third state before it ended (strong at every seat), and its winner."""
    out = []
    strong = get_policy("strong")
    for index in range(rounds):
        states: list[GameState] = []

        def keep(turn: Turn, states: list[GameState] = states) -> None:
            if turn.state.pending is not None:
                states.append(turn.state)

        result = play_one_round(variant, [strong] * players, seed + index, observer=keep)
        # The last state is the next deal's, not this round's.
        out.append((states[:-1][::3], result.winner))
    return out


def samples(rounds: Sequence[tuple[list[GameState], int]], with_order: bool) -> list[Sample]:
    out: list[Sample] = []
    for states, winner in rounds:
        for state in states:
            seats = [s for s, p in enumerate(state.players) if not p.knocked_out]
            if winner not in seats:
                continue
            out.append(([features(state, s, with_order) for s in seats], seats.index(winner)))
    return out


def log_likelihood(data: Sequence[Sample], w: Sequence[float]) -> float:
    total = 0.0
    for seats, winner in data:
        scores = [sum(w[i] * v for i, v in x.items()) for x in seats]
        top = max(scores)
        total += scores[winner] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total / len(data)


# A small ridge keeps a feature that never occurs from making Newton's system singular.
RIDGE = 1e-3


def objective(data: Sequence[Sample], w: Sequence[float]) -> float:
    """What ``fit`` maximises: the log-likelihood of all states, less the ridge."""
    return len(data) * log_likelihood(data, w) - RIDGE / 2 * sum(v * v for v in w)


def fit(data: Sequence[Sample], size: int, iterations: int = 25) -> list[float]:
    """Maximum likelihood of the conditional logit (with the ridge), by Newton's method."""
    w = [0.0] * size
    for _ in range(iterations):
        grad = [0.0] * size
        hess = [[0.0] * size for _ in range(size)]
        for seats, winner in data:
            scores = [sum(w[i] * v for i, v in x.items()) for x in seats]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            probs = [e / total for e in exps]
            mean: dict[int, float] = {}
            for p, x in zip(probs, seats, strict=True):
                for i, v in x.items():
                    mean[i] = mean.get(i, 0.0) + p * v
                    for j, u in x.items():
                        hess[i][j] -= p * v * u
            for i, v in seats[winner].items():
                grad[i] += v
            for i, m in mean.items():
                grad[i] -= m
                for j, n in mean.items():
                    hess[i][j] += m * n
        for i in range(size):
            grad[i] -= RIDGE * w[i]
            hess[i][i] -= RIDGE
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a system of twenty unknowns at most)."""
    n = len(rhs)
    a = [[*row, b] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def current_weights(variant: str, players: int) -> list[float]:
    """``rollout.py``'s weights for this table in this script's feature order."""
    w = value_weights(variant, players)
    return [*w.hand_score[2:], w.slope, w.wild, w.action, w.to_move]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2500, help="per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--test-share", type=float, default=0.3)
    args = parser.parse_args()
    for players in args.players:
        rounds = play_rounds(args.variant, players, args.rounds, args.seed)
        cut = round(len(rounds) * (1 - args.test_share))
        train, test = rounds[:cut], rounds[cut:]
        base_train, base_test = samples(train, False), samples(test, False)
        order_train, order_test = samples(train, True), samples(test, True)
        coin = sum(-math.log(len(seats)) for seats, _ in base_test) / len(base_test)
        # rollout.value itself on the held-out states, as a check of the feature coding.
        direct = sum(
            math.log(max(value(state, winner), 1e-12))
            for states, winner in test
            for state in states
        ) / sum(len(states) for states, _ in test)
        refit = fit(base_train, BASE_FEATURES)
        order_refit = fit(order_train, ORDER_FEATURES)
        print(
            f"{args.variant}, {players} players: {len(rounds)} rounds, states {len(base_train)} "
            f"fitted / {len(base_test)} held out; held-out log-likelihood per state:"
        )
        print(f"  coin                 {coin:.3f}")
        now = log_likelihood(base_test, current_weights(args.variant, players))
        print(f"  rollout.value now    {now:.3f} (rollout.value called: {direct:.3f})")
        print(f"  refit                {log_likelihood(base_test, refit):.3f}")
        print(f"  refit + order        {log_likelihood(order_test, order_refit):.3f}")
        print("  refit weights:         " + " ".join(f"{v:.3f}" for v in refit))
        print("  refit + order weights: " + " ".join(f"{v:.3f}" for v in order_refit))


if __name__ == "__main__":
    main()
