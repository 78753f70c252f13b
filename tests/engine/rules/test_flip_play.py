"""RULES.md §3 "Play", "Light actions", "Dark actions" and "Both sides" (UNO Flip): the F
that turns the game over, the draw cards of each side, Skip Everyone, and the challenge of
W+2 and WDC.

Tables use cards of the real deck (``variants/flip.py`` pairing), written light/dark.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.engine.rules import (
    ActionType,
    EventType,
    GameState,
    Options,
    PendingKind,
    Reason,
    Side,
    legal_actions,
    view,
)
from services.engine.rules.actions import accept, catch, challenge, choose_color, draw, play
from services.engine.rules.cards import Color
from services.engine.rules.state import AfterColor
from tests.helpers.rules import after, all_cards, hand, of_type, ok, pile, refused, table, types


def flip_table(hands: list[str], discard: str, draw_pile: str = "", **kw: object) -> GameState:
    return table(hands, discard=discard, draw_pile=draw_pile, variant="flip", current=0, **kw)


def turn_of(state: GameState) -> int:
    assert state.pending is not None and state.pending.kind is PendingKind.TURN
    return state.pending.player


def played_codes(state: GameState, player: int) -> list[str]:
    """The play codes ``player`` is offered, as they see them."""
    return [code for code in view(state, player).legal_codes if code.startswith("p.")]


# -- F: the whole game turns over ------------------------------------------------------------

HANDS = ["RF/T6 G2/V8 B7/P1", "Y3/O+5 B4/P+5", "G7/V1 B9/P2"]
DISCARD = "R5/TR Y5/OR G9/V2"  # top first: R5 on top, G9/V2 at the bottom
DRAW_PILE = "B1/P7 Y8/O1 G+1/V3"  # top first


def test_s3_flip_turns_every_hand_and_both_piles_over() -> None:
    """RULES.md §3 "Both sides": F turns over every hand, the draw pile and the discard pile;
    both piles as stacks: the F goes to the discard pile's bottom, its new top is the other
    face of the former bottom card, and the draw pile's former bottom is its new top."""
    state = flip_table(HANDS, DISCARD, DRAW_PILE)
    result = ok(state, play(0, "RF"))
    state = result.state
    assert state.side is Side.DARK
    assert pile(state.discard) == ["G9/V2", "Y5/OR", "R5/TR", "RF/T6"]
    assert pile(state.draw_pile) == ["G+1/V3", "Y8/O1", "B1/P7"]
    assert state.top.face(Side.DARK).code == "V2"
    assert state.color is Color.VIOLET
    # The same cards, each now held with its dark face toward its owner.
    assert hand(state, 0) == ["G2/V8", "B7/P1"]
    assert view(state, 0).hand == ("V8", "P1")
    assert view(state, 1).hand == ("O+5", "P+5")
    assert view(state, 1).draw_pile_back == "G+1"
    flipped = of_type(result.events, EventType.FLIPPED)
    assert [e.data for e in flipped] == [{"side": "dark", "top": "V2"}]
    assert types(result.events).index(EventType.PLAYED) < types(result.events).index(
        EventType.FLIPPED
    )


def test_s3_flip_play_goes_on_to_the_next_player_on_the_other_side() -> None:
    """RULES.md §3 "Both sides" [decision flip-turn-passes]: after F, the next player in the
    direction of play plays, matching the new top card on the other side."""
    state = after(flip_table(HANDS, DISCARD, DRAW_PILE), play(0, "RF"))
    assert turn_of(state) == 1
    # O+5 and P+5 match neither violet nor a 2: seat 1 can only draw.
    assert played_codes(state, 1) == []
    state = after(state, draw(1))  # draws G+1/V3 (V3: violet, playable)
    assert state.pending is not None and state.pending.kind is PendingKind.PLAY_DRAWN
    assert played_codes(state, 1) == ["p.V3"]
    state = after(state, play(1, "V3"))
    assert turn_of(state) == 2


def test_s3_flip_in_reverse_direction_passes_the_other_way() -> None:
    state = flip_table(HANDS, DISCARD, DRAW_PILE, direction=-1)
    state = after(state, play(0, "RF"))
    assert turn_of(state) == 2


