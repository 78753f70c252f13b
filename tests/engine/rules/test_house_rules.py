"""RULES.md §2 "House rules" (Progressive draw, Seven-O, Jump-In, Draw-until-playable),
§2 "Scoring" (alternate scoring, the target score), the false-catch option of §2 "UNO",
and which variants offer which house rule."""

from __future__ import annotations

from typing import Any

import pytest

from services.engine.rules import (
    EventType,
    GameState,
    HouseRule,
    Options,
    PendingKind,
    Reason,
    Setup,
    SetupError,
    card,
    from_setup,
    new_game,
    view,
)
from services.engine.rules.actions import (
    accept,
    call_uno,
    catch,
    challenge,
    choose_color,
    draw,
    keep,
    play,
    swap,
)
from services.engine.rules.cards import Kind, Side
from services.engine.rules.effects import stack_answers
from services.engine.rules.variants import get_variant
from tests.helpers.rules import after, hand, of_type, ok, refused, table

PILE = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9"
# The variants whose house rules are Classic's (RULES.md §5, §6: "everything else is
# Classic").
CLASSIC_LIKE = ("classic", "minecraft", "minions")

PROGRESSIVE = Options(progressive_draw=True)
SEVEN_O = Options(seven_o=True)
JUMP_IN = Options(jump_in=True)


def mid_round(hands: list[str], **kw: Any) -> GameState:
    """A round in play: seat 0 owes a turn on an R5, with PILE to draw from (any of these
    can be overridden)."""
    kw = {"discard": "R5", "draw_pile": PILE, "current": 0, **kw}
    return table(hands, **kw)


# -- Progressive draw -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", CLASSIC_LIKE)
def test_s2_house_rules_progressive_draw_two_on_two_last_player_takes_total(
    variant: str,
) -> None:
    """RULES.md §2 "House rules" Progressive draw: +2 on +2; the last player who cannot
    or will not stack draws the total and loses the turn."""
    state = mid_round(["R+2 R1", "B+2 B1", "G+2 G1", "Y5 Y6"], variant=variant, options=PROGRESSIVE)
    state = after(state, play(0, "R+2"))
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.RESPOND_TO_DRAW, 1)
    assert view(state, 1).legal_codes[:2] == ("a", "p.B+2")
    state = after(state, play(1, "B+2"))
    assert state.pending is not None
    assert (state.pending.player, state.pending.amount) == (2, 4)
    state = after(state, play(2, "G+2"))
    # Seat 3 holds no +2: it takes the total of 6 at once and loses the turn.
    assert len(state.hand(3)) == 2 + 6
    assert state.pending is not None and state.pending.player == 0
    assert state.color is not None and state.color.value == "G"


def test_s2_house_rules_progressive_draw_victim_may_accept_instead_of_stacking() -> None:
    """RULES.md §2 "House rules" Progressive draw: stacking is a choice; accepting draws
    the total so far."""
    state = mid_round(["R+2 R1", "B+2 B1", "G1 G2"], options=PROGRESSIVE)
    state = after(state, play(0, "R+2"), accept(1))
    assert len(state.hand(1)) == 4
    assert state.pending is not None and state.pending.player == 2


def test_s2_house_rules_progressive_draw_four_on_four_and_stacked_four_unchallengeable() -> None:
    """RULES.md §2 "House rules" Progressive draw: W+4 on W+4, total 8.  RULES.md §2 "House
    rules in detail" [decision progressive-challenge]: a stacked W+4 answers a draw card
    instead of matching the colour, so it is not bound by the colour rule and cannot be
    challenged; only the first W+4 can."""
    state = mid_round(["W+4 R1 R2", "W+4 B1 B2", "W+4 G2", "Y5 Y6"], options=PROGRESSIVE)
    state = after(state, play(0, "W+4"), choose_color(0, "B"))
    assert set(view(state, 1).legal_codes) >= {"a", "ch", "p.W+4"}
    # Seat 1 holds blue, the colour in play: as a stack answer the W+4 is still legal.
    state = after(state, play(1, "W+4"), choose_color(1, "G"))
    assert state.pending is not None
    assert (state.pending.player, state.pending.amount) == (2, 8)
    assert not state.pending.challengeable
    assert view(state, 2).legal_codes == ("a", "p.W+4")
    refused(state, challenge(2), Reason.CANNOT_CHALLENGE)
    state = after(state, accept(2))
    assert len(state.hand(2)) == 10
    assert state.pending is not None and state.pending.player == 3


