"""A variant is data plus small named hooks (STYLE.md "A variant is data").

Deck, hand size, target score, draw policy, stacking, first-card handling and scoring are
values here; what a card *does* is a ``CardRule`` whose ``effect`` is a small function from
``effects``.  The engine asks the variant, never "which variant is this".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic

from typing_extensions import TypeVar

from .cards import Card, Kind

if TYPE_CHECKING:
    from .state import Options

# The table a variant's hooks act on: ``table.Table``, which holds its variant.  It is a
# type parameter rather than an import, so that this module does not depend on ``table``
# (which depends on this one); the rules name it ``Variant[Table]``, ``CardRule[Table]``.
# Readers that only look a rule up (the AI players) may leave it out.
TableT = TypeVar("TableT", default=Any)

# An effect runs after a card is on the discard pile and, for a wild, after its colour is
# known.  ``player`` played it.  It must leave the table owing a decision (usually by
# starting the next player's turn) unless the round has ended.
Effect = Callable[[TableT, int, Card], None]

# How a victim takes a draw card's cards: ``(table, victim, extra, cause)``.  ``extra`` is
# added by a lost challenge.  ``None`` in a rule means "draw the card's amount".
Penalty = Callable[[TableT, int, int, int | None], None]


class FirstCard(StrEnum):
    """What happens when a card of this kind is the first card turned up (RULES.md §2)."""

    NONE = "none"  # number cards: the first player just plays
    AS_IF_DEALER_PLAYED = "as_if_dealer_played"  # +2, +1, +5: hits the first player
    SKIP_FIRST_PLAYER = "skip_first_player"  # S (and Flip's SE): the first player is skipped
    DEALER_STARTS_REVERSED = "dealer_starts_reversed"  # R: the dealer plays first, reversed
    FIRST_PLAYER_CHOOSES_COLOR = "first_player_chooses_color"  # W: choose, then play
    REDRAW = "redraw"  # W+4 and kin: back into the pile, reshuffle, turn another
    IGNORE = "ignore"  # No Mercy: leave it, turn up the next card on top of it
    FLIP = "flip"  # UNO Flip's F: turn everything over, then judge the new top card


def N_(message: str) -> str:
    """Marks ``message`` as a message id of the fronts' catalogs: their extraction finds it
    here, and a front translates it where it shows it."""
    return message


def NP_(context: str, message: str) -> str:
    """``N_`` for a message id meant in ``context`` (a variant's title: ``TITLE_CONTEXT``);
    the context is written here for the extraction, and the front passes it again."""
    return message


#: The gettext context of every variant's title (``VariantWords.title``).
TITLE_CONTEXT = "variant"


@dataclass(frozen=True)
class VariantWords:
    """What a front shows of a variant, as message ids of the fronts' catalogs (the rules
    hold no translation: a front passes each to its ``gettext``, the title in the context
    ``TITLE_CONTEXT``).  Each is marked (``N_``, ``NP_``) where the variant is declared, so
    the catalogs' extraction finds it there."""

    name: str  # "No Mercy": the table's head, the /new keyboard, the lists of variants
    title: str  # "UNO No Mercy": its full name, which people also type (/rules, /top)
    summary: str  # the variant in a sentence: the lobby's 📖 Rules alert
    # The name of each side its cards have (``GameState.side``), where they have two: Flip's
    # "light side" and "dark side".  Empty for one-sided cards.
    side_names: Mapping[str, str] = field(default_factory=dict)


# No ``slots`` on the two generic dataclasses below: a frozen, slotted generic dataclass
# fails when built through its subscripted name (``CardRule[Table](...)``).
@dataclass(frozen=True)
class CardRule(Generic[TableT]):
    effect: Effect[TableT]
    points: int = 0  # numbers score their face value whatever this says
    chooses_color: bool = False  # the card's player names the colour before the effect
    first_card: FirstCard = FirstCard.NONE
    challengeable: bool = False  # legal only without the colour in play; can be challenged
    stack_value: int = 0  # >0: a draw card that can answer (and be answered in) a stack
    penalty: Penalty[TableT] | None = None  # how its victim takes it, if not "draw its amount"
    answer: Effect[TableT] | None = None  # runs when its victim has named a colour (No Mercy WCR)
    # The colour named decides what the victim draws (Flip's WDC), so it is named even when
    # the card is its player's last.
    color_decides_draw: bool = False