def test_s3_flip_back_from_dark_to_light() -> None:
    """RULES.md §3: play continues on the other side until the next F turns it back."""
    state = flip_table(
        ["R6/TF G2/V8", "Y3/O+5", "G7/V1"],
        discard="R4/TR Y1/O7 B2/P8",
        draw_pile="Y7/O1 G5/VR",
        side="dark",
    )
    state = after(state, play(0, "TF"))
    assert state.side is Side.LIGHT
    assert pile(state.discard) == ["B2/P8", "Y1/O7", "R4/TR", "R6/TF"]
    assert pile(state.draw_pile) == ["G5/VR", "Y7/O1"]
    assert state.color is Color.BLUE
    assert view(state, 1).hand == ("Y3",)
    assert view(state, 1).draw_pile_back == "VR"
    assert turn_of(state) == 1


def test_s3_flip_twice_puts_the_piles_back_in_order() -> None:
    """Turning over twice turns each pile back the right way: the draw pile is as it was,
    and the discards lie in their old order between the two Fs (the first F back on top,
    the second at the bottom)."""
    state = flip_table(["RF/T6 G2/V8", "R7/TF Y3/O+5", "G7/V1"], "R5/TR Y5/OR R9/T3", DRAW_PILE)
    state = after(state, play(0, "RF"))
    assert state.top.face(Side.DARK).code == "T3"
    result = ok(state, play(1, "TF"))
    state = result.state
    assert state.side is Side.LIGHT
    assert pile(state.draw_pile) == DRAW_PILE.split()
    assert pile(state.discard) == ["RF/T6", "R5/TR", "Y5/OR", "R9/T3", "R7/TF"]
    assert state.color is Color.RED
    assert [e.data for e in of_type(result.events, EventType.FLIPPED)] == [
        {"side": "light", "top": "RF"}
    ]
    assert turn_of(state) == 2


@pytest.mark.parametrize(
    ("bottom", "dark_top"),
    [("W+2/W", "W"), ("W/WDC", "WDC")],
)
def test_s3_flip_wild_on_top_the_flip_player_chooses_then_next_plays(
    bottom: str, dark_top: str
) -> None:
    """RULES.md §3 "Both sides" [decision flip-wild-on-top]: if the new top card is a wild, the
    player who played F chooses the colour; then the next player plays.  A WDC turned up this
    way makes nobody draw."""
    state = flip_table(HANDS, f"R5/TR Y5/OR {bottom}", DRAW_PILE)
    result = ok(state, play(0, "RF"))
    state = result.state
    assert state.top.face(state.side).code == dark_top
    assert state.color is None
    assert state.pending is not None
    assert state.pending.kind is PendingKind.CHOOSE_COLOR and state.pending.player == 0
    assert state.pending.then is AfterColor.NEXT_TURN
    assert view(state, 0).legal_codes == ("c.P", "c.T", "c.O", "c.V")
    refused(state, choose_color(0, "R"), Reason.BAD_COLOR)
    refused(state, draw(1), Reason.NOT_YOUR_TURN)
    result = ok(state, choose_color(0, "O"))
    state = result.state
    assert state.color is Color.ORANGE
    assert turn_of(state) == 1
    assert hand(state, 1) == ["Y3/O+5", "B4/P+5"]  # nobody drew
    assert played_codes(state, 1) == ["p.O+5"]


def test_s3_flip_an_action_brought_to_the_top_does_nothing() -> None:
    """RULES.md §3 "Both sides" [decision flip-turn-passes]: A card that F brings to the top
    only sets what must be matched: a +5 now on top makes nobody draw, it was played long
    ago."""
    state = flip_table(HANDS, "R5/TR Y5/OR B4/P+5", DRAW_PILE)
    state = after(state, play(0, "RF"))
    assert state.top.face(Side.DARK).code == "P+5"
    assert turn_of(state) == 1
    assert hand(state, 1) == ["Y3/O+5", "B4/P+5"]
    assert played_codes(state, 1) == ["p.O+5", "p.P+5"]  # +5 on +5, and pink