def test_s2_house_rules_progressive_draw_kinds_do_not_mix() -> None:
    """RULES.md §2 "House rules" Progressive draw: +2 only on +2, W+4 only on W+4."""
    state = mid_round(["R+2 R1", "W+4 B1", "G1 G2"], options=PROGRESSIVE)
    state = after(state, play(0, "R+2"))
    # Nothing to stack (a W+4 is not a +2): seat 1 just draws 2.
    assert len(state.hand(1)) == 4
    state = mid_round(["W+4 R1", "B+2 B1", "G1 G2"], options=PROGRESSIVE)
    state = after(state, play(0, "W+4"), choose_color(0, "B"))
    assert "p.B+2" not in view(state, 1).legal_codes
    refused(state, play(1, "B+2"), Reason.NOT_STACKABLE)


# Each draw card of the stacking variants with a card of another kind that must not answer
# it (RULES.md §2 "House rules in detail"), as (variant, side, hand played from, the card
# played, its colour to name or None, a same-kind answer, other draw cards).
_SAME_KIND_ONLY = [
    ("classic", "light", "R+2 R1", "R+2", None, "B+2", ["W+4"]),
    ("classic", "light", "W+4 R1", "W+4", "B", "W+4", ["B+2"]),
    ("flip", "light", "R+1/T3 R1/P5", "R+1", None, "B+1/P4", ["W+2/W"]),
    ("flip", "light", "W+2/W R1/P5", "W+2", "B", "W+2/W", ["B+1/P4"]),
    ("flip", "dark", "R3/T+5 R1/P5", "T+5", None, "B4/P+5", []),
    ("minecraft", "light", "W+3 R1", "W+3", "B", "W+3", ["B+2", "W+4"]),
    ("minecraft", "light", "R+2 R1", "R+2", None, "B+2", ["W+3"]),
]


@pytest.mark.parametrize(
    ("variant", "side", "hand0", "played", "colour", "same", "others"), _SAME_KIND_ONLY
)
def test_s2_house_rules_progressive_draw_stacks_only_on_its_own_kind(
    variant: str,
    side: str,
    hand0: str,
    played: str,
    colour: str | None,
    same: str,
    others: list[str],
) -> None:
    """RULES.md §2 "House rules in detail" [decision progressive-same-kind]: with Progressive
    draw a draw card stacks only on one of its own kind (Flip's +1, +5 and W+2 and
    Minecraft's W+3 too), never across kinds, and the totals add up."""
    discard = "R5/T5" if variant == "flip" else "R5"
    filler = "G1/V2 G2/V1" if variant == "flip" else "G1 G2"
    pile_ = " ".join(["Y1/O2"] * 18) if variant == "flip" else PILE
    victim = " ".join([same, *others, "G7/V1" if variant == "flip" else "G7"])
    state = mid_round(
        [hand0, victim, filler],
        discard=discard,
        draw_pile=pile_,
        variant=variant,
        side=side,
        options=PROGRESSIVE,
    )
    state = after(state, play(0, played))
    if colour is not None:
        state = after(state, choose_color(0, colour))
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.RESPOND_TO_DRAW, 1)
    amount = state.pending.amount
    stacks = [code for code in view(state, 1).legal_codes if code.startswith("p.")]
    shown = card(same).face(Side.DARK if side == "dark" else Side.LIGHT).code
    assert stacks == [f"p.{shown}"]
    for other in others:
        refused(state, play(1, other), Reason.NOT_STACKABLE)
    state = after(state, play(1, same))
    if colour is not None:
        state = after(state, choose_color(1, colour))
    # Seat 2 holds nothing to stack: it takes the total of both cards.
    assert len(state.hand(2)) == 2 + 2 * amount


