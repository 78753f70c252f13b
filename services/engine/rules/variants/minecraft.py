"""UNO Minecraft (RULES.md §5): Classic's 108 cards plus 4 Mob cards, the Creeper (``W+3``).

Everything but the Creeper is Classic (``classic.py``): first-card rules, the ``W+4``
challenge, UNO, 500 points, alternate scoring and the Classic house rules.
"""

from __future__ import annotations

from ..cards import Kind
from ..effects import draw_card
from ..table import Table
from ..variant import N_, NP_, CardRule, FirstCard, Variant, VariantWords
from .classic import CLASSIC_DECK, SEVEN_O_RULES, classic_rules, wilds

MINECRAFT_DECK = CLASSIC_DECK + tuple(wilds(Kind.WILD_DRAW3, 4))


def minecraft_rules() -> dict[Kind, CardRule[Table]]:
    rules = classic_rules()
    # The seed names the card "draw three" and says no more, so it is a plain wild draw
    # card [decision creeper]: its player names the colour, the next player draws 3
    # and loses the turn; playable at any time, so there is nothing to challenge.  As the
    # first card it goes back like a W+4 (the first player would otherwise draw 3 for a
    # card nobody played).  With Progressive Draw a W+3 stacks on a W+3 only (same kind).
    rules[Kind.WILD_DRAW3] = CardRule(
        draw_card, points=50, chooses_color=True, first_card=FirstCard.REDRAW
    )
    return rules


MINECRAFT = Variant(
    name="minecraft",
    title="UNO Minecraft",
    words=VariantWords(
        name=N_("Minecraft"),
        title=NP_("variant", "UNO Minecraft"),
        summary=N_("Classic plus the Creeper (wild +3)."),
    ),
    deck=MINECRAFT_DECK,
    rules=minecraft_rules(),
    seven_o_rules=SEVEN_O_RULES,
    themed_names={Kind.WILD_DRAW3: "Mob (Creeper)"},
)
