"""The mutable working copy of a game that ``apply`` works on, and its primitives.

``apply`` is pure from the outside: it loads the immutable ``GameState`` into a ``Table``,
lets the rules change the table, then freezes it into a new state (version + 1).  The input
state is never touched, so a rejected or failed action leaves nothing half-written.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .cards import Card, Color, Face, Side, face_matches
from .events import Event, EventType
from .state import GameState, Options, Pending, PendingKind, PlayerState, Reveal
from .variant import CardRule, Variant

# "``player`` owes a turn" is the most common decision and an immutable value: made once per
# seat.
_TURNS: dict[int, Pending] = {}


def _turn_owed(player: int) -> Pending:
    pending = _TURNS.get(player)
    if pending is None:
        pending = _TURNS[player] = Pending(PendingKind.TURN, player)
    return pending


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of the slots of frozen dataclass ``cls``, for ``names``: all its fields.

    ``freeze`` makes one state per action, and every action emits a few events.  Filling a
    new value's slots directly, instead of through the frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` per field), makes the same value in about half the time.  That is
    only the same value when every field is set and no ``__post_init__`` is skipped: a
    change to ``cls`` that breaks either stops the import here.
    """
    field_names = sorted(f.name for f in fields(cls))
    if sorted(names) != field_names or hasattr(cls, "__post_init__"):
        raise ImportError(f"table.py no longer matches the fields of {cls.__name__}")
    return tuple(getattr(cls, name).__set__ for name in names)


# The orders ``freeze`` lists a state's and a player's values in.
_STATE_FIELDS = _slot_setters(
    GameState,
    (
        "variant",
        "players",
        "draw_pile",
        "discard",
        "current",
        "dealer",
        "direction",
        "side",
        "color",
        "pending",
        "uno_window",
        "set_aside",
        "reveal",
        "round",
        "winner",
        "options",
        "seed",
        "rng_counter",
        "version",
    ),
)
_PLAYER_FIELDS = _slot_setters(
    PlayerState,
    (
        "name",
        "hand",
        "score",
        "declared_uno",
        "knocked_out",
        "frozen_turns",
        "received_one_card",
        "knockout_points",
    ),
)
_SET_EVENT_TYPE, _SET_EVENT_DATA, _SET_EVENT_TO = _slot_setters(Event, ("type", "data", "to"))