def test_s2_house_rules_progressive_draw_off_means_no_stacking() -> None:
    """RULES.md §2 "House rules" are off by default: a +2 is drawn at once."""
    state = mid_round(["R+2 R1", "B+2 B1", "G1 G2"])
    state = after(state, play(0, "R+2"))
    assert len(state.hand(1)) == 4
    assert state.pending is not None and state.pending.player == 2


def test_s2_house_rules_progressive_draw_first_card_two_can_be_stacked() -> None:
    """RULES.md §2 "House rules in detail" [decision progressive-challenge]: a +2 turned up
    hits the first player as if the dealer had played it, so they may stack on it."""
    state = table(
        ["R1 R2", "B+2 B1", "G1 G2"], draw_pile="R+2 " + PILE, dealer=0, options=PROGRESSIVE
    )
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.RESPOND_TO_DRAW, 1)
    state = after(state, play(1, "B+2"))
    assert len(state.hand(2)) == 2 + 4


def test_s2_house_rules_progressive_draw_final_two_is_drawn_not_stacked() -> None:
    """RULES.md §2 "End of a round" with Progressive draw: a final +2 is simply drawn;
    the round is over, nobody can stack.
    [decision final-draw-card]"""
    state = mid_round(["R+2", "B+2 B1", "G1 G2"], options=PROGRESSIVE)
    result = ok(state, play(0, "R+2"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["hands"][1] == ["B+2", "B1", "Y1", "Y2"]


def test_s2_house_rules_progressive_draw_does_not_stack_flips_draw_colour() -> None:
    """RULES.md §2 "House rules" Progressive draw adds up card amounts; Flip's WDC draws
    no fixed number, so nothing stacks on it [decision progressive-no-wdc]; Flip's +1/+5/W+2 do
    stack."""
    flip = get_variant("flip")
    hand_ = [card("W/WDC"), card("R1/P5")]
    assert stack_answers(flip, PROGRESSIVE, Side.DARK, hand_, Kind.WILD_DRAW_COLOR) == []
    w2 = [card("W+2/W")]
    assert stack_answers(flip, PROGRESSIVE, Side.LIGHT, w2, Kind.WILD_DRAW2) == w2


# -- Seven-O --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", CLASSIC_LIKE)
def test_s2_house_rules_seven_o_seven_swaps_with_a_chosen_player(variant: str) -> None:
    """RULES.md §2 "House rules" Seven-O: a 7 swaps hands with a player you choose; the
    choice is a decision owed (RULES.md §7), then play goes on."""
    state = mid_round(["R7 R1 R2", "B1", "G1 G2 G3 G4", "Y5 Y6"], variant=variant, options=SEVEN_O)
    state = after(state, play(0, "R7"))
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.CHOOSE_SWAP, 0)
    assert view(state, 0).legal_codes == ("s.1", "s.2", "s.3")
    assert view(state, None).pending is not None
    refused(state, swap(0, 0), Reason.BAD_TARGET)
    refused(state, play(0, "R1"), Reason.WRONG_DECISION)
    result = ok(state, swap(0, 2))
    state = result.state
    assert hand(state, 0) == ["G1", "G2", "G3", "G4"]
    assert hand(state, 2) == ["R1", "R2"]
    assert hand(state, 1) == ["B1"]
    assert of_type(result.events, EventType.SWAPPED)[0].data == {"player": 0, "target": 2}
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 1)


@pytest.mark.parametrize("direction", [1, -1])
def test_s2_house_rules_seven_o_zero_passes_every_hand_in_the_direction_of_play(
    direction: int,
) -> None:
    """RULES.md §2 "House rules" Seven-O: a 0 passes every hand to the next player in the
    direction of play."""
    state = mid_round(["R0 R1", "B1 B2", "G1 G2 G3", "Y5"], direction=direction, options=SEVEN_O)
    state = after(state, play(0, "R0"))
    before = {0: ["R1"], 1: ["B1", "B2"], 2: ["G1", "G2", "G3"], 3: ["Y5"]}
    for seat in range(4):
        assert hand(state, (seat + direction) % 4) == before[seat]
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, direction % 4)


