"""UNO Show 'em No Mercy (RULES.md §4; seed ``seeds/uno-no-mercy.fa.txt``).

The 168-card deck, its card rules and its scoring.  What No Mercy shares with the core is
switched on by the variant's values: draw until playable and play it, no drawing while
holding a playable card, stacking any draw card of equal or higher value, the mercy rule
(25 cards knocks a player out, 250 points to whoever caused it) and 7/0 always in play.
What is No Mercy's own lives here: Discard All, Wild Reverse Draw Four (and its
two-player twist) and the Wild Colour Roulette.
"""

from __future__ import annotations

from ..cards import NUMBER_KINDS, Card, Kind
from ..effects import (
    draw_card,
    lose_turn,
    next_player,
    reverse,
    seven,
    skip,
    skip_everyone,
    zero,
)
from ..events import EventType
from ..state import Pending, PendingKind
from ..table import Table
from ..variant import N_, NP_, CardRule, DrawPolicy, FirstCard, Stacking, Variant, VariantWords
from .classic import numbered_deck, wilds

MERCY_LIMIT = 25  # RULES.md §4 "Mercy"
# RULES.md §4 "Scoring": numbers face value, coloured actions 20, wild actions 50, 250 per
# knock-out to whoever caused it; first to 1000.  [decision ties] The game is decided when a
# round ends (knock-out points can push anyone over), and the highest total wins
# (round.game_winner_after_round: on a tie, the round's winner, else the lower seat).
KNOCKOUT_POINTS = 250
COLOURED_ACTION_POINTS = 20
WILD_POINTS = 50

# RULES.md §4 "Deck (168)": per colour two of each 0–9 and the coloured actions below;
# then the wilds.  No plain W and no W+4.
COLOURED_ACTIONS: dict[Kind, int] = {
    Kind.DRAW2: 3,
    Kind.DRAW4: 2,
    Kind.SKIP: 3,
    Kind.SKIP_EVERYONE: 2,
    Kind.REVERSE: 3,
    Kind.DISCARD_ALL: 3,
}
WILD_COUNTS: dict[Kind, int] = {
    Kind.WILD_REVERSE_DRAW4: 8,
    Kind.WILD_DRAW6: 4,
    Kind.WILD_DRAW10: 4,
    Kind.WILD_COLOR_ROULETTE: 8,
}

NO_MERCY_DECK: tuple[Card, ...] = tuple(
    numbered_deck(zeros=2, others=2, actions=COLOURED_ACTIONS)
    + [c for kind, count in WILD_COUNTS.items() for c in wilds(kind, count)]
)


# -- No Mercy's own card effects --------------------------------------------------------------


def discard_all(t: Table, player: int, c: Card) -> None:
    """DA: every other card of its colour leaves the player's hand, under the DA on the
    discard pile (wilds have no colour and stay).  Emptying the hand this way wins."""
    color = t.face(c).color
    assert color is not None  # DA is a coloured card
    hand = t.hands[player]
    gone = [held for held in hand if t.face(held).color is color]
    if gone:
        t.hands[player] = [held for held in hand if t.face(held).color is not color]
        t.discard[1:1] = gone  # under the DA, which stays on top, face up for all to see
        t.emit(
            EventType.DISCARDED_ALL,
            player=player,
            color=color.value,
            cards=[t.face(x).code for x in gone],
        )
        left = len(t.hands[player])
        if left == 0:
            if t.uno_window == player:
                t.uno_window = None
            t.round_winner = player
            return
        # [decision discard-all-uno] A DA that leaves one card opens the UNO window like any play
        # down to one card; the player can still call UNO while it is open (RULES.md §2
        # "UNO" [digital]), since they could not call it with more than two cards in hand.
        if left == 1 and not t.declared[player] and t.uno_window != player:
            t.uno_window = player
            t.emit(EventType.UNO_WINDOW_OPENED, player=player)
    t.next_turn(player)


def wild_reverse_draw_four(t: Table, player: int, c: Card) -> None:
    """WR+4: the direction reverses, then the next player in the new direction draws 4
    (or stacks) and loses the turn.  With two players standing that next player is the
    card's own player (seed: "playing this card makes *you* draw 4"), who may stack on it
    to send the total back to the opponent.  That holds whenever it is played, also as an
    answer in a stack: with two standing, a WR+4 always hits its own player
    [decision wr4-two-players]."""
    t.direction = -t.direction
    t.emit(EventType.REVERSED, direction=t.direction)
    if len(t.active_players()) == 2:
        if t.round_over:
            # Played as the last card in a two-player round, it would hit its own player,
            # who has already gone out: nobody draws [decision wr4-two-players].
            return
        # A knock-out by one's own WR+4 credits nobody (Table.knock_out ignores a cause
        # equal to the victim) [decision knockout-credit].
        draw_card(t, player, c, victim=player)
        return
    draw_card(t, player, c)