def test_s3_flip_matches_on_colour_or_symbol_only() -> None:
    """RULES.md §3 "Both sides": coloured actions (F included) are played on the same colour
    or the same symbol."""
    state = flip_table(["YF/O6 RF/T7 R3/T9", "G7/V1"], discard="BF/P6")
    assert played_codes(state, 0) == ["p.YF", "p.RF"]
    refused(state, play(0, "R3"), Reason.DOES_NOT_MATCH)
    state = flip_table(["YF/O6 B3/P9", "G7/V1"], discard="B6/PF")
    assert played_codes(state, 0) == ["p.B3"]
    refused(state, play(0, "YF"), Reason.DOES_NOT_MATCH)


def test_s3_play_a_drawn_card_whose_face_another_card_in_the_hand_shows() -> None:
    """RULES.md §2 "A turn" with §3 "Play": a drawn card that is playable may be played at
    once, and only it; named by the face its player sees, it is the drawn card that goes,
    even when an older card in the hand shows the same face (R7/TF held, R7/T1 drawn)."""
    state = flip_table(["R7/TF Y3/O+5", "G7/V1 B9/P2"], discard="R5/TR", draw_pile="R7/T1")
    state = ok(state, draw(0)).state
    assert state.pending is not None and state.pending.kind is PendingKind.PLAY_DRAWN
    assert played_codes(state, 0) == ["p.R7"]
    state = ok(state, play(0, "R7")).state
    assert pile(state.discard)[0] == "R7/T1"
    assert hand(state, 0) == ["R7/TF", "Y3/O+5"]


def test_s3_flip_as_the_last_card_ends_the_round_without_turning_over() -> None:
    """RULES.md §3 "Both sides" and §2 "End of a round": only a draw card still acts after the
    last card, so a final F turns nothing over and the round is scored on the side in play
    [decision final-flip]."""
    state = flip_table(["RF/T6", "W/WDC", "G7/V1"], discard="R5/TR Y5/OR")
    result = ok(state, play(0, "RF"))
    assert EventType.FLIPPED not in types(result.events)
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["points"] == [0, 40, 7]
    assert ended["hands"] == [[], ["W"], ["G7"]]


def test_s3_flip_conserves_every_card() -> None:
    state = flip_table(HANDS, DISCARD, DRAW_PILE)
    before = all_cards(state)
    assert all_cards(after(state, play(0, "RF"))) == before


# -- light actions -----------------------------------------------------------------------


def test_s3_draw_one_next_player_draws_one_and_loses_turn() -> None:
    """RULES.md §3 "Light actions": +1: next player draws 1 and loses the turn."""
    state = flip_table(["R+1/T3 G2/V8", "Y3/O+5", "G7/V1"], "R5/TR", "B1/P7 Y8/O1")
    result = ok(state, play(0, "R+1"))
    assert hand(result.state, 1) == ["Y3/O+5", "B1/P7"]
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}
    assert turn_of(result.state) == 2
    assert pile(result.state.draw_pile) == ["Y8/O1"]


def test_s3_draw_one_matches_another_draw_one() -> None:
    state = flip_table(["Y+1/O3", "G7/V1"], "R+1/T4")
    assert played_codes(state, 0) == ["p.Y+1"]


def test_s3_skip_and_reverse_on_the_light_side_as_classic() -> None:
    """RULES.md §3 "Light actions": S and R as Classic."""
    state = flip_table(["RS/T5 RR/T4 G2/V8", "Y3/O+5", "G7/V1"], "R5/TR")
    skipped = ok(state, play(0, "RS"))
    assert turn_of(skipped.state) == 2
    reversed_ = ok(state, play(0, "RR"))
    assert reversed_.state.direction == -1
    assert turn_of(reversed_.state) == 2


# -- dark actions ------------------------------------------------------------------------


def test_s3_draw_five_next_player_draws_five_and_loses_turn() -> None:
    """RULES.md §3 "Dark actions": +5: next player draws 5 and loses the turn."""
    state = flip_table(
        ["Y3/O+5 G2/V8", "B7/P1", "G7/V1"],
        "Y4/OR",
        "B1/P7 Y8/O1 G1/V7 R7/T1 R8/T1 B8/P1",
        side="dark",
    )
    result = ok(state, play(0, "O+5"))
    assert hand(result.state, 1) == ["B7/P1", "B1/P7", "Y8/O1", "G1/V7", "R7/T1", "R8/T1"]
    assert of_type(result.events, EventType.DREW)[0].data == {"player": 1, "count": 5}
    assert turn_of(result.state) == 2