@pytest.mark.parametrize("last", ["R7", "R0"])
def test_s2_house_rules_seven_o_as_last_card_ends_the_round_nothing_swapped(last: str) -> None:
    """RULES.md §2 "House rules" Seven-O (as RULES.md §4): a 7 or 0 as your last card
    wins the round at once; nothing is swapped."""
    state = mid_round([last, "B1 B2", "G1 G2 G3"], options=SEVEN_O)
    result = ok(state, play(0, last))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert ended["hands"] == [[], ["B1", "B2"], ["G1", "G2", "G3"]]
    assert not of_type(result.events, EventType.SWAPPED)
    assert not of_type(result.events, EventType.HANDS_ROTATED)


def test_s2_house_rules_seven_o_off_seven_and_zero_are_plain_numbers() -> None:
    """RULES.md §2 "House rules" are off by default: 7 and 0 are only numbers."""
    state = mid_round(["R7 R0 R1", "B1 B2", "G1 G2"])
    state = after(state, play(0, "R7"))
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 1)
    assert hand(state, 0) == ["R0", "R1"]


def test_s2_house_rules_seven_o_first_card_seven_swaps_nothing() -> None:
    """RULES.md §2 "First card turned up" with Seven-O: a number turned up just starts the
    pile (nobody played it): no swap."""
    state = table(["R1 R2", "B1 B2", "G1 G2"], draw_pile="R7 " + PILE, options=SEVEN_O)
    assert state.top.code == "R7"
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 1)


def test_s2_house_rules_seven_o_swap_closes_the_uno_window() -> None:
    """RULES.md §2 "House rules in detail" [decision uno-window-swap]: a 7 played down to one
    card without calling opens the catch window; once the hands are swapped the caught player no
    longer holds that card and its new holder did nothing wrong, so the window closes."""
    state = mid_round(["R7 R1", "B1 B2 B3", "G1 G2"], options=SEVEN_O)
    state = after(state, play(0, "R7"))
    assert state.uno_window == 0
    assert "x.0" in view(state, 2).legal_codes  # still catchable while choosing
    result = ok(state, swap(0, 1))
    assert result.state.uno_window is None
    assert of_type(result.events, EventType.UNO_WINDOW_CLOSED)
    refused(result.state, catch(2, 0), Reason.NOTHING_TO_CATCH)
    # Zero: every hand moves, the window closes too.
    state = mid_round(["R0 R1", "B1 B2 B3", "G1 G2"], options=SEVEN_O)
    result = ok(state, play(0, "R0"))
    assert result.state.uno_window is None


def test_s2_house_rules_seven_o_window_stays_open_while_the_swap_is_owed() -> None:
    """RULES.md §2 "House rules in detail" [decision uno-window-seven-choice]: while the
    player of a 7 owes the swap choice they hold one card and the window is open: they may
    call UNO (and then can't be caught), the others may catch them (2 cards, and the swap is
    still theirs to choose)."""
    state = mid_round(["R7 R1", "B1 B2 B3", "G1 G2"], options=SEVEN_O)
    state = after(state, play(0, "R7"))
    assert state.pending is not None and state.pending.kind is PendingKind.CHOOSE_SWAP
    assert "u" in view(state, 0).legal_codes
    called = after(state, call_uno(0))
    assert called.uno_window is None
    assert called.players[0].declared_uno
    refused(called, catch(2, 0), Reason.NOTHING_TO_CATCH)
    assert called.pending == state.pending
    caught = after(state, catch(1, 0))
    assert hand(caught, 0) == ["R1", "Y1", "Y2"]
    assert caught.pending == state.pending
    assert hand(after(caught, swap(0, 2)), 2) == ["R1", "Y1", "Y2"]


