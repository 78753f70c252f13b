"""UNO Minions (RULES.md §6): Classic's 108 cards with themed wilds (Rainbow ``W``, Wild
Banana ``W+4``) plus 4 Dumb Fu (``WDF``) cards that freeze the next player.

Everything else is Classic (``classic.py``), the Wild Banana's challenge included.

**Dumb Fu [digital].**  At the table the next player holds a silly kung-fu pose until
their next turn, or draws 4.  Here the next player is *frozen* from the moment the card
takes effect: they take the turn about to start as usual and stay frozen until the start
of the turn after it (``Table.start_turn`` counts their turns).  A turn that is skipped
(``S``, a draw card, a lost challenge) never starts, so it does not end the freeze: the
seed's "until their next turn" is a turn they play [decision freeze-skipped-turn].  While
frozen, any chat message, button or command of theirs that is not a decision they owe
costs 4 cards, once, and the freeze ends with the penalty.  An action of theirs that
``breaks_freeze`` counts (a catch, an UNO call, a jump-in) still happens, and ``apply``
charges it at once [decision frozen-call-or-catch]; a message, or a press the rules refuse,
the bot reports as the system action ``fm.<seat>``.
Several players can be frozen at once; a new Dumb Fu on a frozen player starts their
freeze again.  A round's end unfreezes everyone.
"""

from __future__ import annotations

from ..actions import Action, ActionType
from ..cards import Card, Kind
from ..events import EventType
from ..state import GameState
from ..table import Table
from ..variant import N_, NP_, CardRule, FirstCard, Variant, VariantWords
from .classic import CLASSIC_DECK, SEVEN_O_RULES, classic_rules, wilds

MINIONS_DECK = CLASSIC_DECK + tuple(wilds(Kind.WILD_DUMB_FU, 4))


def dumb_fu(t: Table, player: int, c: Card) -> None:
    """``WDF``, once its colour is named: the next player is frozen, then their turn
    starts (the first of the two turn starts a freeze lasts for)."""
    victim = t.next_seat(player)
    t.frozen_turns[victim] = 0
    t.emit(EventType.FROZEN, player=victim, by=player)
    t.next_turn(player)


def minions_rules() -> dict[Kind, CardRule[Table]]:
    rules = classic_rules()
    # The Rainbow is Classic's W: turned up first, the player left of the dealer, who plays
    # first, names the colour (the seed's "the person to the left of the starter")
    # [decision first-rainbow].  A Dumb Fu turned up first likewise, and nobody is frozen,
    # since nobody played it (RULES.md §6).
    rules[Kind.WILD_DUMB_FU] = CardRule(
        dumb_fu, points=50, chooses_color=True, first_card=FirstCard.FIRST_PLAYER_CHOOSES_COLOR
    )
    return rules


# Decisions a player can owe: taking one is never "moving" while frozen.
_OWED = frozenset(
    {
        ActionType.PLAY,
        ActionType.DRAW,
        ActionType.PASS,
        ActionType.CHOOSE_COLOR,
        ActionType.CHALLENGE,
        ActionType.ACCEPT,
        ActionType.SWAP,
    }
)


def breaks_freeze(state: GameState, action: Action) -> bool:
    """Whether ``action`` is a frozen player moving (RULES.md §6): anything but a decision
    they owe now.  Their own move, a colour, a challenge answer, a stack and a swap target
    don't count; catching another player, jumping in out of turn and calling UNO (even for
    their own play) do [decision frozen-call-or-catch]."""
    seat = action.player
    if seat is None or not 0 <= seat < len(state.players) or not state.players[seat].frozen:
        return False
    pending = state.pending
    if pending is None:
        return False
    return pending.player != seat or action.type not in _OWED


MINIONS = Variant(
    name="minions",
    title="UNO Minions",
    words=VariantWords(
        name=N_("Minions"),
        title=NP_("variant", "UNO Minions"),
        summary=N_(
            "Classic plus Dumb Fu: it freezes the next player, and moving out of turn then "
            "costs them 4 cards."
        ),
    ),
    deck=MINIONS_DECK,
    rules=minions_rules(),
    seven_o_rules=SEVEN_O_RULES,
    themed_names={
        Kind.WILD: "Rainbow",
        Kind.WILD_DRAW4: "Wild Banana",
        Kind.WILD_DUMB_FU: "Dumb Fu",
    },
)
