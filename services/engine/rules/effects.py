"""Card effects shared by the variants (RULES.md §2 "Actions"), and the draw-card machinery.

Each effect runs once its card is on the discard pile (and, for a wild, its colour is
chosen) and leaves the table owing the next decision.  Variants pick these by card kind and
add their own in their modules.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Card, Kind, Side
from .events import EventType
from .state import Options, Pending, PendingKind, Reveal
from .table import Table
from .variant import Stacking, Variant


def next_player(t: Table, player: int, c: Card) -> None:
    """Numbers and plain wilds: the turn passes on."""
    t.next_turn(player)


def skip(t: Table, player: int, c: Card) -> None:
    t.next_turn(player, skip=1)


def reverse(t: Table, player: int, c: Card) -> None:
    """With two players standing, Reverse acts as Skip: you play again."""
    if len(t.active_players()) == 2:
        t.next_turn(player, skip=1)
        return
    t.direction = -t.direction
    t.emit(EventType.REVERSED, direction=t.direction)
    t.next_turn(player)


def skip_everyone(t: Table, player: int, c: Card) -> None:
    """Every other player is skipped: the player of the card plays again."""
    for seat in t.active_players():
        if seat != player:
            t.emit(EventType.SKIPPED, player=seat)
    t.start_turn(player)


# -- draw cards --------------------------------------------------------------------------


def stacking(variant: Variant[Table], options: Options) -> Stacking:
    if variant.stacking is not Stacking.NONE:
        return variant.stacking
    return Stacking.SAME_KIND if options.progressive_draw else Stacking.NONE


def stack_answers(
    variant: Variant[Table], options: Options, side: Side, hand: Iterable[Card], kind: Kind
) -> list[Card]:
    """The cards of ``hand`` that may be stacked on a draw card of ``kind``."""
    mode = stacking(variant, options)
    if mode is Stacking.NONE:
        return []
    if mode is Stacking.SAME_KIND:
        # Progressive Draw adds up card amounts, so a card that draws no fixed number
        # (Flip's WDC) starts no stack [decision progressive-no-wdc].
        if not kind.draw_amount:
            return []
        # Only a card of the very same kind answers: +2 on +2, W+4 on W+4, Flip's +1, +5
        # and W+2 and Minecraft's W+3 likewise, never across kinds
        # [decision progressive-same-kind].
        return [c for c in hand if c.face(side).kind is kind]
    rules = variant.rules
    value = max(rules[kind].stack_value, 1)
    return [c for c in hand if rules[c.face(side).kind].stack_value >= value]


def penalize(
    t: Table, victim: int, kind: Kind, amount: int, extra: int = 0, cause: int | None = None
) -> None:
    """``victim`` takes what a draw card of ``kind`` owes (plus ``extra``)."""
    rule = t.variant.rules[kind]
    if rule.penalty is not None:
        rule.penalty(t, victim, extra, cause)
    else:
        t.draw(victim, amount + extra, cause)


def draw_card(t: Table, player: int, c: Card, victim: int | None = None) -> None:
    """A draw card hits the next player (or ``victim``: No Mercy's two-player WR+4 hits its
    own player): they draw and lose the turn, unless they may answer it (challenge or
    stack), in which case they owe that decision."""
    victim = t.next_seat(player) if victim is None else victim
    kind = t.face(c).kind
    rule = t.variant.rules[kind]
    amount = kind.draw_amount + t.stack_carry
    if not t.round_over:
        # A stacked card answers a draw card instead of matching the colour in play, so the
        # colour rule and the challenge don't apply to it (Progressive Draw's W+4 on W+4)
        # [decision progressive-challenge].
        challengeable = rule.challengeable and t.stack_carry == 0
        if challengeable or stack_answers(t.variant, t.options, t.side, t.hands[victim], kind):
            t.current = victim
            t.pending = Pending(
                PendingKind.RESPOND_TO_DRAW,
                victim,
                source=player,
                card_kind=kind,
                amount=amount,
                challengeable=challengeable,
                bluffed=t.bluffed,
            )
            return
    take_draw(t, victim, kind, amount, cause=player)


def take_draw(t: Table, victim: int, kind: Kind, amount: int, cause: int | None) -> None:
    """The victim draws what is owed and loses the turn."""
    penalize(t, victim, kind, amount, cause=cause)
    if not t.round_over:
        lose_turn(t, victim)


def lose_turn(t: Table, victim: int) -> None:
    """The victim of a draw card misses the turn (a knocked-out victim has none to miss)."""
    if not t.knocked_out[victim]:
        t.emit(EventType.SKIPPED, player=victim)
    t.start_turn(t.next_seat(victim))


def resolve_challenge(t: Table, challenger: int, pending: Pending) -> None:
    """RULES.md §2 "Challenge": the challenged hand is shown to the challenger only.
    Guilty: the card's player takes its draw and the challenger plays on.  Innocent: the
    challenger takes the draw and two more, and loses the turn."""
    source = pending.source
    kind = pending.card_kind
    assert source is not None and kind is not None
    hand = tuple(t.hands[source])
    t.reveal = Reveal(to=challenger, of=source, hand=hand)
    t.emit(EventType.CHALLENGED, player=challenger, target=source, guilty=pending.bluffed)
    t.emit(
        EventType.CHALLENGE_REVEAL,
        to=challenger,
        target=source,
        cards=[t.face(c).code for c in hand],
    )
    if pending.bluffed:
        penalize(t, source, kind, pending.amount, cause=challenger)
        if not t.round_over:
            t.start_turn(challenger)
    else:
        penalize(t, challenger, kind, pending.amount, extra=2, cause=source)
        if not t.round_over:
            lose_turn(t, challenger)


# -- Seven-O (house rule) and No Mercy's 7 and 0 ----------------------------------------------


def seven(t: Table, player: int, c: Card) -> None:
    """7: the player must swap hands with a player they choose.  A 7 played down to one
    card without calling UNO leaves the UNO window open while the swap is owed: they may
    call, the others may catch [decision uno-window-seven-choice]."""
    if t.round_over:
        return
    t.pending = Pending(PendingKind.CHOOSE_SWAP, player)


def swap_hands(t: Table, player: int, target: int) -> None:
    t.hands[player], t.hands[target] = t.hands[target], t.hands[player]
    if t.uno_window in (player, target):
        # The player who could be caught no longer holds the one card they failed to call
        # UNO on, and its new holder did nothing wrong: the UNO window closes
        # [decision uno-window-swap].
        t.close_uno_window()
    handed_over(t, (player, target))
    t.emit(EventType.SWAPPED, player=player, target=target)
    t.next_turn(player)


def handed_over(t: Table, seats: Iterable[int]) -> None:
    """``seats`` hold a hand that was someone else's: nobody has called UNO on it, and a
    one-card hand can't be caught, but its new holder may still call UNO on it
    [decision uno-call-received-hand]."""
    for seat in seats:
        t.declared[seat] = False
        t.received_one_card[seat] = len(t.hands[seat]) == 1


def zero(t: Table, player: int, c: Card) -> None:
    """0: every hand passes to the next player in the direction of play."""
    if t.round_over:
        return
    seats = t.active_players()
    hands = [t.hands[s] for s in seats]
    # Seat i receives the hand of the player before it in the direction of play.
    for i, seat in enumerate(seats):
        t.hands[seat] = hands[(i - t.direction) % len(seats)]
    if t.uno_window is not None:
        # The uncalled card moved on, as in ``swap_hands`` [decision uno-window-swap].
        t.close_uno_window()
    handed_over(t, seats)
    t.emit(EventType.HANDS_ROTATED, direction=t.direction)
    t.next_turn(player)