def test_s2_house_rules_seven_o_received_one_card_hand_is_never_caught_but_may_call() -> None:
    """RULES.md §2 "House rules in detail" [decision uno-window-swap]
    [decision uno-call-received-hand]: the swap closes the window; nobody can be caught for a
    one-card hand they received, but its new holder may still call UNO on it, once."""
    state = mid_round(["R7 R1", "B1 B2 B3", "G1 G2"], options=SEVEN_O)
    state = after(state, play(0, "R7"), swap(0, 2))
    assert hand(state, 2) == ["R1"]
    assert state.uno_window is None
    for seat in (0, 1):
        assert "x.2" not in view(state, seat).legal_codes
        refused(state, catch(seat, 2), Reason.NOTHING_TO_CATCH)
    assert "u" in view(state, 2).legal_codes  # out of turn: seat 1 owes the turn
    assert "u" not in view(state, 0).legal_codes  # two cards, and not their turn
    result = ok(state, call_uno(2))
    assert of_type(result.events, EventType.UNO_CALLED)
    assert result.state.players[2].declared_uno
    assert "u" not in view(result.state, 2).legal_codes
    # A card drawn ends it: the hand is no longer the one received.
    state = after(state, draw(1), draw(2))
    assert len(state.hand(2)) == 2
    assert not state.players[2].received_one_card


def test_s2_house_rules_seven_o_zero_hands_a_one_card_hand_on_uncatchable() -> None:
    """RULES.md §2 "House rules in detail" [decision uno-call-received-hand]: a 0 passes a
    one-card hand on (called or not): its new holder can't be caught and may call."""
    state = mid_round(["R0 R1", "B1 B2 B3", "G1"], options=SEVEN_O)
    state = after(state, play(0, "R0"))
    assert hand(state, 0) == ["G1"] and hand(state, 1) == ["R1"]
    assert state.uno_window is None
    assert [p.received_one_card for p in state.players] == [True, True, False]
    assert "u" in view(state, 0).legal_codes and "u" in view(state, 1).legal_codes
    state = after(state, call_uno(0))
    assert not state.players[0].received_one_card


# -- Jump-In --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", CLASSIC_LIKE)
def test_s2_house_rules_jump_in_identical_card_play_continues_from_jumper(variant: str) -> None:
    """RULES.md §2 "House rules" Jump-In: an identical card (same colour and symbol) may
    be played out of turn; play continues from the jumper, skipping those between."""
    state = mid_round(
        ["R5 R1", "B1 B2", "G1 G2", "R5 Y9 Y8"], discard="G5", variant=variant, options=JUMP_IN
    )
    state = after(state, play(0, "R5"))
    assert state.pending is not None and state.pending.player == 1
    assert "p.R5" in view(state, 3).legal_codes
    result = ok(state, play(3, "R5"))
    state = result.state
    assert hand(state, 3) == ["Y9", "Y8"]
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 0)


def test_s2_house_rules_jump_in_needs_colour_and_symbol_both() -> None:
    """RULES.md §2 "House rules" Jump-In: same number in another colour, or same colour
    with another number, is not identical."""
    state = mid_round(["R5 R1", "B1 B2", "B5 R6 W"], options=JUMP_IN)
    assert [c for c in view(state, 2).legal_codes if c.startswith("p.")] == []
    refused(state, play(2, "B5"), Reason.DOES_NOT_MATCH)
    refused(state, play(2, "R6"), Reason.DOES_NOT_MATCH)
    refused(state, play(2, "W"), Reason.DOES_NOT_MATCH)
    refused(state, play(2, "R9"), Reason.CARD_NOT_IN_HAND)


def test_s2_house_rules_jump_in_action_card_acts_from_the_jumper() -> None:
    """RULES.md §2 "House rules" Jump-In: a jumped-in skip skips the player after the
    jumper."""
    state = mid_round(["RS R1", "B1 B2", "G1 G2", "RS Y9", "Y1 Y2"], options=JUMP_IN)
    state = after(state, play(0, "RS"))
    assert state.pending is not None and state.pending.player == 2
    state = after(state, play(3, "RS"))
    assert state.pending is not None and state.pending.player == 0


def test_s2_house_rules_jump_in_not_on_a_wild() -> None:
    """RULES.md §2 "House rules in detail" [decision jump-in-limits]: a wild has no colour, so
    nothing is identical to it."""
    state = mid_round(["W R1", "B1 B2", "W G2"], options=JUMP_IN)
    state = after(state, play(0, "W"), choose_color(0, "R"))
    refused(state, play(2, "W"), Reason.DOES_NOT_MATCH)


