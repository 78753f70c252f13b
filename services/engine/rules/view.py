"""The one door hidden information leaves through (STYLE.md "Hidden information").

``view(state, viewer)`` is what one player (or, with ``viewer=None``, a spectator) may see:
their own hand, every other hand only as a count, and, in UNO Flip, the faces the table can
see: the turned-away side of every opponent's card and of the draw pile's top card
(RULES.md §3 "What is visible").  A Flip player never sees the other side of their own cards,
so their hand and their action codes name only the face in play.  The seed, the draw pile's
order and bluff flags never leave: only the
commitment to the round's seed (``deal_commitment``) is shown.

``events_for`` is the one door for events: a private event (one with ``to``, e.g. the cards
someone drew) reaches its addressee alone, whichever form it travels in -- as the rules make
it or as JSON (``Event.to_json``: the event log's, the API's).  Nothing else reads an
event's ``to``: the service answers a move and ``GET …/events`` through it, and the event
log's readers (the bot, the Mini App, the worker) get only the public events from the
client's ``stream_entry_events``, which calls it (tests/test_import_graph.py holds both).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .actions import Action
from .cards import Card, Side
from .commitment import deal_commitment
from .engine import legal_actions
from .events import Event
from .state import GameState, Options, PendingKind
from .variants import get_variant


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    cards: int
    score: int
    declared_uno: bool
    knocked_out: bool
    frozen: bool
    # UNO Flip: the faces of this player's cards that the others see (None for the viewer's
    # own seat and for one-sided decks).
    back_faces: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class PendingView:
    kind: PendingKind
    player: int
    amount: int = 0  # draw total owed (RESPOND_TO_DRAW)
    source: int | None = None  # who played the draw card
    card_kind: str | None = None
    challengeable: bool = False


@dataclass(frozen=True, slots=True)
class View:
    viewer: int | None
    variant: str
    version: int
    round: int
    side: str
    top: str
    color: str | None
    direction: int
    dealer: int
    current: int
    draw_pile: int
    discard_pile: int
    seats: tuple[SeatView, ...]
    pending: PendingView | None
    uno_window: int | None
    hand: tuple[str, ...]  # the viewer's own cards, face in play (empty for spectators)
    legal: tuple[Action, ...]  # what the viewer may do now
    target_score: int
    winner: int | None
    draw_pile_back: str | None = None  # UNO Flip: the visible face of the draw pile's top
    reveal_of: int | None = None  # a hand shown to this viewer only (a challenge)
    reveal: tuple[str, ...] = ()
    # The house rules in play: public at the table, and they change what a card is worth.
    options: Options = field(default_factory=Options)
    # The commitment to this round's shuffle (``commitment.deal_commitment`` of its seed):
    # the seed itself is revealed when the round ends.
    deal_commitment: str = ""

    @property
    def legal_codes(self) -> tuple[str, ...]:
        return tuple(a.code for a in self.legal)

    def to_json(self) -> dict[str, Any]:
        """``dataclasses.asdict`` of the view, with ``legal`` as codes; built field by field
        (``asdict`` deep-copies every value, which cost more than making the view)."""
        out = {name: getattr(self, name) for name in _VIEW_FIELDS}
        out["seats"] = tuple(
            {name: getattr(seat, name) for name in _SEAT_FIELDS} for seat in self.seats
        )
        if self.pending is not None:
            out["pending"] = {name: getattr(self.pending, name) for name in _PENDING_FIELDS}
        out["legal"] = list(self.legal_codes)
        out["options"] = {name: getattr(self.options, name) for name in _OPTION_FIELDS}
        return out


_VIEW_FIELDS = tuple(f.name for f in fields(View))
_SEAT_FIELDS = tuple(f.name for f in fields(SeatView))
_PENDING_FIELDS = tuple(f.name for f in fields(PendingView))
_OPTION_FIELDS = tuple(f.name for f in fields(Options))
_SIDE_NAMES = {side: side.name.lower() for side in Side}


def as_seen(action: Action, side: Side) -> Action:
    """A play names the face its player sees, never the hidden side of their own card."""
    c = action.card
    if c is None or c.dark is None:
        return action
    return Action(action.type, action.player, card=Card(c.face(side)))


def view(state: GameState, viewer: int | None) -> View:
    n = len(state.players)
    me = viewer if viewer is not None and 0 <= viewer < n else None
    side = state.side
    variant = get_variant(state.variant)
    double_sided = variant.double_sided
    seats = tuple(
        [
            SeatView(
                seat=i,
                name=p.name,
                cards=len(p.hand),
                score=p.score,
                declared_uno=p.declared_uno,
                knocked_out=p.knocked_out,
                frozen=p.frozen,
                back_faces=(
                    tuple([_back(c, side) for c in p.hand]) if double_sided and i != me else None
                ),
            )
            for i, p in enumerate(state.players)
        ]
    )
    pending = state.pending
    pending_view = (
        PendingView(
            kind=pending.kind,
            player=pending.player,
            amount=pending.amount,
            source=pending.source,
            card_kind=pending.card_kind.value if pending.card_kind else None,
            challengeable=pending.challengeable,
        )
        if pending
        else None
    )
    reveal = state.reveal if state.reveal is not None and state.reveal.to == me else None
    return View(
        viewer=me,
        variant=state.variant,
        version=state.version,
        round=state.round,
        side=_SIDE_NAMES[side],
        top=state.discard[0].face(side).code,
        color=state.color.value if state.color else None,
        direction=state.direction,
        dealer=state.dealer,
        current=state.current,
        draw_pile=len(state.draw_pile),
        discard_pile=len(state.discard),
        seats=seats,
        pending=pending_view,
        uno_window=state.uno_window,
        hand=(tuple([c.face(side).code for c in state.players[me].hand]) if me is not None else ()),
        legal=(
            tuple([as_seen(a, side) for a in legal_actions(state, me)]) if me is not None else ()
        ),
        target_score=variant.target(state.options),
        winner=state.winner,
        draw_pile_back=(
            _back(state.draw_pile[0], side) if double_sided and state.draw_pile else None
        ),
        reveal_of=reveal.of if reveal else None,
        reveal=tuple([c.face(side).code for c in reveal.hand]) if reveal else (),
        options=state.options,
        deal_commitment=deal_commitment(state.seed),
    )


def _back(c: Card, side: Side) -> str:
    hidden = c.hidden_face(side)
    return hidden.code if hidden is not None else c.face(side).code


#: An event as the rules make it, or in its JSON form (``Event.to_json``).
AnyEvent = TypeVar("AnyEvent", Event, dict[str, Any])


def addressee(event: Event | Mapping[str, Any]) -> int | None:
    """The only seat that may see ``event``; None when it is public."""
    if isinstance(event, Event):
        return event.to
    to = event.get("to")
    return None if to is None else int(to)


def numbered_events_for(
    events: Iterable[AnyEvent], viewer: int | None
) -> list[tuple[int, AnyEvent]]:
    """The events ``viewer`` (None: a spectator, anyone) may see -- every public one, and
    those addressed to them -- each with its place ``n`` among all of ``events``: the n-th
    event of a write is the game's event ``{version}-{n}``, whoever reads it."""
    return [(n, e) for n, e in enumerate(events) if addressee(e) in (None, viewer)]


def events_for(events: Iterable[AnyEvent], viewer: int | None) -> list[AnyEvent]:
    """The events ``viewer`` (None: a spectator, anyone) may see: every public one, and
    those addressed to them."""
    return [e for _, e in numbered_events_for(events, viewer)]
