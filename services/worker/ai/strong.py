"""The strong AI player: a hand-tuned heuristic for every variant and every decision kind.

It reads only its ``View`` and the variant's published rules (``get_variant``: deck, card
points, stacking, the mercy limit), never the game state.  Card kinds come from the card
codes, so a variant added later is played without changes here unless one of its cards does
something none of these heuristics know.

How a play is valued (``_Planner``): shedding a card is worth 1; a card held back keeps a
value (a wild is the one answer to every colour, so spending it early costs); after the play
the hand should keep following the colour (cards of the colour in play are the next turn's
plays); a draw card or a skip is worth more the closer its victim is to going out, and a
knock-out (No Mercy) is worth a lot; when an opponent is near out, high-scoring cards are
dumped first.  A card that gives the player another turn at once (a skip, a reverse or a
draw card with two players standing, Skip Everyone) is valued with the best line of plays
that follows, so chains that empty the hand are found.

The other decisions: the colour named is the one the hand holds most of (points break
ties); UNO is always called and every player who forgot it is caught (unless frozen in
Minions, where calling, catching or any out-of-turn move costs 4 cards); a wild draw card
is challenged when the odds that its player held the colour pay for the two-card penalty,
and bluffed (played while holding the colour in play) only from a hand small enough that a
careful victim would not challenge; a 7 swaps with the smallest hand; a roulette colour is
the one the hand holds least of (most of it is still in the pile); an F is played in Flip
when the faces the opponents would hold after it (the backs the player can see) are weaker
than what they likely hold now and the player's own hand has little to lose.

Stacking variants (No Mercy): a draw card counts for less the more likely its victim holds
an answer (their hand size against the deck's share of answers), and with two standing an
answer sends the total back; a stack is always answered when it can be, with the cheapest
answer; draw cards are aimed at players they can push to the mercy limit; a 7 or 0 is
judged by the size of the hand it brings; with two standing a WR+4 (which hits its own
player) is played only with an answer kept to send the total back.

Memory: the player seated at one game (``for_game``) remembers its own previous view, as
the human in the seat would.  With two standing it notes the colours the opponent was seen
to lack (they drew on it, or a lost challenge showed their hand) and prefers leaving such a
colour in play.  The registry's instance, used by stand-ins that decide once, remembers
nothing and decides from the view alone.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from services.engine.rules import Action, ActionType, Color, Kind, PendingKind, Side, View
from services.engine.rules.cards import WILD_KINDS, Face, parse_face
from services.engine.rules.effects import seven, stacking, zero
from services.engine.rules.variant import Stacking, Variant
from services.engine.rules.variants import get_variant

# -- weights (tuned by playing the baselines, as bench/ai_strength.py does) ------------------

SHED = 1.0  # one card fewer in hand
WIN = 1000.0  # the hand is empty: the round is won
DRAW_COST = 1.0  # one card more, and the turn is gone
FOLLOW = 0.12  # per card left that matches the colour in play after the play
FOLLOW_KIND = 0.04  # per card left of the same kind (playable whatever the colour)
HOLD_WILD = 1.5  # what keeping a wild is worth
HOLD_WILD_DRAW = 1.5  # ... a wild draw card (an answer and a weapon)
HURT = 0.22  # per card an opponent is made to draw, before urgency
SKIP_HURT = 0.35  # an opponent loses a turn, before urgency
KNOCK_OUT = 6.0  # No Mercy: pushing an opponent to the mercy limit
DUMP = 0.25  # per 20 points shed while an opponent is near out
NEAR_OUT = 2  # an opponent with this many cards or fewer is near out
FLIP_WEIGHT = 0.5  # how much a flip's expected gain counts
CHAIN_DEPTH = 4  # extra turns looked ahead
LOOKAHEAD_BUDGET = 150  # plays valued per decision at most
SPREAD = -0.2  # per colour (wilds count as one) in the hand left: singletons go first
BOUNCE = 1.0  # share of a stack bounced back (two standing) counted against a draw card
LACK_FOLLOW = 2.0  # leaving a colour the next player was seen to draw on
# A wild draw card is challenged when the chance it was a bluff beats this break-even.
CHALLENGE_TRUST = 0.55  # discount on "held the colour" odds: players bluff less than chance

# Draw cards whose victim loses the turn without a fixed number of cards: the expected
# number of cards a "draw until a colour" costs (a quarter of the faces are each colour).
_DRAW_UNTIL_COLOR = {Kind.WILD_DRAW_COLOR: 4, Kind.WILD_COLOR_ROULETTE: 4}
_DRAWS = {k: k.draw_amount or _DRAW_UNTIL_COLOR.get(k, 0) for k in Kind}
_LOSES_TURN = frozenset({Kind.SKIP, Kind.SKIP_EVERYONE}) | frozenset(_DRAW_UNTIL_COLOR)


# What keeping a card back is worth (only wilds are worth keeping for their own sake).
_HOLD = {k: (HOLD_WILD_DRAW if _DRAWS[k] else HOLD_WILD) if k.is_wild else 0.0 for k in Kind}


@cache
def _face(code: str) -> Face:
    return parse_face(code)


def _action_face(action: Action) -> Face:
    assert action.card is not None
    # A view names a Flip card by the face in play only, so ``light`` is that face.
    return action.card.light


@cache
def _deck_facts(variant_name: str, side: Side) -> tuple[float, float]:
    """(share of the deck's faces on ``side`` that are one given colour, mean face power)."""
    variant = get_variant(variant_name)
    faces = [c.face(side) for c in variant.deck]
    colored = sum(1 for f in faces if f.color is not None)
    share = colored / len(side.colors) / len(faces)
    return share, sum(_power(f) for f in faces) / len(faces)


@cache
def _answer_share(variant_name: str, side: Side, kind: Kind, mode: Stacking) -> float:
    """The share of the deck's faces that may be stacked on a draw card of ``kind`` under
    the stacking ``mode`` in play (the variant's own, or the Progressive Draw house rule)."""
    variant = get_variant(variant_name)
    if mode is Stacking.NONE:
        return 0.0
    faces = [c.face(side) for c in variant.deck]
    needed = max(variant.rules[kind].stack_value, 1) if kind in variant.rules else 1
    if mode is Stacking.SAME_KIND:
        answers = sum(1 for f in faces if f.kind is kind)
    else:
        answers = sum(
            1
            for f in faces
            if f.kind in variant.rules and variant.rules[f.kind].stack_value >= needed
        )
    return answers / len(faces)


@cache
def _points(variant_name: str, kind: Kind) -> int:
    if kind.is_number:
        return kind.number
    rule = get_variant(variant_name).rules.get(kind)
    return rule.points if rule is not None else 0


def look_ahead(hand_size: int) -> int:
    """Extra turns looked ahead: chains matter most near the end, and big hands are slow."""
    if hand_size <= 7:
        return CHAIN_DEPTH
    return 2 if hand_size <= 12 else 1


def _power(face: Face) -> float:
    """How much a face helps its holder (for judging hands seen from the back in Flip)."""
    kind = face.kind
    amount = kind.draw_amount or _DRAW_UNTIL_COLOR.get(kind, 0)
    if kind.is_wild:
        return 2.5 + 0.2 * amount
    if amount:
        return 1.2 + 0.15 * amount
    if kind in (Kind.SKIP_EVERYONE, Kind.DISCARD_ALL):
        return 1.6
    if kind in (Kind.SKIP, Kind.REVERSE, Kind.FLIP):
        return 1.0
    return 0.4


@dataclass(slots=True)
class _Planner:
    """What one decision needs to know, read once from the view."""

    view: View
    variant: Variant
    me: int
    side: Side
    counts: tuple[int, ...]  # cards per seat (0 for knocked-out seats)
    active: tuple[int, ...]  # seats still in the round
    next_seat: int
    prev_seat: int
    danger: bool  # an opponent is near out
    # Lines already valued, and how many more plays the look-ahead may value: big No Mercy
    # hands full of skips would otherwise make a decision slow.
    memo: dict[tuple[tuple[int, ...], Color | None, Kind, int], float] = field(default_factory=dict)
    budget: int = LOOKAHEAD_BUDGET
    # Colours the next player was seen to lack (drew on them), with the chance they still do.
    lacking: dict[Color, float] = field(default_factory=dict)
    # The colour the card to answer was played on, when remembered.
    color_before: Color | None = None

    @classmethod
    def of(cls, view: View) -> _Planner:
        assert view.viewer is not None
        me = view.viewer
        seats = view.seats
        active = tuple(s.seat for s in seats if not s.knocked_out)
        counts = tuple(0 if s.knocked_out else s.cards for s in seats)
        return cls(
            view=view,
            variant=get_variant(view.variant),
            me=me,
            side=Side.DARK if view.side == "dark" else Side.LIGHT,
            counts=counts,
            active=active,
            next_seat=_neighbour(view, me, view.direction),
            prev_seat=_neighbour(view, me, -view.direction),
            danger=any(counts[s] <= NEAR_OUT for s in active if s != me),
        )

    # -- small reads ---------------------------------------------------------------------

    @property
    def two_standing(self) -> bool:
        return len(self.active) == 2

    def points(self, face: Face) -> int:
        return _points(self.variant.name, face.kind)

    def chooses_color(self, face: Face) -> bool:
        rule = self.variant.rules.get(face.kind)
        return rule is not None and rule.chooses_color

    def challengeable(self, face: Face) -> bool:
        rule = self.variant.rules.get(face.kind)
        return rule is not None and rule.challengeable

    def draw_amount(self, face: Face) -> int:
        return _DRAWS[face.kind]

    def urgency(self, seat: int) -> float:
        """How much hurting ``seat`` is worth: more the fewer cards they hold."""
        return 1.0 + 2.0 / max(self.counts[seat], 1)

    def gives_another_turn(self, face: Face) -> bool:
        kind = face.kind
        if kind is Kind.SKIP_EVERYONE:
            return True
        if not self.two_standing:
            return False
        return (
            kind in (Kind.SKIP, Kind.REVERSE) or kind in _LOSES_TURN or self.draw_amount(face) > 0
        )

    # -- colours -------------------------------------------------------------------------

    def best_color(self, hand: tuple[Face, ...]) -> Color:
        """The colour to name: the one the hand holds most of, then the most points."""
        colors = self.side.colors
        tally = dict.fromkeys(colors, 0)
        for f in hand:
            if f.color is not None:
                tally[f.color] += 100 + self.points(f)
        best = colors[0]
        for c in colors:
            if tally[c] > tally[best]:
                best = c
        return best

    # -- valuing plays -------------------------------------------------------------------

    def hold_value(self, face: Face) -> float:
        return _HOLD[face.kind]

    def position(self, hand: tuple[Face, ...], color: Color | None, kind: Kind) -> float:
        """How well the hand left follows the top card it leaves."""
        if color is None:
            return 0.0
        same = kin = 0
        for f in hand:
            if f.color is color:
                same += 1
            elif f.kind is kind:
                kin += 1
        value = FOLLOW * same + FOLLOW_KIND * kin
        value += SPREAD * len({f.color for f in hand})
        if self.lacking:
            value += LACK_FOLLOW * self.lacking.get(color, 0.0)
        return value

    def line(self, hand: tuple[Face, ...], color: Color | None, kind: Kind, depth: int) -> float:
        """The best this hand can do with one more turn on the given top card."""
        # Faces are interned by the card-code parser, so identity names a face cheaply.
        key = (tuple(sorted(map(id, hand))), color, kind, depth)
        known = self.memo.get(key)
        if known is not None:
            return known
        if self.budget <= 0:
            depth = 0
        best: float | None = None
        for face in set(hand):
            if face.color is not None and face.color != color and face.kind is not kind:
                continue
            self.budget -= 1
            value = self.play_value(hand, face, color, depth, top_level=False)
            if best is None or value > best:
                best = value
        if best is None:
            best = -DRAW_COST + self.position(hand, color, kind)
        self.memo[key] = best
        return best

    def play_value(
        self,
        hand: tuple[Face, ...],
        face: Face,
        color: Color | None,
        depth: int,
        top_level: bool,
    ) -> float:
        """The value of playing ``face`` from ``hand`` on the colour ``color``."""
        after = list(hand)
        after.remove(face)
        shed = [face]
        if face.kind is Kind.DISCARD_ALL:
            shed += [f for f in after if f.color == face.color]
            after = [f for f in after if f.color != face.color]
        rest = tuple(after)
        if not rest:
            return WIN
        value = SHED * len(shed) - self.hold_value(face)
        if self.danger:
            value += DUMP * sum(self.points(f) for f in shed) / 20
        new_color = face.color
        if self.chooses_color(face):
            new_color = self.best_color(rest)
        elif face.color is None:
            new_color = None  # the victim names it (No Mercy's roulette)
        answered = self.answer_chance(face)
        value += (1.0 - answered) * self.effect_value(face, color, hand, top_level)
        if answered:
            value -= answered * self.bounce_cost(face, rest)
        trade = self.hand_trade(face, len(rest))
        if trade is not None:
            return value + trade  # the hand left is not the one held next
        if self.self_hit(face):
            return value + self.self_hit_value(rest)
        here = self.position(rest, new_color, face.kind)
        if self.gives_another_turn(face) and depth > 0:
            later = self.line(rest, new_color, face.kind, depth - 1)
            return value + (1.0 - answered) * later + answered * here
        return value + here

    def answer_chance(self, face: Face) -> float:
        """Stacking variants: the chance the victim of a draw card holds a stack answer,
        judged from their hand size and the deck's share of answers."""
        if not _DRAWS[face.kind] or self.self_hit(face):
            return 0.0
        mode = stacking(self.variant, self.view.options)
        share = _answer_share(self.view.variant, self.side, face.kind, mode)
        if not share:
            return 0.0
        victim = self.prev_seat if face.kind is Kind.WILD_REVERSE_DRAW4 else self.next_seat
        return float(1.0 - (1.0 - share) ** self.counts[victim])

    def bounce_cost(self, face: Face, rest: tuple[Face, ...]) -> float:
        """With two standing a stacked answer sends the total and more back (with more
        players it goes on to someone else); an answer kept halves the risk."""
        if not self.two_standing:
            return 0.0
        value = self.stack_value(face)
        kept = any(self.stack_value(f) >= value for f in rest)
        total = self.draw_amount(face) + max(value, 2)
        return BOUNCE * DRAW_COST * total * (0.5 if kept else 1.0)

    def hand_trade(self, face: Face, left: int) -> float | None:
        """A 7 or 0 whose rule trades hands (No Mercy, or the Seven-O house rule): what the
        size of the hand received is worth.  A 7 takes the smallest other hand; a 0 takes
        the previous player's."""
        rule = self.variant.rule(face.kind, self.view.options)
        if rule.effect not in (seven, zero):
            return None
        if rule.effect is seven:
            received = min(self.counts[s] for s in self.active if s != self.me)
        else:
            received = self.counts[self.prev_seat]
        return SHED * (left - received)

    def self_hit(self, face: Face) -> bool:
        """No Mercy's WR+4 with two players standing hits its own player (RULES.md §4)."""
        return face.kind is Kind.WILD_REVERSE_DRAW4 and self.two_standing

    def self_hit_value(self, rest: tuple[Face, ...]) -> float:
        """Worth playing only with a stack answer to send the total back."""
        answers = [
            f for f in rest if self.stack_value(f) >= self.stack_value_of(Kind.WILD_REVERSE_DRAW4)
        ]
        amount = Kind.WILD_REVERSE_DRAW4.draw_amount
        if answers:
            best = max(answers, key=lambda f: f.kind.draw_amount)
            total = amount + best.kind.draw_amount
            return SHED + HURT * total * self.urgency(self.next_seat) - self.hold_value(best)
        value = -DRAW_COST * amount
        limit = self.variant.mercy_limit
        if limit is not None and len(rest) + amount >= limit:
            value -= WIN
        return value

    def stack_value(self, face: Face) -> int:
        return self.stack_value_of(face.kind)

    def stack_value_of(self, kind: Kind) -> int:
        rule = self.variant.rules.get(kind)
        return rule.stack_value if rule is not None else 0

    def effect_value(
        self, face: Face, color: Color | None, hand: tuple[Face, ...], top_level: bool
    ) -> float:
        """What the card does to the others (only the first card of a line sees the real
        seats; later ones reuse the same victims)."""
        kind = face.kind
        victim = self.next_seat
        value = 0.0
        amount = self.draw_amount(face)
        if kind is Kind.WILD_REVERSE_DRAW4 and not self.two_standing:
            victim = self.prev_seat
        if amount and not self.self_hit(face):
            value += HURT * amount * self.urgency(victim)
            limit = self.variant.mercy_limit
            if limit is not None and self.counts[victim] + amount >= limit:
                value += KNOCK_OUT
            if self.challengeable(face) and _holds(hand, color):
                value -= self.bluff_risk(face, hand)
        if not self.two_standing:
            if kind is Kind.SKIP or amount or kind in _LOSES_TURN:
                value += SKIP_HURT * self.urgency(victim)
            elif kind is Kind.REVERSE:
                value += SKIP_HURT * (self.urgency(self.next_seat) - self.urgency(self.prev_seat))
            if kind is Kind.SKIP_EVERYONE:
                value += SKIP_HURT * sum(self.urgency(s) for s in self.active if s != self.me)
        if kind is Kind.FLIP and top_level:
            value += FLIP_WEIGHT * self.flip_gain(hand, face)
        return value

    def bluff_risk(self, face: Face, hand: tuple[Face, ...]) -> float:
        """Expected cost of playing a challengeable card while holding the colour: a careful
        victim challenges when the bluff odds (judged from the hand size) are good."""
        left = len(hand) - 1
        if bluff_odds(self.view.variant, self.side, left) < challenge_break_even(face):
            return 0.0
        # Caught: the player draws the card's amount and the victim plays on.
        return HURT * self.draw_amount(face) * 3 + 2 * SHED

    def flip_gain(self, hand: tuple[Face, ...], flip: Face) -> float:
        """UNO Flip: what turning everything over is worth, from the faces the player can
        see.  Opponents' next hands are their visible backs; the player's own next hand is
        unseen, so it counts at the other side's average."""
        here = self.side
        there = Side.DARK if here is Side.LIGHT else Side.LIGHT
        _, mean_here = _deck_facts(self.view.variant, here)
        _, mean_there = _deck_facts(self.view.variant, there)
        mine_now = sum(_power(f) for f in hand) - _power(flip)
        gain = mean_there * (len(hand) - 1) - mine_now
        for seat in self.view.seats:
            if seat.seat == self.me or seat.knocked_out or seat.back_faces is None:
                continue
            theirs_after = sum(_power(_face(c)) for c in seat.back_faces)
            theirs_now = mean_here * seat.cards
            gain -= (theirs_after - theirs_now) * self.urgency(seat.seat) / 2
        return gain


def _holds(hand: tuple[Face, ...], color: Color | None) -> bool:
    return color is not None and any(f.color == color for f in hand)


def _neighbour(view: View, seat: int, step: int) -> int:
    n = len(view.seats)
    other = seat
    for _ in range(n):
        other = (other + step) % n
        if not view.seats[other].knocked_out:
            return other
    return seat


def bluff_odds(variant_name: str, side: Side, cards_left: int) -> float:
    """The chance a player who holds ``cards_left`` other cards had one of the colour in
    play, discounted because players bluff less often than chance would have them hold it."""
    share, _ = _deck_facts(variant_name, side)
    return CHALLENGE_TRUST * (1.0 - (1.0 - share) ** cards_left)


def challenge_break_even(face: Face) -> float:
    """The bluff odds above which a challenge pays: a won challenge saves the draw and the
    turn and makes the bluffer draw instead; a lost one costs two cards more."""
    amount = face.kind.draw_amount or _DRAW_UNTIL_COLOR.get(face.kind, 0)
    gain = 2 * amount + 1
    loss = 2
    return loss / (gain + loss)


@dataclass(slots=True)
class _Recall:
    """What one player remembers between their own decisions in a round: what they left
    on the table, and what their one opponent drew on (so lacked): its colour, and every
    card that would have fitted it (``lacks_kinds``: its kind and the wilds)."""

    round: int
    version: int
    view: View | None = None
    left_face: Face | None = None  # the card they left on top, None when unknown
    left_color: str | None = None
    lacks: dict[int, dict[Color, int]] = field(default_factory=dict)
    lacks_kinds: dict[int, dict[Kind, int]] = field(default_factory=dict)

    def learn(self, view: View) -> None:
        """Compare the new view with what was left.  The opponent had nothing to play on
        it (they drew) when they hold more cards and the same top card is still there, or
        when they hold as many and a card of another colour lies on it (the one they drew
        and played at once)."""
        before = self.view
        if before is None or view.pending is None or view.viewer is None:
            return
        active = [s.seat for s in view.seats if not s.knocked_out]
        if len(active) != 2:
            return
        opponent = active[0] if active[1] == view.viewer else active[1]
        count = view.seats[opponent].cards
        face = self.left_face
        lacked = self.lacks.setdefault(opponent, {})
        lacked_kinds = self.lacks_kinds.setdefault(opponent, {})
        if view.color is not None and view.top != (face.code if face else None):
            lacked.pop(Color(view.color), None)  # they played that colour since
            lacked_kinds.pop(_face(view.top).kind, None)  # and that kind
        if view.reveal_of == opponent:
            # A lost challenge showed their hand: every colour missing from it is lacked.
            held = {_face(code).color for code in view.reveal}
            side = Side.DARK if view.side == "dark" else Side.LIGHT
            for color in side.colors:
                if color not in held:
                    lacked[color] = len(view.reveal)
        if (
            face is None
            or self.left_color is None
            or view.pending.kind is not PendingKind.TURN
            or face.kind in _TEMPO_KINDS
            or _DRAWS[face.kind]
        ):
            return
        had = before.seats[opponent].cards
        same_top = view.top == face.code and view.color == self.left_color
        drew_and_kept = same_top and count > had
        drew_and_played = not same_top and count == had and view.color != self.left_color
        if drew_and_kept or drew_and_played:
            lacked[Color(self.left_color)] = count
            # Nor a card of its kind, nor a wild: the strong player draws with a card that
            # fits only to keep a plain wild, in 3.5 % of its draws (300 rounds of
            # 2-player Classic).
            for kind in (face.kind, *WILD_KINDS):
                lacked_kinds[kind] = count

    def color_before(self, view: View) -> Color | None:
        """With two standing, the colour a draw card to answer was played on: the one this
        player left, when the opponent played nothing else since."""
        before, pending = self.view, view.pending
        if before is None or pending is None or pending.source is None or not self.left_color:
            return None
        if pending.kind is not PendingKind.RESPOND_TO_DRAW or len(view.seats) != 2:
            return None
        if view.seats[pending.source].cards != before.seats[pending.source].cards - 1:
            return None
        return Color(self.left_color)

    def chances(self, view: View, seat: int, share: float) -> dict[Color, float]:
        count = view.seats[seat].cards
        return {
            color: (1.0 - share) ** max(0, count - at)
            for color, at in self.lacks.get(seat, {}).items()
        }

    def remember(self, view: View, action: Action) -> None:
        self.view, self.version = view, view.version
        if action.type is ActionType.PLAY:
            self.left_face = _action_face(action)
            self.left_color = None if self.left_face.color is None else self.left_face.color.value
        elif action.type is ActionType.CHOOSE_COLOR and action.color is not None:
            self.left_color = action.color.value
        elif action.type in (ActionType.DRAW, ActionType.PASS):
            self.left_face = _face(view.top)
            self.left_color = view.color
        elif action.type not in (ActionType.CALL_UNO, ActionType.CATCH):
            self.left_face = self.left_color = None


# Cards after which the opponent loses the turn with two standing (no draw to learn from).
_TEMPO_KINDS = frozenset({Kind.SKIP, Kind.REVERSE, Kind.SKIP_EVERYONE, Kind.WILD_COLOR_ROULETTE})


class StrongPolicy:
    name = "strong"

    def __init__(self, remembers: bool = False) -> None:
        # Only a player seated at one game remembers (``for_game``); the registry's
        # instance, shared by every game and every stand-in, decides from the view alone.
        self.remembers = remembers
        self._recall: _Recall | None = None

    def for_game(self) -> StrongPolicy:
        return StrongPolicy(remembers=True)

    def choose(self, view: View, rng: random.Random) -> Action:
        recall = self._recall_for(view) if self.remembers else None
        action = self._choose(view, recall)
        if recall is not None:
            recall.remember(view, action)
        return action

    def _recall_for(self, view: View) -> _Recall:
        recall = self._recall
        if recall is None or recall.round != view.round or recall.version >= view.version:
            recall = self._recall = _Recall(view.round, view.version)
        else:
            recall.learn(view)
        return recall

    def _choose(self, view: View, recall: _Recall | None) -> Action:
        legal = view.legal
        assert view.pending is not None
        by_type = _by_type(legal)
        planner = _Planner.of(view)
        if recall is not None:
            share, _ = _deck_facts(view.variant, planner.side)
            planner.lacking = recall.chances(view, planner.next_seat, share)
            planner.color_before = recall.color_before(view)
        if not _frozen(view):
            # Frozen (Minions), a catch or an UNO call costs 4 cards, even on one's own turn
            # (RULES.md §6); not calling costs 2, and only if somebody notices.
            if ActionType.CATCH in by_type:
                return by_type[ActionType.CATCH][0]
            if ActionType.CALL_UNO in by_type:
                return by_type[ActionType.CALL_UNO][0]
        match view.pending.kind:
            case PendingKind.CHOOSE_COLOR:
                return _color_action(legal, planner.best_color(_hand(view)))
            case PendingKind.CHOOSE_ROULETTE_COLOR:
                return _color_action(legal, _roulette_color(planner, _hand(view)))
            case PendingKind.CHOOSE_SWAP:
                return _swap_target(planner, by_type[ActionType.SWAP])
            case PendingKind.RESPOND_TO_DRAW:
                return _respond(planner, view, by_type)
            case PendingKind.PLAY_DRAWN:
                return _play_drawn(planner, view, by_type)
            case _:
                return _turn(planner, view, by_type)

    def react(self, view: View, rng: random.Random) -> Action | None:
        by_type = _by_type(view.legal)
        if _frozen(view):
            # Out of turn, even calling UNO costs a frozen player 4 cards (RULES.md §6);
            # being caught costs 2, and only if somebody notices.
            return None
        if ActionType.CALL_UNO in by_type:
            return by_type[ActionType.CALL_UNO][0]
        if ActionType.CATCH in by_type:
            return by_type[ActionType.CATCH][0]
        plays = by_type.get(ActionType.PLAY)
        if plays:
            # Jump-In: an identical card out of turn sheds a card and takes the turn.
            planner = _Planner.of(view)
            hand = _hand(view)
            color = Color(view.color) if view.color else None
            return max(
                plays, key=lambda a: planner.play_value(hand, _action_face(a), color, 0, True)
            )
        return None


def _by_type(legal: tuple[Action, ...]) -> dict[ActionType, list[Action]]:
    out: dict[ActionType, list[Action]] = {}
    for action in legal:
        out.setdefault(action.type, []).append(action)
    return out


def _hand(view: View) -> tuple[Face, ...]:
    return tuple(_face(c) for c in view.hand)


def _frozen(view: View) -> bool:
    return view.viewer is not None and view.seats[view.viewer].frozen


def _color_action(legal: tuple[Action, ...], color: Color) -> Action:
    for action in legal:
        if action.type is ActionType.CHOOSE_COLOR and action.color is color:
            return action
    return next(a for a in legal if a.type is ActionType.CHOOSE_COLOR)


def _roulette_color(planner: _Planner, hand: tuple[Face, ...]) -> Color:
    """The roulette turns up cards until the named colour shows: name the colour most of
    which is still unseen (the one the hand holds least of)."""
    tally = Counter(f.color for f in hand if f.color is not None)
    colors = planner.side.colors
    return min(colors, key=lambda c: (tally[c], colors.index(c)))


def _swap_target(planner: _Planner, swaps: list[Action]) -> Action:
    """Take the smallest hand; between equals, the leader's (hurting them most)."""
    seats = planner.view.seats
    return min(
        swaps,
        key=lambda a: (planner.counts[a.target or 0], -seats[a.target or 0].score),
    )


def _respond(planner: _Planner, view: View, by_type: dict[ActionType, list[Action]]) -> Action:
    pending = view.pending
    assert pending is not None
    stacks = by_type.get(ActionType.PLAY, [])
    bounce = [a for a in stacks if planner.self_hit(_action_face(a))]
    passing = [a for a in stacks if a not in bounce]
    if bounce and any(
        planner.stack_value(_action_face(a)) >= planner.stack_value(_action_face(bounce[0]))
        for a in passing
    ):
        # Two standing in No Mercy: a WR+4 comes back to its player with 4 more, who then
        # sends the whole total on with the answer kept for it: one card more shed.
        return bounce[0]
    if passing:
        # Pass the total on with the cheapest answer, keeping the big draw cards (and the
        # wilds) for later: measured better than the card hardest to answer back.
        return min(
            passing,
            key=lambda a: (
                _action_face(a).kind.draw_amount,
                _action_face(a).color is None,
            ),
        )
    if ActionType.CHALLENGE in by_type and pending.source is not None and pending.card_kind:
        odds = bluff_odds(view.variant, planner.side, planner.counts[pending.source])
        if planner.color_before is not None and pending.source == planner.next_seat:
            # Remembered: the colour they played it on, and whether they were seen to lack it.
            odds *= 1.0 - planner.lacking.get(planner.color_before, 0.0)
        if odds > challenge_break_even(Face(None, Kind(pending.card_kind))):
            return by_type[ActionType.CHALLENGE][0]
    return by_type[ActionType.ACCEPT][0]


def _play_drawn(planner: _Planner, view: View, by_type: dict[ActionType, list[Action]]) -> Action:
    play = by_type[ActionType.PLAY][0]
    keep = by_type.get(ActionType.PASS)
    if not keep:
        return play
    hand = _hand(view)
    color = Color(view.color) if view.color else None
    top = _face(view.top)
    value = planner.play_value(hand, _action_face(play), color, look_ahead(len(hand)), True)
    return play if value > planner.position(hand, color, top.kind) else keep[0]


def _turn(planner: _Planner, view: View, by_type: dict[ActionType, list[Action]]) -> Action:
    plays = by_type.get(ActionType.PLAY, [])
    draw = by_type.get(ActionType.DRAW)
    hand = _hand(view)
    color = Color(view.color) if view.color else None
    top = _face(view.top)
    best: Action | None = None
    best_value = 0.0
    for action in plays:
        value = planner.play_value(hand, _action_face(action), color, look_ahead(len(hand)), True)
        if best is None or value > best_value:
            best, best_value = action, value
    if best is None:
        assert draw is not None
        return draw[0]
    if draw and best_value < -DRAW_COST + planner.position(hand, color, top.kind):
        return draw[0]
    return best