class Table:
    # Slots: the rules read and write these attributes throughout every action.
    __slots__ = (
        "bluffed",
        "color",
        "current",
        "dealer",
        "declared",
        "direction",
        "discard",
        "draw_pile",
        "events",
        "frozen_turns",
        "hands",
        "knocked_out",
        "knockout_points",
        "loaded",
        "names",
        "next_seed",
        "options",
        "pending",
        "received_one_card",
        "reveal",
        "rng_counter",
        "round",
        "round_winner",
        "scores",
        "seed",
        "set_aside",
        "side",
        "stack_carry",
        "state_variant",
        "uno_window",
        "variant",
        "version",
        "winner",
    )

    def __init__(self, state: GameState, variant: Variant[Table]) -> None:
        players = state.players
        self.variant = variant
        self.loaded = state  # the state this table was loaded from (left untouched)
        self.options: Options = state.options
        self.names = [p.name for p in players]
        self.hands: list[list[Card]] = [list(p.hand) for p in players]
        self.scores = [p.score for p in players]
        self.declared = [p.declared_uno for p in players]
        self.knocked_out = [p.knocked_out for p in players]
        self.knockout_points = [p.knockout_points for p in players]
        self.frozen_turns: list[int | None] = [p.frozen_turns for p in players]
        self.received_one_card = [p.received_one_card for p in players]
        self.draw_pile: list[Card] = list(state.draw_pile)  # top first
        self.discard: list[Card] = list(state.discard)  # top first
        self.set_aside: list[Card] = list(state.set_aside)
        self.current = state.current
        self.dealer = state.dealer
        self.direction = state.direction
        self.side = state.side
        self.color = state.color
        self.pending = state.pending
        self.uno_window = state.uno_window
        self.reveal: Reveal | None = None  # a reveal lasts until the next action
        self.round = state.round
        self.winner = state.winner
        self.seed = state.seed
        self.rng_counter = state.rng_counter
        # The seed of the next round's shuffle, should this action deal one: drawn by the
        # service for each action (``apply``), so no round's seed is known before it is
        # needed; None keeps the current seed (a replay of a fixed-seed game, the tests).
        self.next_seed: int | None = None
        self.version = state.version
        self.state_variant = state.variant
        self.events: list[Event] = []
        # Set when a player empties their hand (or is the last one standing); the action
        # still finishes (a final draw card is still drawn) and then the round is scored.
        self.round_winner: int | None = None
        # Whether the card being played was played while holding the colour in play.
        self.bluffed = False
        # The draw total a stacked draw card carries on (No Mercy, Progressive Draw).
        self.stack_carry = 0

    # -- the result -------------------------------------------------------------------

    def freeze(self) -> GameState:
        values = (
            self.state_variant,
            tuple([self._player_state(i) for i in range(len(self.names))]),
            tuple(self.draw_pile),
            tuple(self.discard),
            self.current,
            self.dealer,
            self.direction,
            self.side,
            self.color,
            self.pending,
            self.uno_window,
            tuple(self.set_aside),
            self.reveal,
            self.round,
            self.winner,
            self.options,
            self.seed,
            self.rng_counter,
            self.version + 1,
        )
        state = object.__new__(GameState)
        for set_field, value in zip(_STATE_FIELDS, values, strict=True):
            set_field(state, value)
        return state

    def _player_state(self, seat: int) -> PlayerState:
        """Seat ``seat`` as it is now: the loaded player itself when nothing of theirs changed
        (most actions change one player), else a new one."""
        hand = tuple(self.hands[seat])
        before = self.loaded.players[seat]
        if (
            hand == before.hand
            and self.scores[seat] == before.score
            and self.declared[seat] == before.declared_uno
            and self.knocked_out[seat] == before.knocked_out
            and self.frozen_turns[seat] == before.frozen_turns
            and self.received_one_card[seat] == before.received_one_card
            and self.knockout_points[seat] == before.knockout_points
            and self.names[seat] == before.name
        ):
            return before
        player = object.__new__(PlayerState)  # made as the state is, in ``freeze``
        values = (
            self.names[seat],
            hand,
            self.scores[seat],
            self.declared[seat],
            self.knocked_out[seat],
            self.frozen_turns[seat],
            self.received_one_card[seat],
            self.knockout_points[seat],
        )
        for set_field, value in zip(_PLAYER_FIELDS, values, strict=True):
            set_field(player, value)
        return player

    # -- small reads ------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def round_over(self) -> bool:
        return self.round_winner is not None

    def face(self, c: Card) -> Face:
        return c.face(self.side)

    @property
    def top_face(self) -> Face:
        return self.discard[0].face(self.side)

    def rule_of(self, c: Card) -> CardRule[Table]:
        return self.variant.rule(c.face(self.side).kind, self.options)

    def active_players(self) -> list[int]:
        return [i for i in range(self.n) if not self.knocked_out[i]]

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play, passing knocked-out seats."""
        direction, n, knocked_out = self.direction, len(self.names), self.knocked_out
        seat = (seat + direction) % n
        while knocked_out[seat]:
            seat = (seat + direction) % n
        return seat

    def matches(self, c: Card) -> bool:
        """Whether ``c`` may be played on the discard pile (RULES.md §2 "A turn")."""
        return face_matches(c.face(self.side), self.color, self.top_face.kind)

    def holds_color(self, player: int, color: Color | None) -> bool:
        return color is not None and any(
            c.face(self.side).color == color for c in self.hands[player]
        )

    # -- randomness (seeded, replayable) -----------------------------------------------

    def rng(self) -> random.Random:
        """A fresh generator for one random step; the counter makes each step different."""
        self.rng_counter += 1
        return random.Random(f"{self.seed}:{self.rng_counter}")

    # -- events -----------------------------------------------------------------------

    def emit(self, type: EventType, to: int | None = None, **data: Any) -> None:
        event = object.__new__(Event)  # Event(type, data, to), made as in ``freeze``
        _SET_EVENT_TYPE(event, type)
        _SET_EVENT_DATA(event, data)
        _SET_EVENT_TO(event, to)
        self.events.append(event)

    def close_uno_window(self) -> None:
        """The player who could be caught no longer can be, and everyone is told."""
        self.emit(EventType.UNO_WINDOW_CLOSED, player=self.uno_window)
        self.uno_window = None

    # -- turns ------------------------------------------------------------------------

    def start_turn(self, player: int) -> None:
        """Hand the turn to ``player``; they now owe a play or a draw."""
        self.current = player
        self.pending = _turn_owed(player)
        frozen_turns = self.frozen_turns[player]
        if frozen_turns is not None:
            # Frozen through the turn about to start, until the start of the next one
            # (RULES.md §6).  Only a turn that starts counts: a skipped turn (S, a draw
            # card) never starts, so it does not end the freeze [decision freeze-skipped-turn].
            if frozen_turns >= 1:
                self.frozen_turns[player] = None
                self.emit(EventType.UNFROZEN, player=player)
            else:
                self.frozen_turns[player] = 1
        self.emit(EventType.TURN, player=player)

    def next_turn(self, after: int, skip: int = 0) -> None:
        """The turn passes from ``after`` to the next player, ``skip`` players skipped."""
        seat = after
        for _ in range(skip):
            seat = self.next_seat(seat)
            self.emit(EventType.SKIPPED, player=seat)
        self.start_turn(self.next_seat(seat))

    # -- moving cards -----------------------------------------------------------------

    def reshuffle(self) -> bool:
        """Rebuild the draw pile from the discards under the top card (and set-aside hands).

        Returns False when there was nothing to rebuild it from.
        """
        rest = self.discard[1:] + self.set_aside
        if not rest:
            return False
        self.rng().shuffle(rest)
        self.draw_pile.extend(rest)
        self.discard = self.discard[:1]
        self.set_aside = []
        self.emit(EventType.RESHUFFLED, size=len(self.draw_pile))
        return True

    def take_top(self) -> Card | None:
        if not self.draw_pile and not self.reshuffle():
            return None
        return self.draw_pile.pop(0)

    def give(self, player: int, c: Card, cause: int | None = None) -> None:
        """Put a drawn card into a hand (every draw comes through here, so mercy is always
        checked)."""
        self.hands[player].append(c)
        self.declared[player] = False
        self.received_one_card[player] = False
        if self.uno_window == player and len(self.hands[player]) > 1:
            self.uno_window = None
        limit = self.variant.mercy_limit
        if limit is not None and len(self.hands[player]) >= limit:
            self.knock_out(player, cause)

    def draw(self, player: int, count: int, cause: int | None = None) -> list[Card]:
        """``player`` draws ``count`` cards one by one; stops short when no card is left to
        draw or rebuild the pile from [decision draw-stops-short], or when the player is
        knocked out mid-draw (No Mercy)."""
        return self.draw_while(player, lambda drawn: len(drawn) < count, cause)

    def draw_while(
        self,
        player: int,
        more: Callable[[list[Card]], bool],
        cause: int | None = None,
    ) -> list[Card]:
        """Draw one card at a time while ``more(drawn_so_far)`` says so."""
        drawn: list[Card] = []
        while more(drawn) and not self.knocked_out[player]:
            c = self.take_top()
            if c is None:
                self.emit(EventType.DRAW_STOPPED_SHORT, player=player)
                break
            drawn.append(c)
            self.give(player, c, cause)
        if drawn:
            self.emit(EventType.DREW, player=player, count=len(drawn))
            self.emit(
                EventType.DREW_CARDS,
                to=player,
                player=player,
                cards=[self.face(c).code for c in drawn],
            )
        return drawn

    def knock_out(self, player: int, cause: int | None) -> None:
        """No Mercy's mercy rule (RULES.md §4): out at once, the hand set aside."""
        self.knocked_out[player] = True
        self.set_aside.extend(self.hands[player])
        self.hands[player] = []
        self.declared[player] = False
        self.received_one_card[player] = False
        if self.uno_window == player:
            self.uno_window = None
        # A knock-out one caused oneself (No Mercy's two-player WR+4) is credited to nobody.
        credited = cause if cause != player else None
        points = self.variant.knockout_points if credited is not None else 0
        if credited is not None:
            self.scores[credited] += points
            self.knockout_points[credited] += points
        self.emit(EventType.KNOCKED_OUT, player=player, by=credited, points=points)
        standing = self.active_players()
        if len(standing) == 1 and self.round_winner is None:
            self.round_winner = standing[0]

    def remove_from_hand(self, player: int, c: Card) -> None:
        self.hands[player].remove(c)

    def turn_over(self) -> None:
        """UNO Flip's F (RULES.md §3): every hand turns round, and both piles turn over as
        stacks, so each pile's former bottom card is its new top, showing its other face."""
        self.side = Side.DARK if self.side is Side.LIGHT else Side.LIGHT
        self.draw_pile.reverse()
        self.discard.reverse()
        self.color = self.top_face.color
        self.emit(EventType.FLIPPED, side=self.side.name.lower(), top=self.top_face.code)