def test_s2_house_rules_jump_in_only_while_a_turn_is_owed() -> None:
    """RULES.md §2 "House rules in detail" [decision jump-in-limits]: only while a turn is owed,
    not while someone owes another decision: a drawn card to play or keep, a colour, an answer
    to a draw card, a swap target."""
    options = Options(jump_in=True, progressive_draw=True, seven_o=True)
    base = table(
        ["R5 R7 R+2 W", "B1 B2", "R9 R7 R+2 W"],
        discard="R9",
        draw_pile="R4 " + PILE,
        current=0,
        options=options,
    )
    assert "p.R9" in view(base, 2).legal_codes  # a turn is owed: seat 2 may jump in
    # PLAY_DRAWN: seat 0 drew a playable R4.
    drawn = after(base, draw(0))
    assert drawn.pending is not None and drawn.pending.kind is PendingKind.PLAY_DRAWN
    assert [c for c in view(drawn, 2).legal_codes if c.startswith("p.")] == []
    refused(drawn, play(2, "R9"), Reason.NOT_YOUR_TURN)
    # CHOOSE_SWAP after a 7.
    swapping = after(base, play(0, "R7"))
    assert swapping.pending is not None and swapping.pending.kind is PendingKind.CHOOSE_SWAP
    refused(swapping, play(2, "R7"), Reason.NOT_YOUR_TURN)
    # RESPOND_TO_DRAW after a +2 that seat 1 could stack on.
    hit = mid_round(["R+2 R1", "B+2 B1", "R+2 G2"], options=options)
    hit = after(hit, play(0, "R+2"))
    assert hit.pending is not None and hit.pending.kind is PendingKind.RESPOND_TO_DRAW
    refused(hit, play(2, "R+2"), Reason.NOT_YOUR_TURN)
    # CHOOSE_COLOR after a wild.
    coloring = after(base, play(0, "W"))
    refused(coloring, play(2, "W"), Reason.NOT_YOUR_TURN)


def test_s2_house_rules_jump_in_closes_the_uno_window() -> None:
    """RULES.md §2 "UNO" with Jump-In [decision]: a jump-in is another player acting, so it
    closes the catch window like the next player's move."""
    state = mid_round(["R5 R1", "B1 B2", "R5 G2 G3"], discard="G5", options=JUMP_IN)
    result = ok(state, play(0, "R5"))
    assert result.state.uno_window == 0
    result = ok(result.state, play(2, "R5"))
    assert result.state.uno_window is None
    refused(result.state, catch(1, 0), Reason.NOTHING_TO_CATCH)


def test_s2_house_rules_jump_in_with_the_last_card_wins() -> None:
    """RULES.md §2 "House rules" Jump-In: jumping in with your last card ends the round."""
    state = mid_round(["R5 R1", "B1 B2", "R5"], discard="G5", options=JUMP_IN)
    state = after(state, play(0, "R5"))
    result = ok(state, play(2, "R5"))
    assert of_type(result.events, EventType.ROUND_ENDED)[0].data["winner"] == 2


def test_s2_house_rules_jump_in_off_is_not_your_turn() -> None:
    """RULES.md §2 "House rules" are off by default: no out-of-turn play."""
    state = mid_round(["R5 R1", "B1 B2", "R5 G2"], discard="G5")
    state = after(state, play(0, "R5"))
    refused(state, play(2, "R5"), Reason.NOT_YOUR_TURN)


# -- Draw-until-playable ----------------------------------------------------------------------


def test_s2_house_rules_draw_until_playable_draws_until_a_playable_card() -> None:
    """RULES.md §2 "House rules" Draw-until-playable: draw until a playable card turns up; it
    may then be played at once, or kept, as Classic's drawn card (RULES.md §2 "House rules in
    detail") [decision draw-until-playable-drawn-card]."""
    options = Options(draw_until_playable=True)
    state = table(
        ["B1 B2", "G1 G2"], discard="R5", draw_pile="Y1 G7 R9 Y2", current=0, options=options
    )
    result = ok(state, draw(0))
    state = result.state
    assert hand(state, 0) == ["B1", "B2", "Y1", "G7", "R9"]
    assert of_type(result.events, EventType.DREW)[0].data == {"player": 0, "count": 3}
    assert state.pending is not None
    assert (state.pending.kind, state.pending.drawn) == (PendingKind.PLAY_DRAWN, card("R9"))
    assert set(view(state, 0).legal_codes) >= {"p.R9", "k"}
    kept = after(state, keep(0))
    assert kept.pending is not None and kept.pending.player == 1
    played = after(state, play(0, "R9"))
    assert played.top.code == "R9"


