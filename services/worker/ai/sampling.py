"""Guessing the cards a seat cannot see: whole game states consistent with one ``View``.

The hard player searches by playing sampled worlds forward on the rules engine.  A world
is a ``GameState`` whose every public fact is the view's (whose turn, the decision owed,
hand sizes, scores, the top card, the pile sizes, the house rules) and whose hidden cards
are drawn at random from the cards the seat has not seen, under what it has seen:

- its own hand and the top card are exactly the view's (in UNO Flip only the face in play
  is known, so each is a card of the deck showing that face);
- the cards it remembers on the discard pile (``Memory``) are not in anybody's hand;
- a hand shown by a lost challenge, or handed over by a 7-swap, is that seat's (as far as
  the seat still holds that many cards);
- what an opponent was seen to lack (``strong._Recall``: they drew on a card, so held
  none of its colour, none of its kind and no wild) is kept out of the cards they held
  then (the cards they drew since are free);
- a wild draw card to answer was played honestly (its player held none of the colour it
  was played on) unless their hand was small enough to bluff from (``may_bluff``): that
  colour, when remembered, is kept out of their hand, and whether it was a bluff is the
  world's own answer, read from their sampled hand;
- in UNO Flip, every opponent card shows its back, as does the draw pile's top card: each
  is a card of the deck with that face on its other side.

The seed of a world is drawn too, so reshuffles inside a sampled future are not the real
game's.  Nothing here reads a ``GameState`` the seat was not given: the only input is the
view, the seat's memory of its own earlier views, and the variant's published deck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache

from services.engine.rules import (
    Action,
    ActionType,
    Card,
    Color,
    Face,
    GameState,
    Kind,
    Pending,
    PendingKind,
    Side,
    View,
)
from services.engine.rules.state import AfterColor, PlayerState
from services.engine.rules.variants import get_variant

from .strong import _Recall, bluff_odds, challenge_break_even

# A constraint on one hidden card: it shows ``code`` on ``side`` (one-sided decks: it is
# the card ``code``).
Shows = tuple[Side, str]

# What one hidden card may not be: its colours and its kinds (kept apart: a colour and a
# kind can share a symbol, and the enums compare as their symbols).
Ban = tuple[frozenset[Color], frozenset[Kind]]
NO_BAN: Ban = (frozenset(), frozenset())

# Tries at a consistent deal before the last constraints are dropped (Flip's back faces
# can leave a slot with no card that fits after the others took theirs).
_TRIES = 4


@dataclass(slots=True)
class Memory:
    """What one seat remembers of a round from its own views: the faces it saw reach the
    discard pile (until a reshuffle takes the pile away), the hands it knows (a challenge's
    reveal, the hand it gave away in a swap) and the colours its opponent lacked."""

    round: int = 0
    version: int = -1
    discard_size: int = 0
    top: str | None = None
    discards: list[Shows] = field(default_factory=list)  # under the top card, newest first
    known: dict[int, list[str]] = field(default_factory=dict)  # seat -> faces they hold
    recall: _Recall | None = None
    _top_side: str = "light"

    def observe(self, view: View) -> None:
        """Take in a new view of the same seat (any order of calls, any gap between)."""
        if view.round != self.round or view.version < self.version:
            self.round, self.version = view.round, view.version
            self.discard_size, self.top = view.discard_pile, view.top
            self.discards, self.known, self._top_side = [], {}, view.side
            self._reveal(view)
            return
        if view.version == self.version:
            return
        self.version = view.version
        if view.discard_pile < self.discard_size:
            self.discards = []  # reshuffled: what was under the top is in the draw pile
        elif view.discard_pile > self.discard_size and self.top is not None:
            # Somebody played on the old top: it lies under the new one, which left a hand.
            self.discards.insert(0, (_side_named(self._top_side), self.top))
            self._forget_played(view.top)
        del self.discards[max(0, view.discard_pile - 1) :]
        self.discard_size, self.top, self._top_side = view.discard_pile, view.top, view.side
        for seat, faces in list(self.known.items()):
            held = view.seats[seat].cards
            if held < len(faces):
                del faces[held:]
        self._reveal(view)

    def _reveal(self, view: View) -> None:
        if view.reveal_of is not None and view.reveal:
            self.known[view.reveal_of] = list(view.reveal)

    def _forget_played(self, code: str) -> None:
        for faces in self.known.values():
            if code in faces:
                faces.remove(code)
                return

    def played(self, view: View, action: Action) -> None:
        """This seat played a card: it is the new top, the old one under it."""
        if action.type is not ActionType.PLAY or action.card is None or self.top is None:
            return
        self.discards.insert(0, (_side_named(self._top_side), self.top))
        self.top, self._top_side = action.card.light.code, view.side
        self.discard_size += 1

    def swapped(self, view: View, target: int) -> None:
        """This seat gave its hand to ``target`` (a 7): that hand is theirs now."""
        self.known[target] = list(view.hand)
        self.known.pop(view.viewer or 0, None)


def _side(view: View) -> Side:
    return Side.DARK if view.side == "dark" else Side.LIGHT


def _side_named(name: str) -> Side:
    return Side.DARK if name == "dark" else Side.LIGHT


class _Pool:
    """The deck's cards not yet dealt in a world, in a random order, found by the face
    they show.

    The deck is shuffled as positions (``order``: the deck index at each place), so
    finding a card that shows a face reads the variant's cached index of faces
    (``_positions``) instead of indexing the shuffled cards anew for every world: the
    first free such card in the shuffled order is the one of lowest ``rank``.  Same
    generator state, same cards taken as shuffling the cards themselves would give.
    """

    def __init__(self, variant_name: str, deck: tuple[Card, ...], rng: random.Random) -> None:
        order = list(range(len(deck)))
        rng.shuffle(order)
        rank = [0] * len(deck)
        for place, index in enumerate(order):
            rank[index] = place
        self.deck = deck
        self.order = order
        self.rank = rank
        self.taken = [False] * len(deck)  # by deck index
        self.next_free = 0  # a place in ``order``
        self.positions = _positions(variant_name)

    def take(self, shows: Shows | None, banned: Ban = NO_BAN) -> Card | None:
        """A free card showing ``shows`` (any, when None), of no banned colour or kind."""
        if banned[0] or banned[1]:
            return self._scan(shows, banned)
        taken = self.taken
        if shows is None:
            order = self.order
            while self.next_free < len(order) and taken[order[self.next_free]]:
                self.next_free += 1
            if self.next_free == len(order):
                return None
            index = order[self.next_free]
        else:
            rank = self.rank
            found = -1
            for i in self.positions.get(shows, ()):
                if not taken[i] and (found < 0 or rank[i] < rank[found]):
                    found = i
            if found < 0:
                return None
            index = found
        taken[index] = True
        return self.deck[index]

    def _scan(self, shows: Shows | None, banned: Ban) -> Card | None:
        colors, kinds = banned
        for index in self.order:
            c = self.deck[index]
            if self.taken[index] or c.light.color in colors or c.light.kind in kinds:
                continue
            if shows is not None and c.face(shows[0]).code != shows[1]:
                continue
            self.taken[index] = True
            return c
        return None

    def rest(self) -> list[Card]:
        return [self.deck[i] for i in self.order if not self.taken[i]]


@cache
def _positions(variant_name: str) -> dict[Shows, tuple[int, ...]]:
    """The deck indices of the cards that show each face, on either side."""
    out: dict[Shows, list[int]] = {}
    for i, c in enumerate(get_variant(variant_name).deck):
        for side in Side:
            out.setdefault((side, c.face(side).code), []).append(i)
    return {shows: tuple(at) for shows, at in out.items()}


def sample_world(view: View, memory: Memory | None, rng: random.Random) -> GameState:
    """One full game state consistent with ``view`` (and the seat's memory)."""
    for attempt in range(_TRIES):
        world = _deal(view, memory, rng, strict=attempt < _TRIES - 1)
        if world is not None:
            return world
    raise AssertionError("a relaxed deal always succeeds")  # pragma: no cover


def _deal(view: View, memory: Memory | None, rng: random.Random, strict: bool) -> GameState | None:
    assert view.viewer is not None and view.pending is not None
    me = view.viewer
    variant = get_variant(view.variant)
    side = _side(view)
    other = Side.LIGHT if side is Side.DARK else Side.DARK
    pool = _Pool(view.variant, variant.deck, rng)

    # Every hidden card asked for, as (what it shows, what it may not be); cards
    # that must show a face go first, the scarcest face first (Flip's backs can otherwise
    # use up the one card another slot needed), then the free ones.
    asks: list[tuple[Shows | None, Ban]] = [((side, view.top), NO_BAN)]
    asks += [((side, code), NO_BAN) for code in view.hand]
    asks += [(shows, NO_BAN) for shows in (memory.discards if memory else [])]
    slots: dict[int, list[int]] = {me: list(range(1, 1 + len(view.hand)))}
    lacks = _lacks(view, memory)
    before = played_over(view, memory)
    honest = honest_draw_card(view, before)
    for seat in view.seats:
        if seat.seat == me or seat.knocked_out:
            continue
        first = len(asks)
        if seat.back_faces is not None:
            asks += [((other, back), NO_BAN) for back in seat.back_faces]
        else:
            known = memory.known.get(seat.seat, []) if memory else []
            asks += [((side, code), NO_BAN) for code in known[: seat.cards]]
            banned, held_then = lacks.get(seat.seat, (NO_BAN, 0))
            free = seat.cards - (len(asks) - first)
            asks += [(None, banned if i < held_then else NO_BAN) for i in range(free)]
            if honest is not None and honest[0] == seat.seat:
                # Every card they hold now they held when they played it (a card known to
                # be theirs stays: then they did bluff).
                asks[first:] = [
                    (shows, ban if shows else _also(ban, honest[1])) for shows, ban in asks[first:]
                ]
        slots[seat.seat] = list(range(first, len(asks)))
    draw_at = len(asks)
    if view.draw_pile_back:
        asks.append(((other, view.draw_pile_back), NO_BAN))
    got: list[Card | None] = [None] * len(asks)
    scarcity = _scarcity(view.variant)

    def scarcest_first(i: int) -> tuple[bool, int]:
        shows = asks[i][0]
        return (shows is None, 0 if shows is None else scarcity.get(shows, 0))

    order = sorted(range(len(asks)), key=scarcest_first)
    for i in order:
        shows, banned = asks[i]
        got[i] = pool.take(shows, banned)
        if got[i] is None:
            if strict:
                return None
            got[i] = pool.take(None, banned) or pool.take(None)
    top = got[0]
    under = got[1 + len(view.hand) : 1 + len(view.hand) + len(memory.discards if memory else [])]
    hands = {seat: [got[i] for i in at] for seat, at in slots.items()}
    draw_top = got[draw_at] if view.draw_pile_back else None
    if top is None or any(c is None for h in hands.values() for c in h) or None in under:
        return None
    rest = pool.rest()
    draw_size = view.draw_pile - (draw_top is not None)
    draw = ([draw_top] if draw_top is not None else []) + rest[:draw_size]
    rest = rest[draw_size:]
    below = max(0, view.discard_pile - 1 - len(under))
    discard = [top, *(c for c in under if c is not None), *rest[:below]]
    set_aside = tuple(rest[below:])
    return _state(view, hands, tuple(draw), tuple(discard), set_aside, rng, before)


@cache
def _scarcity(variant_name: str) -> dict[Shows, int]:
    """How many cards of the deck show each face, on either side."""
    out: dict[Shows, int] = {}
    for c in get_variant(variant_name).deck:
        for side in Side:
            key = (side, c.face(side).code)
            out[key] = out.get(key, 0) + 1
    return out


def _lacks(view: View, memory: Memory | None) -> dict[int, tuple[Ban, int]]:
    """Per opponent, the colours and kinds they were seen to lack and how many of the
    cards they hold now they already held then."""
    recall = memory.recall if memory else None
    if recall is None:
        return {}
    out = {}
    for seat in recall.lacks.keys() | recall.lacks_kinds.keys():
        colors = recall.lacks.get(seat, {})
        kinds = recall.lacks_kinds.get(seat, {})
        if not colors and not kinds:
            continue
        held_then = min([*colors.values(), *kinds.values()])
        ban = (frozenset(colors), frozenset(kinds))
        out[seat] = (ban, min(held_then, view.seats[seat].cards))
    return out


def may_bluff(view: View) -> bool:
    """Whether the player of a challengeable draw card to answer could have bluffed with
    it (held the colour it was played on), as the strong player plays: only from a hand so
    small that a careful victim would not challenge it (``strong.bluff_odds`` below the
    break-even); from a bigger hand it plays the colour instead.  Measured on 400 rounds of
    2-player Classic, strong against strong: of 426 Wild Draw Fours played with two or more
    cards left, 9 were bluffs (2.1 %)."""
    pending = view.pending
    if pending is None or not pending.challengeable or pending.source is None:
        return False
    if not pending.card_kind:
        return False
    left = view.seats[pending.source].cards
    face = Face(None, Kind(pending.card_kind))
    return bluff_odds(view.variant, _side(view), left) < challenge_break_even(face)


def played_over(view: View, memory: Memory | None) -> Color | None:
    """The colour a challengeable draw card to answer was played on, when the seat
    remembers it (``strong._Recall.color_before``: two standing, the colour it left)."""
    pending = view.pending
    recall = memory.recall if memory else None
    if recall is None or pending is None or not pending.challengeable:
        return None
    return recall.color_before(view)


def honest_draw_card(view: View, before: Color | None) -> tuple[int, Color] | None:
    """A draw card to answer played over ``before`` (``played_over``) by a player who
    held none of that colour (``may_bluff`` says they would not have bluffed): the seat
    and the colour, so that the worlds keep it out of their hand."""
    pending = view.pending
    if before is None or pending is None or pending.source is None or may_bluff(view):
        return None
    if view.seats[pending.source].back_faces is not None:
        return None  # (UNO Flip: their cards are dealt from the backs shown, not banned)
    return (pending.source, before)


def _also(ban: Ban, color: Color) -> Ban:
    return (ban[0] | {color}, ban[1])


def _state(
    view: View,
    hands: dict[int, list[Card | None]],
    draw: tuple[Card, ...],
    discard: tuple[Card, ...],
    set_aside: tuple[Card, ...],
    rng: random.Random,
    before: Color | None,
) -> GameState:
    assert view.viewer is not None and view.pending is not None
    players = tuple(
        PlayerState(
            name=s.name,
            hand=tuple(c for c in hands.get(s.seat, ()) if c is not None),
            score=s.score,
            declared_uno=s.declared_uno,
            knocked_out=s.knocked_out,
            frozen_turns=1 if s.frozen else None,
        )
        for s in view.seats
    )
    return GameState(
        variant=view.variant,
        players=players,
        draw_pile=draw,
        discard=discard,
        current=view.current,
        dealer=view.dealer,
        direction=view.direction,
        side=_side(view),
        color=Color(view.color) if view.color else None,
        pending=_pending(view, players, rng, before),
        uno_window=view.uno_window,
        set_aside=set_aside,
        round=view.round,
        options=view.options,
        seed=rng.getrandbits(32),
        version=view.version,
    )


def _pending(
    view: View, players: tuple[PlayerState, ...], rng: random.Random, before: Color | None
) -> Pending:
    p = view.pending
    assert p is not None
    kind = p.kind
    drawn = None
    must_play = False
    if kind is PendingKind.PLAY_DRAWN:
        hand = players[p.player].hand
        plays = [a for a in view.legal if a.type is ActionType.PLAY and a.card is not None]
        if plays and p.player == view.viewer:
            code = plays[0].card.code if plays[0].card else ""
            side = _side(view)
            drawn = next((c for c in hand if c.face(side).code == code), hand[-1])
        elif hand:
            drawn = hand[-1]
        must_play = not any(a.type is ActionType.PASS for a in view.legal)
    then = AfterColor.EFFECT
    if kind is PendingKind.CHOOSE_COLOR:
        if not players[p.player].hand:
            then = AfterColor.FINAL_DRAW
        elif view.discard_pile == 1:
            then = AfterColor.OWN_TURN  # a wild turned up as the first card
    card_kind = Kind(p.card_kind) if p.card_kind else None
    bluffed = False
    if kind is PendingKind.RESPOND_TO_DRAW and p.challengeable and p.source is not None:
        if before is not None:
            # The world's own answer: whether its player's hand holds the colour they
            # played over (kept out of it above when they would not have bluffed).
            side = _side(view)
            bluffed = any(c.face(side).color == before for c in players[p.source].hand)
        elif may_bluff(view):
            # Not remembered: as likely as a hand of that size holding one given colour.
            share = _color_share(view)
            bluffed = rng.random() < 1.0 - (1.0 - share) ** max(0, view.seats[p.source].cards)
    return Pending(
        kind,
        p.player,
        drawn=drawn,
        must_play=must_play,
        source=p.source,
        card_kind=card_kind,
        amount=p.amount,
        challengeable=p.challengeable,
        bluffed=bluffed,
        then=then,
    )


def _color_share(view: View) -> float:
    side = _side(view)
    faces = [c.face(side) for c in get_variant(view.variant).deck]
    return sum(1 for f in faces if f.color is not None) / len(side.colors) / len(faces)
