"""Rounds: the deal, the first card turned up, the end of a round and scoring
(RULES.md §2 "Deal", "First card turned up", "End of a round", "Scoring")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import Card, Side
from .effects import skip
from .events import EventType
from .state import AfterColor, Pending, PendingKind
from .table import Table
from .variant import FirstCard


def deal(t: Table) -> None:
    """Shuffle the whole deck, deal each player their hand one card at a time starting
    at the dealer's left, and turn up the first card."""
    deck = list(t.variant.deck)
    t.rng().shuffle(deck)
    t.draw_pile = deck
    t.discard = []
    t.set_aside = []
    t.side = Side.LIGHT
    t.direction = 1
    t.uno_window = None
    t.frozen_turns = [None] * t.n  # a freeze ends with the round
    t.hands = [[] for _ in range(t.n)]
    t.declared = [False] * t.n
    t.received_one_card = [False] * t.n
    # Every seat is dealt in again: a knock-out lasts for the round it happened in (RULES.md
    # §4 "Mercy") [decision knockout-for-the-round].
    t.knocked_out = [False] * t.n
    t.knockout_points = [0] * t.n
    t.round_winner = None
    t.emit(EventType.ROUND_STARTED, round=t.round, dealer=t.dealer)
    seat = t.dealer
    for _ in range(t.variant.hand_size * t.n):
        seat = t.next_seat(seat)
        t.hands[seat].append(t.draw_pile.pop(0))
    for seat in range(t.n):
        t.emit(
            EventType.DREW_CARDS,
            to=seat,
            player=seat,
            cards=[t.face(c).code for c in t.hands[seat]],
        )
    turn_up_first_card(t)


def turn_up_first_card(t: Table) -> None:
    """Turn up the top of the draw pile and apply its first-card rule; the table then owes
    its first decision.  Also used by set-ups of a round about to start."""
    first = t.next_seat(t.dealer)
    top = t.take_top()
    while True:
        if top is None:  # nothing left to turn up: can only happen in odd set-ups
            t.start_turn(first)
            return
        t.discard.insert(0, top)
        face = t.face(top)
        t.color = face.color
        t.emit(EventType.FIRST_CARD, card=face.code)
        rule = t.rule_of(top)
        match rule.first_card:
            case FirstCard.NONE:
                t.start_turn(first)
            case FirstCard.AS_IF_DEALER_PLAYED:
                rule.effect(t, t.dealer, top)
            case FirstCard.SKIP_FIRST_PLAYER:
                skip(t, t.dealer, top)
            case FirstCard.DEALER_STARTS_REVERSED:
                t.direction = -t.direction
                t.emit(EventType.REVERSED, direction=t.direction)
                t.start_turn(t.dealer)
            case FirstCard.FIRST_PLAYER_CHOOSES_COLOR:
                t.current = first
                t.pending = Pending(PendingKind.CHOOSE_COLOR, first, then=AfterColor.OWN_TURN)
            case FirstCard.REDRAW:
                t.discard.pop(0)
                t.draw_pile.append(top)
                t.rng().shuffle(t.draw_pile)
                t.emit(EventType.RESHUFFLED, size=len(t.draw_pile))
                top = t.take_top()
                continue
            case FirstCard.IGNORE:
                # No rebuilding from the ignored cards here: a set-up whose pile holds
                # only actions would turn them up for ever: play starts on the last one
                # turned up [decision first-card-ignored-to-the-end].
                top = t.draw_pile.pop(0) if t.draw_pile else None
                continue
            case FirstCard.FLIP:
                # The whole game turns over; the face now on top is judged as the first
                # card in its turn (RULES.md §3 "F as the first card").
                t.turn_over()
                top = t.discard.pop(0)
                if t.rule_of(top).first_card is FirstCard.FLIP:
                    # F on both sides (only a hand-written set-up has one) would turn
                    # over forever: play starts on it as it lies
                    # [decision flip-first-card-twice].
                    t.discard.insert(0, top)
                    t.start_turn(first)
                    return
                continue
        return


def hand_points(t: Table, seat: int) -> int:
    return sum(card_points(t, c) for c in t.hands[seat])


def card_points(t: Table, c: Card) -> int:
    face = t.face(c)
    if face.kind.is_number:
        return face.kind.number
    return t.variant.rules[face.kind].points


def round_gains(points: Sequence[int], winner: int, alternate_scoring: bool) -> list[int]:
    """What each seat scores for a round won by ``winner``, from each hand's ``points``
    (RULES.md §2 "Scoring"): the winner scores the other hands (only theirs: a last player
    standing in No Mercy still holds cards); with alternate scoring each player adds their
    own hand."""
    if alternate_scoring:
        return list(points)
    others = sum(p for seat, p in enumerate(points) if seat != winner)
    return [others if seat == winner else 0 for seat in range(len(points))]


def finish_round(t: Table) -> None:
    """Score the round just won and either end the game or deal the next round, the deal
    passing to the left."""
    winner = t.round_winner
    assert winner is not None
    points = [hand_points(t, seat) for seat in range(t.n)]
    for seat, gain in enumerate(round_gains(points, winner, t.options.alternate_scoring)):
        t.scores[seat] += gain
    t.pending = None
    t.uno_window = None
    # Where knock-outs score (No Mercy), what each seat scored for them in the round: the
    # round's result says what each gain is for.
    knockouts: dict[str, Any] = (
        {"knockouts": list(t.knockout_points)} if t.variant.knockout_points else {}
    )
    t.emit(
        EventType.ROUND_ENDED,
        round=t.round,
        winner=winner,
        points=points,
        scores=list(t.scores),
        hands=[[t.face(c).code for c in hand] for hand in t.hands],
        # The round's seed, revealed now that its cards are all known: anyone can check it
        # against the commitment the table showed all round and re-deal the round from it.
        seed=str(t.seed),
        **knockouts,
    )
    game_winner = game_winner_after_round(t, winner)
    if game_winner is not None:
        t.winner = game_winner
        t.emit(EventType.GAME_OVER, winner=game_winner, scores=list(t.scores))
        return
    t.round += 1
    t.dealer = (t.dealer + 1) % t.n
    if t.next_seed is not None:
        # A fresh seed for the new round, its random steps counted from the start.
        t.seed = t.next_seed
        t.rng_counter = 0
    deal(t)


def game_winner_after_round(t: Table, round_winner: int) -> int | None:
    target = t.variant.target(t.options)
    if t.options.alternate_scoring:
        if max(t.scores) < target:
            return None
        # Lowest total wins; on a tie, the round's winner if tied, else the lower seat
        # [decision ties].
        low = min(t.scores)
        if t.scores[round_winner] == low:
            return round_winner
        return t.scores.index(low)
    high = max(t.scores)
    if high < target:
        return None
    # Only the round's winner scores in Classic; in No Mercy knock-outs score too, so the
    # highest total wins; on a tie, the round's winner if tied, else the lower seat
    # [decision ties].
    return round_winner if t.scores[round_winner] == high else t.scores.index(high)