def test_s3_skip_everyone_every_other_player_is_skipped_you_play_again() -> None:
    """RULES.md §3 "Dark actions": SE: every other player is skipped; you play again."""
    state = flip_table(["R5/TSE G2/V8", "Y3/O+5", "G7/V1", "B9/P2"], "R4/TR", side="dark")
    result = ok(state, play(0, "TSE"))
    assert [e.data["player"] for e in of_type(result.events, EventType.SKIPPED)] == [1, 2, 3]
    assert turn_of(result.state) == 0


def test_s3_skip_everyone_with_two_players() -> None:
    state = flip_table(["R5/TSE G2/V8", "Y3/O+5"], "R4/TR", side="dark")
    assert turn_of(after(state, play(0, "TSE"))) == 0


def test_s3_skip_everyone_matches_another_skip_everyone_only_by_symbol() -> None:
    state = flip_table(["B5/PSE G5/VR", "Y3/O+5"], "R6/TSE", side="dark")
    assert played_codes(state, 0) == ["p.PSE"]


def test_s3_reverse_on_the_dark_side() -> None:
    """RULES.md §3 "Both sides": R reverses on either side."""
    state = flip_table(["R4/TR G2/V8", "Y3/O+5", "G7/V1"], "R5/TSE", side="dark")
    state = after(state, play(0, "TR"))
    assert state.direction == -1
    assert turn_of(state) == 2


def test_s3_dark_wild_chooses_a_dark_colour() -> None:
    """RULES.md §3 "Both sides": W names a colour of the side in play."""
    state = flip_table(["W+2/W G2/V8 G4/V+5", "Y3/O+5", "G7/V1"], "R5/TSE", side="dark")
    state = after(state, play(0, "W"))
    assert view(state, 0).legal_codes == ("c.P", "c.T", "c.O", "c.V")
    state = after(state, choose_color(0, "P"))
    assert state.color is Color.PINK and turn_of(state) == 1


# -- WDC: draw until the colour ----------------------------------------------------------


def wdc_table(hand0: str, draw_pile: str, discard: str = "R4/TR", **kw: object) -> GameState:
    """Seat 0 to play WDC on a teal R (its hand says whether it holds teal)."""
    return flip_table([hand0, "Y3/O+5 G3/V9", "G7/V1"], discard, draw_pile, side="dark", **kw)


def test_s3_wild_draw_color_victim_draws_until_the_colour_and_loses_turn() -> None:
    """RULES.md §3 "Dark actions": WDC: the next player draws until they draw a card of the
    chosen colour, and loses the turn; a drawn wild does not stop the draw
    [decision wdc-drawn-wild]."""
    state = wdc_table("W/WDC G2/V8 G4/V+5", "R1/T7 W+2/W Y8/O1 B1/P7 G1/V7")
    state = after(state, play(0, "WDC"), choose_color(0, "P"))
    assert state.pending is not None and state.pending.kind is PendingKind.RESPOND_TO_DRAW
    assert state.pending.player == 1 and state.pending.challengeable
    assert view(state, 1).legal_codes == ("a", "ch")
    result = ok(state, accept(1))
    assert hand(result.state, 1) == ["Y3/O+5", "G3/V9", "R1/T7", "W+2/W", "Y8/O1", "B1/P7"]
    assert pile(result.state.draw_pile) == ["G1/V7"]
    assert of_type(result.events, EventType.DREW)[0].data == {"player": 1, "count": 4}
    assert of_type(result.events, EventType.DREW_CARDS)[0].data["cards"] == ["T7", "W", "O1", "P7"]
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}
    assert turn_of(result.state) == 2
    assert result.state.color is Color.PINK


def test_s3_wild_draw_color_the_first_card_drawn_may_end_it() -> None:
    state = wdc_table("W/WDC G2/V8", "B1/P7 G1/V7")
    state = after(state, play(0, "WDC"), choose_color(0, "P"), accept(1))
    assert hand(state, 1) == ["Y3/O+5", "G3/V9", "B1/P7"]


