"""The registry of playable variants, by name.

A variant is data (``variant.Variant``): its deck, its card rules, its numbers, and what a
front shows of it (``VariantWords``: message ids of the fronts' catalogs).  The fronts read
every fact of a variant from here (through ``services.engine.client.variant_facts``) and
name none themselves, so adding a variant touches this package and the catalogs alone:

1. Write ``<name>.py`` beside the others: its deck, its ``CardRule`` for each kind (reusing
   Classic's where they are the same), and ``Variant(name=..., ...)`` with its ``words``:
   its name, title (``NP_("variant", ...)``) and summary, marked so the catalogs' extraction
   finds them, and its side names if its cards have two sides.  What people type for it
   besides those names goes in ``spellings``.
2. Add it to ``VARIANTS`` below, in the rule sheet's order (the fronts' lists follow it).
3. Add its message ids (and its card names, if its sheet names cards its own way:
   ``services/presentation/locales/glossary.py``) to ``bot.pot`` and every language's
   ``bot.po``, and its rule sheets to ``services/presentation/locales/rules/``.
"""

from __future__ import annotations

from ..table import Table
from ..variant import Variant
from .classic import CLASSIC
from .flip import FLIP
from .minecraft import MINECRAFT
from .minions import MINIONS
from .no_mercy import NO_MERCY

#: In the rule sheet's order (RULES.md §3-§6), which the bot's variant keyboards follow.
VARIANTS: dict[str, Variant[Table]] = {
    v.name: v for v in (CLASSIC, FLIP, NO_MERCY, MINECRAFT, MINIONS)
}


#: What a chat plays when it chose nothing.
DEFAULT_VARIANT = CLASSIC.name


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant[Table]:
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariant(name) from None
