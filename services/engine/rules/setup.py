"""Creating games: a fresh game from a seed, or a table written out in the card notation
of RULES.md §1 (for scenario tests and the service's test-only endpoint).

A set-up names only the cards it needs.  With an empty discard pile it describes a round
*about to start*: hands dealt, draw pile given, and the first card is turned up from it
with its first-card rule.  Otherwise play resumes at ``current``, who owes a turn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .cards import Color, Side, cards
from .events import Event, EventType
from .round import deal, turn_up_first_card
from .state import GameState, Options, PlayerState
from .table import Table
from .variant import HouseRule, Variant
from .variants import get_variant


class SetupError(ValueError):
    """A set-up or new-game request that cannot describe a game."""


def check_options(variant: Variant[Table], options: Options) -> None:
    """Refuse options the variant does not offer (RULES.md §2 "House rules") or that make
    no sense, with a message saying why."""
    for house_rule in HouseRule:
        if getattr(options, house_rule.value):
            refusal = variant.house_rule_refusal(house_rule)
            if refusal is not None:
                raise SetupError(f"house rule {house_rule.value!r} is not offered: {refusal}")
    target = options.target_score
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise SetupError("the target score must be a whole number")
    if target is not None and target <= 0:
        raise SetupError("the target score must be above 0")


def new_game(
    variant: str,
    players: Sequence[str],
    options: Options | None = None,
    seed: int | None = None,
) -> tuple[GameState, tuple[Event, ...]]:
    """Shuffle, pick the dealer at random (RULES.md §2 "Deal" [digital]) and deal."""
    v = get_variant(variant)
    if not v.min_players <= len(players) <= v.max_players:
        raise SetupError(f"{v.title} takes {v.min_players}–{v.max_players} players")
    options = options or Options()
    check_options(v, options)
    if seed is None:
        seed = random.SystemRandom().getrandbits(63)
    state = GameState(
        variant=v.name,
        players=tuple(PlayerState(name) for name in players),
        draw_pile=(),
        discard=(),
        current=0,
        dealer=0,
        options=options,
        seed=seed,
        version=-1,  # the deal below is the first change: version 0
    )
    t = Table(state, v)
    t.dealer = t.rng().randrange(len(players))
    deal(t)
    return t.freeze(), tuple(t.events)


@dataclass
class Setup:
    """A table written out card by card.  Hands and piles are space-separated card codes;
    piles are listed top first."""

    hands: list[str]
    variant: str = "classic"
    names: list[str] | None = None
    draw_pile: str = ""
    discard: str = ""
    dealer: int = 0
    current: int | None = None  # default: the dealer's left
    direction: int = 1
    color: str | None = None  # default: the top card's colour
    side: str = "light"
    scores: list[int] | None = None
    options: Options = field(default_factory=Options)
    seed: int = 0
    round: int = 1

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise SetupError(f"unknown set-up fields: {', '.join(sorted(unknown))}")
        values = dict(data)
        if isinstance(values.get("options"), Mapping):
            try:
                values["options"] = Options(**values["options"])
            except TypeError as e:
                raise SetupError(f"bad options: {e}") from None
        try:
            return cls(**values)
        except TypeError as e:
            raise SetupError(str(e)) from None


def from_setup(setup: Setup) -> tuple[GameState, tuple[Event, ...]]:
    try:
        return _from_setup(setup)
    except (ValueError, KeyError, IndexError) as e:
        if isinstance(e, SetupError):
            raise
        raise SetupError(str(e)) from e


def _from_setup(s: Setup) -> tuple[GameState, tuple[Event, ...]]:
    v = get_variant(s.variant)
    check_options(v, s.options)
    n = len(s.hands)
    if not 2 <= n <= v.max_players:
        raise SetupError(f"{n} players: {v.title} takes 2–{v.max_players}")
    names = s.names or [f"P{i}" for i in range(n)]
    scores = s.scores or [0] * n
    if len(names) != n or len(scores) != n:
        raise SetupError("names and scores must list every player")
    if not 0 <= s.dealer < n or s.direction not in (1, -1):
        raise SetupError("bad dealer or direction")
    side = Side.DARK if s.side == "dark" else Side.LIGHT
    discard = cards(s.discard) if s.discard.strip() else ()
    state = GameState(
        variant=v.name,
        players=tuple(
            PlayerState(name, cards(hand) if hand.strip() else (), score)
            for name, hand, score in zip(names, s.hands, scores, strict=True)
        ),
        draw_pile=cards(s.draw_pile) if s.draw_pile.strip() else (),
        discard=discard,
        current=0,
        dealer=s.dealer,
        direction=s.direction,
        side=side,
        options=s.options,
        seed=s.seed,
        round=s.round,
        version=-1,
    )
    t = Table(state, v)
    if not discard:
        t.emit(EventType.ROUND_STARTED, round=t.round, dealer=t.dealer)
        turn_up_first_card(t)
        return t.freeze(), tuple(t.events)
    current = (s.dealer + s.direction) % n if s.current is None else s.current
    if not 0 <= current < n:
        raise SetupError("bad current player")
    top = t.top_face
    t.color = Color(s.color) if s.color else top.color
    if t.color is None:
        raise SetupError("a wild on top needs the colour in play")
    if t.color not in side.colors:
        raise SetupError("that colour is not on the side in play")
    t.start_turn(current)
    return t.freeze(), tuple(t.events)