def test_s2_house_rules_draw_until_playable_stops_short_when_cards_run_out() -> None:
    """RULES.md §2 "Draw pile empty" with Draw-until-playable: nothing left to draw, the
    draw stops short and the turn passes.
    [decision nothing-to-draw]"""
    options = Options(draw_until_playable=True)
    state = table(["B1 B2", "G1 G2"], discard="R5", draw_pile="Y1 G7", current=0, options=options)
    result = ok(state, draw(0))
    assert hand(result.state, 0) == ["B1", "B2", "Y1", "G7"]
    assert of_type(result.events, EventType.DRAW_STOPPED_SHORT)
    assert result.state.pending is not None and result.state.pending.player == 1


def test_s2_house_rules_draw_until_playable_off_draws_one() -> None:
    """RULES.md §2 "A turn": without the house rule a draw is one card."""
    state = table(["B1 B2", "G1 G2"], discard="R5", draw_pile="Y1 G7 R9", current=0)
    state = after(state, draw(0))
    assert hand(state, 0) == ["B1", "B2", "Y1"]


# -- Alternate scoring and the target score -------------------------------------------------


def test_s2_house_rules_alternate_scoring_each_adds_own_hand() -> None:
    """RULES.md §2 "Scoring" alternate scoring: each player adds the points in their own
    hand; the player who went out adds nothing."""
    options = Options(alternate_scoring=True)
    state = table(["B1", "W R5", "GS G2"], discard="B5", current=0, options=options)
    result = ok(state, play(0, "B1"))
    assert [p.score for p in result.state.players] == [0, 55, 22]
    assert result.state.winner is None


def test_s2_house_rules_alternate_scoring_lowest_total_wins_at_the_target() -> None:
    """RULES.md §2 "Scoring" alternate scoring: when anyone reaches the target, the lowest
    total wins."""
    options = Options(alternate_scoring=True)
    state = table(
        ["B1", "W R5", "G2"],
        discard="B5",
        current=0,
        scores=[120, 460, 90],
        options=options,
    )
    result = ok(state, play(0, "B1"))
    assert [p.score for p in result.state.players] == [120, 515, 92]
    assert result.state.winner == 2
    assert result.state.pending is None
    assert of_type(result.events, EventType.GAME_OVER)[0].data["winner"] == 2


def test_s2_house_rules_alternate_scoring_tie_for_lowest_total() -> None:
    """RULES.md §2 "House rules in detail" [decision ties]: a tie for the lowest
    total goes to the round's winner if they are in it, else to the lower seat."""
    options = Options(alternate_scoring=True)
    # Seat 1 goes out and ties seat 0 at 100; seat 2 passes the target.
    state = table(
        ["R5", "B1", "W"], discard="B5", current=1, scores=[95, 100, 480], options=options
    )
    result = ok(state, play(1, "B1"))
    assert [p.score for p in result.state.players] == [100, 100, 530]
    assert result.state.winner == 1
    # Seat 3 goes out; seats 1 and 2 tie at 60, the round's winner is not in the tie.
    state = table(
        ["W", "R5", "B0", "B1"],
        discard="B5",
        current=3,
        scores=[460, 55, 60, 200],
        options=options,
    )
    result = ok(state, play(3, "B1"))
    assert [p.score for p in result.state.players] == [510, 60, 60, 200]
    assert result.state.winner == 1


@pytest.mark.parametrize("variant", CLASSIC_LIKE)
def test_s2_house_rules_target_score_replaces_the_variants_500(variant: str) -> None:
    """RULES.md §2 "Scoring": the chat's target score replaces the variant's."""
    options = Options(target_score=60)
    state = table(["B1", "W R5", "G2"], discard="B5", current=0, variant=variant, options=options)
    assert view(state, 1).target_score == 60
    result = ok(state, play(0, "B1"))
    assert result.state.players[0].score == 57
    assert result.state.winner is None
    state = table(
        ["B1", "W R5", "G2"],
        discard="B5",
        current=0,
        variant=variant,
        options=options,
        scores=[10, 0, 0],
    )
    result = ok(state, play(0, "B1"))
    assert result.state.winner == 0


