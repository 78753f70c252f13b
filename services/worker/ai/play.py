"""``make play``: a game between AI players in the terminal, every player's view shown.

Runs on the pure rules engine alone (no bot token, no Docker, no Redis): the arena deals a
seeded game, hands each seat only its own view, and prints, for every action, the view
the acting player decided from (the table, the seats and their own hand and choices), what
they did, and what happened (public events, and each private one marked with its
addressee).  The same seed replays the same game.

    python -m services.worker.ai.play [--variant classic] [--players 4] [--seed 7]
        [--policy strong | --policies strong,random,first,strong] [--rounds 1]
        [--house-rule progressive_draw ...] [--target-score 200] [--quiet] [--no-legend]

It opens with a legend of the card and action codes it prints (``legend.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from services.engine.rules import VARIANTS, Event, GameState, Options, SetupError, new_game
from services.engine.rules.transcript import render_event, render_view
from services.engine.rules.variant import HouseRule

from . import POLICIES, Policy, get_policy
from .arena import Arena, Turn, seat_names
from .legend import legend


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="make play ARGS=...",
        description="A game of UNO between AI players, every player's view shown.",
    )
    parser.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
    parser.add_argument("--players", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--policy", default=None, choices=sorted(POLICIES), help="one policy for every seat"
    )
    who.add_argument(
        "--policies",
        default=None,
        help="comma-separated policy per seat, e.g. strong,random,first (default: strong "
        "at seat 0, then random and first in turn)",
    )
    parser.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    parser.add_argument(
        "--house-rule",
        action="append",
        default=[],
        choices=[r.value for r in HouseRule],
        help="turn a house rule on (repeatable)",
    )
    parser.add_argument("--target-score", type=int, default=None)
    parser.add_argument(
        "--quiet", action="store_true", help="print the events only, not every player's view"
    )
    parser.add_argument(
        "--no-legend", action="store_true", help="leave out the legend of card and action codes"
    )
    args = parser.parse_args(argv)
    if args.players < 1:
        parser.error("--players must be at least 1")
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def seat_policies(args: argparse.Namespace) -> list[Policy]:
    if args.policies:
        names = [n.strip() for n in args.policies.split(",") if n.strip()]
        if len(names) != args.players:
            raise ValueError(f"--policies names {len(names)} seats but --players is {args.players}")
    elif args.policy:
        names = [args.policy] * args.players
    else:
        rotation = ("strong", "random", "first")
        names = [rotation[i % len(rotation)] for i in range(args.players)]
    return [get_policy(n) for n in names]


class Printer:
    """Writes the game as it goes; an arena observer."""

    def __init__(self, names: Sequence[str], out: TextIO, quiet: bool) -> None:
        self.names = list(names)
        self.out = out
        self.quiet = quiet

    def events(self, events: Sequence[Event], indent: str = "  ") -> None:
        for event in events:
            self.out.write(f"{indent}{render_event(event, self.names)}\n")

    def __call__(self, turn: Turn) -> None:
        who = self.names[turn.seat]
        if not self.quiet:
            self.out.write(f"\n[{who}'s view]\n")
            for line in render_view(turn.view).splitlines():
                self.out.write(f"  {line}\n")
        when = " (out of turn)" if turn.out_of_turn else ""
        self.out.write(f"{who}{when}: {turn.action.code}\n")
        self.events(turn.events)


def play(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> GameState:
    args = parse_args(argv)
    policies = seat_policies(args)
    names = seat_names(policies)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    options = replace(
        Options(target_score=args.target_score), **{rule: True for rule in args.house_rule}
    )
    state, dealt = new_game(args.variant, names, options, seed=seed)
    variant = VARIANTS[args.variant]
    if not args.no_legend:
        out.write(legend() + "\n\n")
    out.write(f"{variant.title}: {', '.join(names)}; seed {seed}\n")
    out.write(f"replay: make play ARGS='--variant {args.variant} --players {args.players} ")
    out.write(f"--seed {seed} --policies {','.join(p.name for p in policies)}'\n\n")
    printer = Printer(names, out, args.quiet)
    printer.events(dealt)
    # The AI's own randomness is seeded apart from the deal's: no policy can reach the deck.
    arena = Arena(policies, random.Random(f"ai:{seed}"), observer=printer)
    state = arena.play_game(state, rounds=args.rounds)
    scores = ", ".join(f"{n} {p.score}" for n, p in zip(names, state.players, strict=True))
    if state.winner is not None:
        out.write(f"\n{names[state.winner]} wins the game. Scores: {scores}\n")
    else:
        out.write(f"\nStopped after {state.round - 1} round(s). Scores: {scores}\n")
    return state


def main(argv: Sequence[str] | None = None) -> int:
    try:
        play(argv)
    except (SetupError, ValueError, KeyError) as error:
        print(f"play: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