class DrawPolicy(StrEnum):
    ONE = "one"  # draw one; play it if you can and want to (Classic)
    UNTIL_PLAYABLE = "until_playable"  # draw until a playable card turns up


class Stacking(StrEnum):
    NONE = "none"
    SAME_KIND = "same_kind"  # Classic's Progressive Draw house rule: +2 on +2, W+4 on W+4
    EQUAL_OR_HIGHER = "equal_or_higher"  # No Mercy: any draw card of equal or higher value


class HouseRule(StrEnum):
    """The chat options of RULES.md §2 "House rules" and "Alternate scoring" that a variant
    may or may not offer.  Each value is the name of its ``Options`` field."""

    PROGRESSIVE_DRAW = "progressive_draw"
    SEVEN_O = "seven_o"
    JUMP_IN = "jump_in"
    DRAW_UNTIL_PLAYABLE = "draw_until_playable"
    ALTERNATE_SCORING = "alternate_scoring"


@dataclass(frozen=True)
class Variant(Generic[TableT]):
    name: str
    # The engine's own English name for it (its refusals); a front shows ``words.title``.
    title: str
    deck: tuple[Card, ...]
    rules: Mapping[Kind, CardRule[TableT]]
    words: VariantWords
    hand_size: int = 7
    target_score: int = 500
    min_players: int = 2
    max_players: int = 10
    draw_policy: DrawPolicy = DrawPolicy.ONE
    must_play_drawn: bool = False  # the playable drawn card must be played (No Mercy)
    draw_only_when_stuck: bool = False  # no drawing while holding a playable card
    stacking: Stacking = Stacking.NONE
    mercy_limit: int | None = None  # No Mercy: this many cards knocks a player out
    knockout_points: int = 0  # No Mercy: scored by whoever caused a knock-out
    # The Seven-O house rule's replacements for 7 and 0, where the variant offers it.
    seven_o_rules: Mapping[Kind, CardRule[TableT]] = field(default_factory=dict)
    double_sided: bool = False  # UNO Flip
    themed_names: Mapping[Kind, str] = field(default_factory=dict)
    # What people type for it besides its name and titles (/top, /rules), e.g. "mercy".
    spellings: tuple[str, ...] = ()

    def rule(self, kind: Kind, options: Options) -> CardRule[TableT]:
        if options.seven_o and kind in self.seven_o_rules:
            return self.seven_o_rules[kind]
        return self.rules[kind]

    def target(self, options: Options) -> int:
        """The score that wins the game: the chat's own target, else the variant's."""
        return options.target_score or self.target_score

    def house_rule_refusal(self, house_rule: HouseRule) -> str | None:
        """Why this variant does not offer ``house_rule`` (None: it does).  ``new_game``
        refuses a game asking for a house rule its variant does not offer
        [decision house-rules-offered].

        The answer follows from the rest of the spec, so a variant documents it by what it
        is: a rule it already plays, or one its scoring contradicts, is not offered again.
        """
        match house_rule:
            case HouseRule.SEVEN_O if not self.seven_o_rules:
                return f"{self.title} offers no Seven-O rules for its 7 and 0 cards"
            case HouseRule.PROGRESSIVE_DRAW if self.stacking is not Stacking.NONE:
                return f"{self.title} already stacks draw cards"
            case HouseRule.DRAW_UNTIL_PLAYABLE if self.draw_policy is not DrawPolicy.ONE:
                return f"{self.title} already draws until a playable card"
            case HouseRule.ALTERNATE_SCORING if self.knockout_points:
                # Knock-outs score for the player who caused them, and a knocked-out hand
                # counts nothing: both reward the wrong player when the lowest total wins.
                return f"{self.title}'s knock-out scoring can't be counted the other way round"
        return None

    @property
    def stacks_draws(self) -> bool:
        """Whether its own rules stack draw cards (No Mercy), whatever the house rules say."""
        return self.stacking is not Stacking.NONE

    @property
    def house_rules(self) -> frozenset[HouseRule]:
        """The house rules this variant offers (the chat's settings list these)."""
        return frozenset(r for r in HouseRule if self.house_rule_refusal(r) is None)