def test_s3_wild_draw_color_through_a_reshuffle() -> None:
    """RULES.md §3 "Dark actions" with §2 "Draw pile empty": the draw goes on through a
    reshuffle of the discards (top card kept); no card is created or lost, and the rebuilt
    pile lies the same way round as everything else (the side in play)."""
    state = wdc_table(
        "W/WDC G2/V8",
        draw_pile="R1/T7 W+2/W",
        discard="R4/TR Y1/O7 B2/P8 G3/V9 R7/T1",
        seed=11,
    )
    state = after(state, play(0, "WDC"), choose_color(0, "P"))
    before = all_cards(state)
    result = ok(state, accept(1))
    state = result.state
    assert EventType.RESHUFFLED in types(result.events)
    drawn = of_type(result.events, EventType.DREW_CARDS)[0].data["cards"]
    assert drawn[:2] == ["T7", "W"]
    assert drawn[-1] == "P8"  # the only pink card anywhere
    assert not any(code.startswith("P") for code in drawn[:-1])
    assert all(code[0] in "PTOV" or code.startswith("W") for code in drawn)  # all dark faces
    assert state.side is Side.DARK
    assert pile(state.discard) == ["W/WDC"]
    assert len(state.draw_pile) + len(drawn) == 2 + 5  # the pile and the rebuilt discards
    assert all_cards(state) == before
    assert turn_of(state) == 2


def test_s3_wild_draw_color_with_no_card_of_the_colour_left_draws_everything() -> None:
    """RULES.md §2 "Draw pile empty" [decision]: with nothing left to rebuild the pile from,
    the draw stops short and the victim still loses the turn."""
    state = wdc_table("W/WDC G2/V8", draw_pile="R1/T7", discard="R4/TR Y1/O7")
    state = after(state, play(0, "WDC"), choose_color(0, "P"))
    before = all_cards(state)
    result = ok(state, accept(1))
    assert EventType.DRAW_STOPPED_SHORT in types(result.events)
    assert sorted(hand(result.state, 1)) == sorted(["Y3/O+5", "G3/V9", "R1/T7", "R4/TR", "Y1/O7"])
    assert result.state.draw_pile == ()
    assert all_cards(result.state) == before
    assert turn_of(result.state) == 2


def test_s2_end_of_round_final_wild_draw_color_its_player_names_the_colour() -> None:
    """RULES.md §2 "End of a round" [decision final-draw-colour]: a final Flip WDC still has its
    colour chosen by the player who went out, and the next player draws until that colour (seed:
    "until a card of the colour you chose"; "those new cards count in scoring").  The round ends
    once the colour is named; nothing is scored before."""
    state = wdc_table("W/WDC", "B1/P7 Y8/O1 R5/TR G1/V7", options=Options(jump_in=True))
    result = ok(state, play(0, "WDC"))
    state = result.state
    assert EventType.ROUND_ENDED not in types(result.events)
    assert hand(state, 0) == []
    assert state.pending is not None and state.pending.kind is PendingKind.CHOOSE_COLOR
    assert state.pending.player == 0 and state.pending.then is AfterColor.FINAL_DRAW
    assert state.color is None
    assert view(state, 0).legal_codes == ("c.P", "c.T", "c.O", "c.V")
    for other in (1, 2):
        assert legal_actions(state, other) == ()
    result = ok(state, choose_color(0, "O"))
    # Orange, not the teal that was in play before the WDC: P7 then O1 (2 cards, 8 points).
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert ended["hands"][1] == ["O+5", "V9", "P7", "O1"]
    assert ended["points"] == [0, 20 + 9 + 7 + 1, 1]
    assert result.state.players[0].score == 20 + 9 + 7 + 1 + 1
    assert EventType.CHALLENGED not in types(result.events)
    assert EventType.SKIPPED not in types(result.events)


