"""The game state: one plain, immutable, serialisable value (STYLE.md "State").

Bookkeeping (whose turn, direction, side, the decision owed, version) sits apart from the
cards.  The RNG state (the round's seed and a counter) is part of the value, so a game
replays exactly from its seeds (one per round, each given with the action that deals its
round: ``apply``'s ``next_seed``) and action log; ``view`` shows only the commitment to the
seed (``commitment.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .cards import Card, Color, Kind, Side


class PendingKind(StrEnum):
    """The kind of decision a player owes (RULES.md §7 lists the ones with deadlines)."""

    TURN = "turn"  # play a card or draw
    PLAY_DRAWN = "play_drawn"  # play the card just drawn, or keep it (pass)
    CHOOSE_COLOR = "choose_color"  # after playing a wild (or a wild turned over by F)
    RESPOND_TO_DRAW = "respond_to_draw"  # accept a draw card, challenge it, or stack on it
    CHOOSE_SWAP = "choose_swap"  # 7: the player to swap hands with
    CHOOSE_ROULETTE_COLOR = "choose_roulette_color"  # No Mercy WCR: the victim names a colour


class AfterColor(StrEnum):
    """What follows a colour choice."""

    EFFECT = "effect"  # the wild just played takes effect (the usual case)
    OWN_TURN = "own_turn"  # a wild turned up as the first card: the chooser then plays
    NEXT_TURN = "next_turn"  # a wild turned up by F: the next player's turn follows
    FINAL_DRAW = "final_draw"  # a last card whose draw needs the colour: the draw, then scoring


@dataclass(frozen=True, slots=True)
class Pending:
    """Who must act now, and on what.  ``None`` in ``GameState.pending`` means game over."""

    kind: PendingKind
    player: int
    # PLAY_DRAWN: the drawn card; ``must_play`` when the rules allow no pass (No Mercy).
    drawn: Card | None = None
    must_play: bool = False
    # RESPOND_TO_DRAW: who played the draw card, the card's kind, the total owed (grows
    # with stacking), whether a challenge is allowed and, hidden from every view, whether
    # the player of the card was bluffing (held the colour in play) when they played it.
    source: int | None = None
    card_kind: Kind | None = None
    amount: int = 0
    challengeable: bool = False
    bluffed: bool = False
    # CHOOSE_COLOR: what follows the choice.
    then: AfterColor = AfterColor.EFFECT


@dataclass(frozen=True, slots=True)
class Options:
    """Per-game options: the chat's house rules (RULES.md §2, all off by default)."""

    progressive_draw: bool = False
    seven_o: bool = False
    jump_in: bool = False
    draw_until_playable: bool = False
    alternate_scoring: bool = False
    target_score: int | None = None  # None: the variant's own target
    false_catch_penalty: bool = False  # a catch with nothing to catch costs the catcher 2


@dataclass(frozen=True, slots=True)
class PlayerState:
    name: str
    hand: tuple[Card, ...] = ()
    score: int = 0
    declared_uno: bool = False  # called UNO for the hand they hold now
    # Holds a one-card hand a 7-swap or 0-rotation gave them and has not called UNO on it:
    # they can't be caught for it, but may still call (RULES.md §2 "House rules in detail").
    received_one_card: bool = False
    knocked_out: bool = False  # No Mercy's mercy rule; out until the next round
    # No Mercy: what the player scored for knock-outs in this round (RULES.md §4
    # "Scoring"), so the round's result can say what each gain is for.
    knockout_points: int = 0
    # Minions' Dumb Fu (RULES.md §6): None when not frozen, else how many of their turns
    # have started since they were frozen (the second one ends the freeze).  Kept per
    # player because several players can be frozen at once.
    frozen_turns: int | None = None

    @property
    def frozen(self) -> bool:
        return self.frozen_turns is not None


@dataclass(frozen=True, slots=True)
class Reveal:
    """A hand shown to one player only: the challenged hand, shown to the challenger."""

    to: int
    of: int
    hand: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class GameState:
    variant: str
    players: tuple[PlayerState, ...]
    draw_pile: tuple[Card, ...]  # top first
    discard: tuple[Card, ...]  # top first
    current: int
    dealer: int
    direction: int = 1  # +1 clockwise ("left"), -1 the other way
    side: Side = Side.LIGHT
    color: Color | None = None  # the colour in play; None while its choice is pending
    pending: Pending | None = None
    uno_window: int | None = None  # the player who can be caught right now
    set_aside: tuple[Card, ...] = ()  # knocked-out hands, back at the next rebuild
    reveal: Reveal | None = None
    round: int = 1
    winner: int | None = None  # the game's winner, once it is over
    options: Options = field(default_factory=Options)
    seed: int = 0
    rng_counter: int = 0
    version: int = 0

    @property
    def top(self) -> Card:
        return self.discard[0]

    @property
    def is_over(self) -> bool:
        return self.pending is None

    def hand(self, player: int) -> tuple[Card, ...]:
        return self.players[player].hand