@pytest.mark.parametrize("target", [0, -5])
def test_s2_house_rules_target_score_must_be_positive(target: int) -> None:
    """RULES.md §2 "Scoring": a target score of nothing is refused with a clear error."""
    with pytest.raises(SetupError, match="target score"):
        new_game("classic", ["A", "B"], Options(target_score=target), seed=1)


# -- False catch ----------------------------------------------------------------------------


def test_s2_house_rules_false_catch_penalty_costs_the_catcher_two() -> None:
    """RULES.md §2 "UNO" (house option): a catch when there is nothing to catch costs the
    catcher 2; without the option it is refused and costs nothing."""
    state = mid_round(["R1 R2", "B1 B2 B3", "G1 G2"])
    refused(state, catch(1, 0), Reason.NOTHING_TO_CATCH)
    state = mid_round(["R1 R2", "B1 B2 B3", "G1 G2"], options=Options(false_catch_penalty=True))
    result = ok(state, catch(1, 0))
    assert len(result.state.hand(1)) == 5
    assert len(result.state.hand(0)) == 2
    assert of_type(result.events, EventType.FALSE_CATCH)
    assert result.state.pending == state.pending


# -- Which variants offer which house rules -------------------------------------------------

ALL = frozenset(HouseRule)


@pytest.mark.parametrize("variant", CLASSIC_LIKE)
def test_s2_house_rules_classic_minecraft_minions_offer_every_house_rule(variant: str) -> None:
    """RULES.md §2 "House rules", §5, §6: Minecraft and Minions are Classic with more
    cards, so every Classic house rule applies to them."""
    assert get_variant(variant).house_rules == ALL
    new_game(variant, ["A", "B"], Options(**{r.value: True for r in HouseRule}), seed=3)


def test_s2_house_rules_no_mercy_refuses_the_rules_it_already_plays() -> None:
    """RULES.md §2 "House rules in detail" [decision house-rules-offered]: No Mercy already
    stacks, already plays 7 and 0, already draws until playable, and its knock-out scoring
    cannot be counted the other way round, so only Jump-In is offered; asking for another is
    refused."""
    no_mercy = get_variant("no_mercy")
    assert no_mercy.house_rules == {HouseRule.JUMP_IN}
    for rule in ALL - {HouseRule.JUMP_IN}:
        with pytest.raises(SetupError, match=rule.value):
            new_game("no_mercy", ["A", "B"], Options(**{rule.value: True}), seed=3)
    new_game("no_mercy", ["A", "B"], Options(jump_in=True), seed=3)


def test_s2_house_rules_flip_offers_stacking_jump_in_drawing_and_alternate_scoring() -> None:
    """RULES.md §2 "House rules in detail" [decision house-rules-offered]: Flip has no 0 and
    offers Seven-O only if it defines Seven-O rules; the other house rules all make sense on
    both sides."""
    flip = get_variant("flip")
    assert flip.house_rules >= ALL - {HouseRule.SEVEN_O}
    assert (HouseRule.SEVEN_O in flip.house_rules) == bool(flip.seven_o_rules)


def test_s3_flip_offers_no_seven_o() -> None:
    """RULES.md §3 vs §2 "House rules" [decision house-rules-offered] (variants/flip.py): no
    Seven-O for Flip: its deck has no 0 and the seeds offer no house rules of their own; asking
    is refused."""
    assert HouseRule.SEVEN_O not in get_variant("flip").house_rules
    with pytest.raises(SetupError, match="seven_o"):
        new_game("flip", ["A", "B"], SEVEN_O, seed=3)


def test_s2_house_rules_refused_in_scenario_set_ups_too() -> None:
    """RULES.md §2 "House rules": a set-up asking for a rule its variant does not offer is
    refused with the reason, and nothing is created."""
    with pytest.raises(SetupError, match="seven_o"):
        from_setup(Setup(hands=["R1", "B1"], variant="no_mercy", options=Options(seven_o=True)))
