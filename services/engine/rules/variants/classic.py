"""Classic UNO (RULES.md §2): the 108-card deck, its card rules and scoring.

Minecraft and Minions start from ``classic_rules()`` and add their one card; No Mercy
builds its deck with ``numbered_deck`` and ``wilds``.
"""

from __future__ import annotations

from ..cards import LIGHT_COLORS, NUMBER_KINDS, Card, Face, Kind
from ..effects import draw_card, next_player, reverse, seven, skip, zero
from ..table import Table
from ..variant import N_, NP_, CardRule, FirstCard, Variant, VariantWords


def numbered_deck(
    zeros: int = 1, others: int = 2, actions: dict[Kind, int] | None = None
) -> list[Card]:
    """Per light colour: ``zeros`` zeros, ``others`` of each 1–9, and the given actions."""
    deck: list[Card] = []
    for color in LIGHT_COLORS:
        for kind in NUMBER_KINDS:
            count = zeros if kind is Kind.N0 else others
            deck += [Card(Face(color, kind))] * count
        for kind, count in (actions or {}).items():
            deck += [Card(Face(color, kind))] * count
    return deck


def wilds(kind: Kind, count: int) -> list[Card]:
    return [Card(Face(None, kind))] * count


CLASSIC_DECK: tuple[Card, ...] = tuple(
    numbered_deck(actions={Kind.DRAW2: 2, Kind.REVERSE: 2, Kind.SKIP: 2})
    + wilds(Kind.WILD, 4)
    + wilds(Kind.WILD_DRAW4, 4)
)


def number_rule() -> CardRule[Table]:
    return CardRule(next_player)


def classic_rules() -> dict[Kind, CardRule[Table]]:
    rules = {kind: number_rule() for kind in NUMBER_KINDS}
    rules[Kind.SKIP] = CardRule(skip, points=20, first_card=FirstCard.SKIP_FIRST_PLAYER)
    rules[Kind.REVERSE] = CardRule(reverse, points=20, first_card=FirstCard.DEALER_STARTS_REVERSED)
    rules[Kind.DRAW2] = CardRule(draw_card, points=20, first_card=FirstCard.AS_IF_DEALER_PLAYED)
    rules[Kind.WILD] = CardRule(
        next_player, points=50, chooses_color=True, first_card=FirstCard.FIRST_PLAYER_CHOOSES_COLOR
    )
    rules[Kind.WILD_DRAW4] = CardRule(
        draw_card, points=50, chooses_color=True, first_card=FirstCard.REDRAW, challengeable=True
    )
    return rules


# Seven-O house rule (RULES.md §2 "House rules"): 7 swaps hands, 0 passes every hand on.
SEVEN_O_RULES = {Kind.N7: CardRule(seven), Kind.N0: CardRule(zero)}

CLASSIC = Variant(
    name="classic",
    title="Classic UNO",
    words=VariantWords(
        name=N_("Classic"),
        title=NP_("variant", "Classic UNO"),
        summary=N_(
            "Match the colour, number or symbol; +2, skip, reverse, wilds; call UNO at two cards."
        ),
    ),
    deck=CLASSIC_DECK,
    rules=classic_rules(),
    seven_o_rules=SEVEN_O_RULES,
)
