"""How Wild Draw Fours are played and answered in 2-player Classic between AI players:
per hand size left after the card, how many were played, how many were bluffs (the player
held the colour in play), and how the victim answered (challenged or accepted).

The figures behind ``sampling.may_bluff`` and the hard player's refusal to challenge:
``strong`` bluffs only from a hand too small to be challenged, yet challenges on the odds
of a hand of that size.  ``--subject`` plays one seat (rotating), ``strong`` the other.

    .venv/bin/python bench/wild_draw_challenges.py [--subject strong] [--rounds 400]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.engine.rules import ActionType, PendingKind
from services.worker.ai import get_policy
from services.worker.ai.arena import Turn, play_one_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subject", default="strong", help="the policy answering (strong, hard)")
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20_000, help="first deal's seed")
    args = parser.parse_args()
    strong, subject = get_policy("strong"), get_policy(args.subject)
    played: Counter[tuple[int, bool]] = Counter()  # (cards left, bluffed)
    # Every answer the subject's policy gave (strong against strong: both seats').
    answers: Counter[tuple[int, bool, ActionType]] = Counter()
    owed: dict[str, tuple[int, bool]] = {}
    names: list[str] = []

    def watch(turn: Turn) -> None:
        pending = turn.state.pending
        if turn.action.type in (ActionType.CHALLENGE, ActionType.ACCEPT):
            left, bluffed = owed.pop("card")
            if names[turn.seat] == args.subject:
                answers[(left, bluffed, turn.action.type)] += 1
        elif (
            pending is not None
            and pending.kind is PendingKind.RESPOND_TO_DRAW
            and pending.challengeable
            and pending.source is not None
        ):
            owed["card"] = (len(turn.state.players[pending.source].hand), pending.bluffed)
            played[owed["card"]] += 1

    for index in range(args.rounds):
        seat = index % 2
        policies = [strong, strong]
        policies[seat] = subject
        names[:] = [p.name for p in policies]
        play_one_round("classic", policies, args.seed + index, observer=watch)

    print(f"2-player Classic, {args.subject} against strong, {args.rounds} rounds")
    print(f"{'cards left':>10}  {'played':>6}  {'bluffs':>6}  {args.subject + ' challenged':>18}")
    print(f"{'':>10}  {'':>6}  {'':>6}  {'(of its answers)':>18}")
    for left in sorted({left for left, _ in played}):
        n = played[(left, False)] + played[(left, True)]
        asked = sum(c for (lf, _, _), c in answers.items() if lf == left)
        challenged = sum(
            c for (lf, _, a), c in answers.items() if lf == left and a is ActionType.CHALLENGE
        )
        print(f"{left:>10}  {n:>6}  {played[(left, True)]:>6}  {f'{challenged}/{asked}':>18}")
    big = [(k, c) for k, c in played.items() if k[0] >= 2]
    total = sum(c for _, c in big)
    bluffs = sum(c for (_, bluffed), c in big if bluffed)
    challenged = sum(
        c for (lf, _, a), c in answers.items() if lf >= 2 and a is ActionType.CHALLENGE
    )
    print(
        f"\nfrom two cards or more: {total} played, {bluffs} bluffs ({bluffs / total:.1%}); "
        f"{args.subject} challenged {challenged}"
    )


if __name__ == "__main__":
    main()