def color_roulette(t: Table, player: int, c: Card) -> None:
    """WCR: not a draw card and not chosen by its player; the *next* player owes the
    choice of colour (RULES.md §4), which ``spin_roulette`` then carries out."""
    victim = t.next_seat(player)
    t.color = None  # until the victim names it
    t.current = victim
    t.pending = Pending(PendingKind.CHOOSE_ROULETTE_COLOR, victim, source=player)


def spin_roulette(t: Table, victim: int, c: Card) -> None:
    """The WCR's victim has named a colour (now the colour in play): they turn up cards
    from the draw pile until one of that colour appears (wilds don't count), take them
    all and lose the turn.  The mercy rule applies card by card, so the reveal stops when
    they are knocked out; an empty pile with nothing to rebuild it from stops it short."""
    pending = t.pending
    source = pending.source if pending is not None else None
    color = t.color
    revealed = t.draw_while(
        victim, lambda drawn: not drawn or t.face(drawn[-1]).color is not color, cause=source
    )
    # The revealed cards were turned face up at the table, so everyone sees them.
    t.emit(
        EventType.ROULETTE,
        player=victim,
        color=color.value if color is not None else None,
        cards=[t.face(x).code for x in revealed],
    )
    if not t.round_over:
        lose_turn(t, victim)


# -- the rules table --------------------------------------------------------------------------


def no_mercy_rules() -> dict[Kind, CardRule[Table]]:
    rules: dict[Kind, CardRule[Table]] = {kind: CardRule(next_player) for kind in NUMBER_KINDS}
    # RULES.md §4 "Seven and zero": always in play.  As the last card they do nothing: the
    # round is won at once (the engine runs no effect after a last card but a draw card's).
    rules[Kind.N7] = CardRule(seven)
    rules[Kind.N0] = CardRule(zero)
    # Every action and wild turned up as the first card is ignored (RULES.md §4 "Deal").
    ignore = FirstCard.IGNORE
    coloured = COLOURED_ACTION_POINTS
    rules[Kind.SKIP] = CardRule(skip, points=coloured, first_card=ignore)
    # With two players standing, R acts as S (effects.reverse; seed "Reverse").
    rules[Kind.REVERSE] = CardRule(reverse, points=coloured, first_card=ignore)
    rules[Kind.SKIP_EVERYONE] = CardRule(skip_everyone, points=coloured, first_card=ignore)
    rules[Kind.DISCARD_ALL] = CardRule(discard_all, points=coloured, first_card=ignore)
    # Draw cards: stack_value is what a stack answer must equal or beat (RULES.md §4
    # "Stacking"); WR+4 counts 4.
    rules[Kind.DRAW2] = CardRule(draw_card, points=coloured, first_card=ignore, stack_value=2)
    rules[Kind.DRAW4] = CardRule(draw_card, points=coloured, first_card=ignore, stack_value=4)
    rules[Kind.WILD_REVERSE_DRAW4] = CardRule(
        wild_reverse_draw_four,
        points=WILD_POINTS,
        chooses_color=True,
        first_card=ignore,
        stack_value=4,
    )
    rules[Kind.WILD_DRAW6] = CardRule(
        draw_card, points=WILD_POINTS, chooses_color=True, first_card=ignore, stack_value=6
    )
    rules[Kind.WILD_DRAW10] = CardRule(
        draw_card, points=WILD_POINTS, chooses_color=True, first_card=ignore, stack_value=10
    )
    # The victim, not the player, names the roulette's colour; WCR can't join a stack.  It
    # is no draw card, so as its player's last card it ends the round with no roulette
    # (``engine._play`` runs only a draw card's effect then) [decision final-wcr].
    rules[Kind.WILD_COLOR_ROULETTE] = CardRule(
        color_roulette, points=WILD_POINTS, first_card=ignore, answer=spin_roulette
    )
    return rules


NO_MERCY = Variant(
    name="no_mercy",
    title="UNO Show 'em No Mercy",
    words=VariantWords(
        name=N_("No Mercy"),
        title=NP_("variant", "UNO No Mercy"),
        summary=N_("Stack draw cards, 7 swaps hands, 0 passes them on, 25 cards knocks you out."),
    ),
    deck=NO_MERCY_DECK,
    rules=no_mercy_rules(),
    target_score=1000,
    # RULES.md §4 "A turn": with no playable card, draw until one turns up and play it.
    # [decision no-mercy-no-draw-while-playable] You may not draw while holding a playable card.
    draw_policy=DrawPolicy.UNTIL_PLAYABLE,
    must_play_drawn=True,
    draw_only_when_stuck=True,
    stacking=Stacking.EQUAL_OR_HIGHER,
    spellings=("nomercy", "mercy"),
    mercy_limit=MERCY_LIMIT,
    knockout_points=KNOCKOUT_POINTS,
)
