"""UNO Flip (RULES.md §3): the 112 double-sided cards, their rules on each side, and scoring.

Play is Classic play (``classic.py``) with these cards.  Which side is in play lives in the
state (``GameState.side``); every card is read through the face on that side, so the engine
needs nothing but the rules below, ``Table.turn_over`` for ``F`` and the first-card rule
``FirstCard.FLIP``.
"""

from __future__ import annotations

from ..cards import DARK_COLORS, LIGHT_COLORS, NUMBER_KINDS, Card, Face, Kind
from ..effects import draw_card, next_player, reverse, skip, skip_everyone
from ..state import AfterColor, Pending, PendingKind
from ..table import Table
from ..variant import N_, NP_, CardRule, FirstCard, Variant, VariantWords

# -- the deck ----------------------------------------------------------------------------

# Each colour's 26 coloured faces, in the order the pairing below counts them.
_NUMBERS_TWICE: tuple[Kind, ...] = tuple(
    k for k in NUMBER_KINDS if k is not Kind.N0 for _ in (0, 1)
)
_LIGHT_RUN: tuple[Kind, ...] = (
    *_NUMBERS_TWICE,
    *(Kind.DRAW1, Kind.DRAW1, Kind.REVERSE, Kind.REVERSE),
    *(Kind.SKIP, Kind.SKIP, Kind.FLIP, Kind.FLIP),
)
_DARK_RUN: tuple[Kind, ...] = (
    *_NUMBERS_TWICE,
    *(Kind.DRAW5, Kind.DRAW5, Kind.REVERSE, Kind.REVERSE),
    *(Kind.SKIP_EVERYONE, Kind.SKIP_EVERYONE, Kind.FLIP, Kind.FLIP),
)
_RUN = len(_LIGHT_RUN)  # 26
_HALF_RUN = _RUN // 2  # 13


def flip_deck() -> tuple[Card, ...]:
    """The 112 cards, each light face paired with one dark face.

    Mattel does not publish which dark face is printed behind which light face, so we fix
    one bijection, the same in every game [decision flip-pairing] (RULES.md §3 "Deck"):

    - Coloured cards: list each colour's 26 faces as ``1 1 2 2 … 9 9`` followed by its
      actions (light ``+1 +1 R R S S F F``; dark ``+5 +5 R R SE SE F F``).  The ``j``-th
      face of the ``i``-th light colour (R Y G B) backs onto the ``(j + 13) mod 26``-th face
      of the ``(i + 1) mod 4``-th dark colour (P T O V).  Both maps are permutations, so
      this is a bijection between the 104 coloured light faces and the 104 coloured dark
      faces.  Half a run's shift means no card shows the same kind on both sides: a light
      number backs a dark number of a different value or a dark action, and a light action
      backs a dark number (so the back of a card says little about its front).
    - Wilds: the 4 light ``W`` back the 4 dark ``WDC``; the 4 light ``W+2`` back the 4 dark
      ``W``.

    In particular no ``F`` backs an ``F``: an ``F`` turned up as the first card turns the
    game over exactly once (a light ``F`` shows a dark ``6`` or ``7``).
    """
    deck: list[Card] = []
    for i, light_color in enumerate(LIGHT_COLORS):
        dark_color = DARK_COLORS[(i + 1) % len(DARK_COLORS)]
        for j, light_kind in enumerate(_LIGHT_RUN):
            dark_kind = _DARK_RUN[(j + _HALF_RUN) % _RUN]
            deck.append(Card(Face(light_color, light_kind), Face(dark_color, dark_kind)))
    deck += [Card(Face(None, Kind.WILD), Face(None, Kind.WILD_DRAW_COLOR))] * 4
    deck += [Card(Face(None, Kind.WILD_DRAW2), Face(None, Kind.WILD))] * 4
    return tuple(deck)


FLIP_DECK: tuple[Card, ...] = flip_deck()


# -- card effects ------------------------------------------------------------------------