def test_s2_end_of_round_final_wild_draw_color_nothing_else_while_its_colour_is_owed() -> None:
    """RULES.md §2 "End of a round" [decision final-draw-colour]: the round is over but for
    the colour of its last card, so nobody may do anything else meanwhile, not even a false
    catch that the house option would otherwise allow (it would put cards back into the hand
    of the player who went out)."""
    state = wdc_table("W/WDC", "B1/P7 Y8/O1", options=Options(false_catch_penalty=True))
    state = after(state, play(0, "WDC"))
    refused(state, catch(0, 1), Reason.WRONG_DECISION)
    refused(state, catch(1, 2), Reason.NOT_YOUR_TURN)
    refused(state, play(1, "O+5"), Reason.NOT_YOUR_TURN)
    refused(state, draw(0), Reason.WRONG_DECISION)
    # Without the final card's colour pending, the same false catch is allowed and costly.
    other = after(
        wdc_table("W/WDC R1/T7", "B1/P7 Y8/O1", options=Options(false_catch_penalty=True)),
        play(0, "WDC"),
    )
    assert len(after(other, catch(0, 1)).hand(0)) == 3


def test_s2_end_of_round_final_wild_draw_color_example_of_the_issue() -> None:
    """RULES.md §2 "End of a round" [decision final-draw-colour]: the colour named, not the one
    in play before the WDC, decides the draw: here pink costs 1 card (7 points) where teal would
    cost 3."""

    def round_ended(colour: str) -> dict[str, Any]:
        state = after(wdc_table("W/WDC", "B1/P7 Y8/O1 R5/TR"), play(0, "WDC"))
        return of_type(ok(state, choose_color(0, colour)).events, EventType.ROUND_ENDED)[0].data

    pink, teal = round_ended("P"), round_ended("T")
    assert pink["hands"][1] == ["O+5", "V9", "P7"]
    assert pink["points"][1] == 20 + 9 + 7
    assert teal["hands"][1] == ["O+5", "V9", "P7", "O1", "TR"]
    assert teal["points"][1] == 20 + 9 + 7 + 1 + 20