def flip(t: Table, player: int, c: Card) -> None:
    """``F``: the whole game turns over (RULES.md §3 "Both sides").

    Play then goes on to the next player in the direction of play: the seeds say only that
    play continues on the other side, and ``F`` is not a skip.  A card that ``F`` brings to
    the top of the discard pile only sets what must be matched: its action does not happen,
    as it was played long ago [decision flip-turn-passes].  If it is a wild, the player of
    the ``F`` names the colour first [decision flip-wild-on-top], then the next player plays.

    An ``F`` that is its player's last card ends the round before it turns anything over
    (RULES.md §2 "End of a round": only a draw card still acts), so the round is scored on
    the side that was in play [decision final-flip].
    """
    t.turn_over()
    if t.color is None:
        t.current = player
        t.pending = Pending(PendingKind.CHOOSE_COLOR, player, then=AfterColor.NEXT_TURN)
        return
    t.next_turn(player)


def draw_until_color(t: Table, victim: int, extra: int, cause: int | None) -> None:
    """``WDC``'s penalty (RULES.md §3 "Dark actions"): draw until a card of the colour in
    play turns up, then ``extra`` more (2 for a challenger proven wrong).

    A drawn wild has no colour, so it does not stop the draw [decision wdc-drawn-wild].
    The draw reshuffles the discards when the pile runs out and stops short only when no
    card is left anywhere (RULES.md §2 "Draw pile empty").  A ``WDC`` played as a player's
    last card still has its colour named by that player (``color_decides_draw``), and the
    victim draws until that colour (RULES.md §2 "End of a round").
    """
    wanted = t.color

    def more(drawn: list[Card]) -> bool:
        for position, c in enumerate(drawn):
            if t.face(c).color == wanted:
                return len(drawn) - 1 - position < extra
        return True

    t.draw_while(victim, more, cause)


# -- the rules ---------------------------------------------------------------------------


def flip_rules() -> dict[Kind, CardRule[Table]]:
    """Light and dark kinds side by side.  ``R``, ``F`` and ``W`` appear on both sides and
    score the same there (RULES.md §3 "Scoring"), so one rule per kind is enough."""
    rules: dict[Kind, CardRule[Table]] = {
        kind: CardRule(next_player) for kind in NUMBER_KINDS if kind is not Kind.N0
    }
    # Both sides.
    rules[Kind.REVERSE] = CardRule(reverse, points=20, first_card=FirstCard.DEALER_STARTS_REVERSED)
    rules[Kind.FLIP] = CardRule(flip, points=20, first_card=FirstCard.FLIP)
    rules[Kind.WILD] = CardRule(
        next_player, points=40, chooses_color=True, first_card=FirstCard.FIRST_PLAYER_CHOOSES_COLOR
    )
    # Light side.
    rules[Kind.DRAW1] = CardRule(draw_card, points=10, first_card=FirstCard.AS_IF_DEALER_PLAYED)
    rules[Kind.SKIP] = CardRule(skip, points=20, first_card=FirstCard.SKIP_FIRST_PLAYER)
    rules[Kind.WILD_DRAW2] = CardRule(
        draw_card, points=50, chooses_color=True, first_card=FirstCard.REDRAW, challengeable=True
    )
    # Dark side.
    rules[Kind.DRAW5] = CardRule(draw_card, points=20, first_card=FirstCard.AS_IF_DEALER_PLAYED)
    # SE as the first card: "like S", the first player is skipped (RULES.md §3).
    rules[Kind.SKIP_EVERYONE] = CardRule(
        skip_everyone, points=30, first_card=FirstCard.SKIP_FIRST_PLAYER
    )
    rules[Kind.WILD_DRAW_COLOR] = CardRule(
        draw_card,
        points=60,
        chooses_color=True,
        first_card=FirstCard.REDRAW,
        challengeable=True,
        penalty=draw_until_color,
        color_decides_draw=True,
    )
    return rules


# No Seven-O for Flip (no ``seven_o_rules``): the deck has no 0, and the seeds offer no
# house rules of their own [decision house-rules-offered].
FLIP = Variant(
    name="flip",
    title="UNO Flip",
    words=VariantWords(
        name=N_("Flip"),
        title=NP_("variant", "UNO Flip"),
        summary=N_(
            "Classic with a light and a dark side; ⤵ flips every card. Dark side: +5, skip "
            "everyone, wild draw colour."
        ),
        side_names={"light": N_("light side"), "dark": N_("dark side")},
    ),
    deck=FLIP_DECK,
    rules=flip_rules(),
    double_sided=True,
)