def test_s2_end_of_round_final_wild_draw_two_asks_no_colour() -> None:
    """RULES.md §2 "End of a round" [decision final-draw-card]: no colour is asked for after a
    final wild whose draw the colour does not change (Flip's W+2): the round ends at once, the
    next player drawing 2 without a challenge."""
    state = flip_table(["W+2/W", "Y3/O+5", "G7/V1"], "R5/TR", "B1/P7 Y8/O1 G1/V7")
    result = ok(state, play(0, "W+2"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["hands"][1] == ["Y3", "B1", "Y8"]
    assert EventType.COLOR_CHOSEN not in types(result.events)


# -- W+2 and WDC: legality and the challenge ---------------------------------------------


def test_s3_wild_draw_two_next_player_draws_two_and_loses_turn() -> None:
    """RULES.md §3 "Light actions": W+2: choose a colour; next player draws 2, loses turn."""
    state = flip_table(["W+2/W G2/V8", "Y3/O+5", "G7/V1"], "R5/TR", "B1/P7 Y8/O1 G1/V7")
    state = after(state, play(0, "W+2"), choose_color(0, "B"), accept(1))
    assert hand(state, 1) == ["Y3/O+5", "B1/P7", "Y8/O1"]
    assert turn_of(state) == 2 and state.color is Color.BLUE


@pytest.mark.parametrize(
    ("wild", "top", "colour_card"),
    [("W+2/W", "R5/TR", "R2/T8"), ("W/WDC", "R4/TR", "Y1/O7")],
)
def test_s3_wild_draw_bluff_is_accepted(wild: str, top: str, colour_card: str) -> None:
    """RULES.md §2 [digital], §3: W+2 and WDC are legal only with no card of the current
    colour, but the engine lets the bluff through: the challenge is how it is caught."""
    side = "light" if wild == "W+2/W" else "dark"
    state = flip_table([f"{wild} {colour_card}", "Y3/O+5", "G7/V1"], top, side=side)
    code = "p.W+2" if side == "light" else "p.WDC"
    assert code in view(state, 0).legal_codes
    assert any(a.type is ActionType.PLAY and a.card is not None for a in legal_actions(state, 0))
    ok(state, play(0, code[2:]))


CHALLENGE_PILE = "B1/P7 Y8/O1 G1/V7 R7/T1 B8/P1 G8/V1 Y2/O8"


def test_s3_wild_draw_two_challenge_guilty_player_of_the_card_draws_two() -> None:
    """RULES.md §3 "Light actions": challenge guilty → the player of the W+2 draws 2, and the
    challenger plays on."""
    state = flip_table(["W+2/W R2/T8 G2/V8", "Y3/O+5", "G7/V1"], "R5/TR", CHALLENGE_PILE)
    state = after(state, play(0, "W+2"), choose_color(0, "Y"))
    result = ok(state, challenge(1))
    assert of_type(result.events, EventType.CHALLENGED)[0].data["guilty"] is True
    assert hand(result.state, 0) == ["R2/T8", "G2/V8", "B1/P7", "Y8/O1"]
    assert hand(result.state, 1) == ["Y3/O+5"]
    assert turn_of(result.state) == 1
    assert view(result.state, 1).reveal == ("R2", "G2")


def test_s3_wild_draw_two_challenge_innocent_challenger_draws_four() -> None:
    """RULES.md §3 "Light actions": challenge innocent → the challenger draws 4 (and loses
    the turn).  A card matching by number only does not count."""
    state = flip_table(["W+2/W B5/PR G2/V8", "Y3/O+5", "G7/V1"], "R5/TR", CHALLENGE_PILE)
    state = after(state, play(0, "W+2"), choose_color(0, "Y"))
    result = ok(state, challenge(1))
    assert of_type(result.events, EventType.CHALLENGED)[0].data["guilty"] is False
    assert hand(result.state, 1) == ["Y3/O+5", "B1/P7", "Y8/O1", "G1/V7", "R7/T1"]
    assert hand(result.state, 0) == ["B5/PR", "G2/V8"]
    assert turn_of(result.state) == 2


def test_s3_wild_draw_color_challenge_guilty_player_of_the_card_draws_until_colour() -> None:
    """RULES.md §3 "Dark actions": challenge guilty → the player of the WDC draws until the
    colour; the challenger plays on."""
    state = wdc_table("W/WDC R8/T2 G2/V8", CHALLENGE_PILE)  # holds teal: guilty
    state = after(state, play(0, "WDC"), choose_color(0, "O"))
    result = ok(state, challenge(1))
    assert of_type(result.events, EventType.CHALLENGED)[0].data["guilty"] is True
    assert hand(result.state, 0) == ["R8/T2", "G2/V8", "B1/P7", "Y8/O1"]
    assert hand(result.state, 1) == ["Y3/O+5", "G3/V9"]
    assert turn_of(result.state) == 1


def test_s3_wild_draw_color_challenge_innocent_challenger_draws_until_colour_and_two() -> None:
    """RULES.md §3 "Dark actions": challenge innocent → the challenger draws until the
    colour and then 2 more, and loses the turn."""
    state = wdc_table("W/WDC G2/V8", CHALLENGE_PILE)  # no teal: innocent
    state = after(state, play(0, "WDC"), choose_color(0, "O"))
    result = ok(state, challenge(1))
    assert of_type(result.events, EventType.CHALLENGED)[0].data["guilty"] is False
    assert hand(result.state, 1) == [
        "Y3/O+5",
        "G3/V9",
        "B1/P7",
        "Y8/O1",  # orange: found
        "G1/V7",  # and two more
        "R7/T1",
    ]
    assert of_type(result.events, EventType.DREW)[0].data == {"player": 1, "count": 4}
    assert hand(result.state, 0) == ["G2/V8"]
    assert turn_of(result.state) == 2


def test_s3_wild_draw_color_is_not_stacked_under_progressive_draw() -> None:
    """A WDC draws no fixed number, so it starts no Progressive Draw stack [decision]; the
    W+2 stacks on a W+2 as Classic's wild draw cards do."""
    state = flip_table(
        ["W/WDC G2/V8 G4/V+5", "W/WDC G3/V9", "G7/V1"],
        "R4/TR",
        CHALLENGE_PILE,
        side="dark",
        options=Options(progressive_draw=True),
    )
    state = after(state, play(0, "WDC"), choose_color(0, "O"))
    assert view(state, 1).legal_codes == ("a", "ch")
    state = flip_table(
        ["W+2/W G2/V8 G4/V+5", "W+2/W G3/V9", "G7/V1"],
        "R4/TR",
        CHALLENGE_PILE,
        options=Options(progressive_draw=True),
    )
    state = after(state, play(0, "W+2"), choose_color(0, "Y"))
    assert "p.W+2" in view(state, 1).legal_codes
