"""The strong AI player's decisions in scripted situations, one per decision kind and per
heuristic it claims (services/worker/ai/strong.py): colour choice, holding wilds, dumping
points when an opponent is near out, UNO calls and catches, challenges and bluffs, stacking
and knock-out pressure in No Mercy, the 7-swap target, the roulette colour, and the flip in
UNO Flip judged from the backs the player can see."""

from __future__ import annotations

from services.engine.rules import ActionType, GameState, Options, PendingKind
from services.engine.rules.actions import call_uno, choose_color, draw, play
from services.worker.ai import StrongPolicy
from tests.helpers.ai import rng, seen, table
from tests.helpers.rules import after

strong = StrongPolicy()


def choice(state_seat: tuple[GameState, int]) -> str:
    state, seat = state_seat
    return strong.choose(seen(state, seat), rng()).code


# -- turns --------------------------------------------------------------------------------------


def test_keeps_the_wild_when_a_coloured_card_will_do() -> None:
    state = table(["W R3 B4 G6", "G1 G2 G3 G4 G5"], discard="R5")
    assert choice((state, 0)) == "p.R3"


def test_follows_the_colour_it_holds_most_of() -> None:
    """On a red 5 it can play red or switch to blue with B5: it has more blue."""
    state = table(["R2 B5 B7 B8 G1", "G1 G2 G3 G4 G5"], discard="R5")
    assert choice((state, 0)) == "p.B5"
    state = table(["R2 R7 R8 B5 G1", "G1 G2 G3 G4 G5"], discard="R5")
    assert choice((state, 0)) != "p.B5"


def test_finds_the_chain_of_extra_turns_that_empties_its_hand() -> None:
    """Two players: S gives another turn, so RS, GS, G7 goes out in one turn; the tempting
    G7 first (green follows it) would not."""
    state = table(["G7 GS RS", "G1 G2 G3 G4 G5"], discard="R7")
    assert choice((state, 0)) == "p.RS"


def test_dumps_high_scoring_cards_when_an_opponent_is_near_out() -> None:
    """RULES.md §2 "Scoring": with the opponent on one card, the 9 goes before the 1."""
    hands = ["R1 R9 B2 B3", "G1"]
    assert choice((table([hands[0], "G1 G2 G3 G4 G6"], discard="R5"), 0)) == "p.R1"
    assert choice((table(hands, discard="R5"), 0)) == "p.R9"


def test_hits_an_opponent_about_to_go_out_with_a_draw_card() -> None:
    state = table(["R+2 R3 B2 B3 G8", "Y1", "G1 Y4 Y6"], discard="R5")
    assert choice((state, 0)) == "p.R+2"


# -- colours ------------------------------------------------------------------------------------


def test_names_the_colour_it_holds_most_of() -> None:
    state = after(table(["W G1 B2 B3 B4 Y5", "G1 G2 G3"], discard="R5"), play(0, "W"))
    assert choice((state, 0)) == "c.B"


def test_a_roulette_victim_names_the_colour_it_holds_least_of() -> None:
    """RULES.md §4 WCR: cards are turned up until the named colour shows, so the colour
    with the most cards still unseen is the cheapest to name."""
    state = table(
        ["WCR G1 G2", "R1 R2 G3 G4 B5 B6 B7", "Y1 Y2 Y3"],
        discard="R5",
        variant="no_mercy",
        draw_pile="R9 Y9 G9 B9",
    )
    state = after(state, play(0, "WCR"))
    assert state.pending is not None and state.pending.kind is PendingKind.CHOOSE_ROULETTE_COLOR
    assert choice((state, 1)) == "c.Y"


# -- UNO --------------------------------------------------------------------------------------


def test_calls_uno_before_playing_its_next_to_last_card() -> None:
    state = table(["R1 R2", "G1 G2 G3"], discard="R5")
    assert choice((state, 0)) == "u"


def test_catches_a_player_who_forgot_uno_in_and_out_of_turn() -> None:
    state = table(["R1 Y2", "G1 G2 G3", "B1 B2 B3"], discard="R5")
    state = after(state, play(0, "R1"))
    assert state.uno_window == 0
    assert strong.react(seen(state, 2), rng()).code == "x.0"  # type: ignore[union-attr]
    assert choice((state, 1)) == "x.0"


def test_a_frozen_player_does_not_catch_out_of_turn() -> None:
    """RULES.md §6 Dumb Fu: any move but an owed decision costs a frozen player 4 cards."""
    state = table(
        ["WDF R3 Y4 Y5", "R1 G2 G3 G4", "R2 Y2", "B1 B2 B3"], discard="R5", variant="minions"
    )
    state = after(state, play(0, "WDF"), choose_color(0, "R"), play(1, "R1"), play(2, "R2"))
    assert state.players[1].frozen and state.uno_window == 2
    assert any(a.code == "x.2" for a in seen(state, 1).legal)
    assert strong.react(seen(state, 1), rng()) is None
    assert strong.react(seen(state, 0), rng()).code == "x.2"  # type: ignore[union-attr]


def test_a_frozen_player_does_not_call_uno_on_its_own_turn() -> None:
    """RULES.md §6 Dumb Fu: a frozen player's UNO call costs 4 cards, even with their own
    play; it plays on without calling (being caught costs only 2)."""
    state = table(["WDF R3 Y4", "R1 G2", "B1 B2 B3"], discard="R5", variant="minions")
    state = after(state, play(0, "WDF"), choose_color(0, "R"))
    assert state.players[1].frozen
    assert any(a.code == "u" for a in seen(state, 1).legal)
    assert choice((state, 1)) == "p.R1"
    unfrozen = table(["R3 Y4", "R1 G2", "B1 B2 B3"], discard="R5", variant="minions", current=1)
    assert choice((unfrozen, 1)) == "u"


# -- wild draw cards: challenges and bluffs -----------------------------------------------------


def wild_draw_four_from(source_hand: str) -> GameState:
    state = table(["G1 G2 G3 Y7 Y8", source_hand], discard="R5", current=1)
    return after(state, play(1, "W+4"), choose_color(1, "B"))


def test_challenges_a_wild_draw_four_from_a_big_hand() -> None:
    """RULES.md §2 "Challenge": with six cards left its player very likely held red."""
    state = wild_draw_four_from("W+4 R1 B2 Y3 G4 G5 B6")
    assert choice((state, 0)) == "ch"


def test_takes_a_wild_draw_four_from_a_player_left_with_one_card() -> None:
    """With one card left, its player most likely had no red: a challenge would cost 2."""
    state = table(["G1 G2 G3 Y7 Y8", "W+4 Y2"], discard="R5", current=1)
    state = after(state, call_uno(1), play(1, "W+4"), choose_color(1, "B"))
    assert choice((state, 0)) == "a"


def test_plays_a_legal_wild_draw_four_at_an_opponent_about_to_go_out() -> None:
    state = table(["W+4 G5 G4 Y6", "B1"], discard="R5")
    assert choice((state, 0)) == "p.W+4"


def test_does_not_bluff_a_wild_draw_four_from_a_big_hand() -> None:
    """Holding red, a W+4 is a bluff a careful opponent would challenge."""
    state = table(["W+4 R3 G4 Y6 B7 B8", "B1 B2 B3 B4"], discard="R5")
    assert choice((state, 0)) == "p.R3"


# -- stacking, No Mercy ---------------------------------------------------------------------------


def test_stacks_under_progressive_draw() -> None:
    state = table(
        ["G1 R+2 G3 Y4", "R+2 B4 B5"],
        discard="R5",
        current=1,
        options=Options(progressive_draw=True),
    )
    state = after(state, play(1, "R+2"))
    assert choice((state, 0)) == "p.R+2"


def test_no_mercy_passes_the_stack_on_with_its_cheapest_answer() -> None:
    """RULES.md §4 "Stacking": equal or higher.  The +10 is kept for later."""
    state = table(["G1 B+4 W+10 G3", "R+2 B4 B5"], discard="R5", current=1, variant="no_mercy")
    state = after(state, play(1, "R+2"))
    assert choice((state, 0)) == "p.B+4"


def test_no_mercy_aims_a_draw_card_to_knock_an_opponent_out() -> None:
    """RULES.md §4 "Mercy": 25 cards knocks a player out and scores 250 for it.  A +10
    can only be answered by another +10, so against a big hand it is likely to land and
    knock them out: worth more than shedding three cards with a Discard All.  Three cards
    short of the limit, the Discard All is better."""
    crowded = " ".join(["G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9"] * 2)  # 16 cards
    hands = ["W+10 RDA R3 R4 B6", crowded, "Y1 Y2 Y3 Y4"]
    state = table(hands, discard="R5", variant="no_mercy")
    assert choice((state, 0)) == "p.W+10"
    hands[1] = " ".join(crowded.split()[:13])
    assert choice((table(hands, discard="R5", variant="no_mercy"), 0)) == "p.RDA"


def test_no_mercy_two_player_wild_reverse_draw_four_is_not_played_at_oneself() -> None:
    """RULES.md §4: with two players a WR+4 makes its own player draw 4."""
    state = table(["WR+4 R3 Y4 B6", "G1 G2 G3 G4 G5"], discard="R5", variant="no_mercy")
    given = seen(state, 0)
    assert any(a.code == "p.WR+4" for a in given.legal)
    assert choice((state, 0)) != "p.WR+4"


def test_seven_swaps_with_the_smallest_hand() -> None:
    """RULES.md §4 "Seven and zero": the 7's player chooses whom to swap with."""
    state = table(
        ["R7 G1 G2 G3 G4", "B1 B2 B3 B4", "Y1 Y2", "G5 G6 G7"], discard="R5", variant="no_mercy"
    )
    state = after(state, play(0, "R7"))
    assert state.pending is not None and state.pending.kind is PendingKind.CHOOSE_SWAP
    assert choice((state, 0)) == "s.2"


# -- UNO Flip -----------------------------------------------------------------------------------


def flip_table(opponent_hand: str) -> GameState:
    return table(["R3/P4 RF/PSE B4/T6 G2/O1", opponent_hand], discard="R9/V2", variant="flip")


def test_flips_when_the_opponents_other_side_is_weak() -> None:
    """RULES.md §3: after F every hand shows its other face; the backs the player sees
    are the opponent's next hand.  Numbers behind: flip now."""
    state = flip_table("R1/P1 Y2/P2")
    assert choice((state, 0)) == "p.RF"


def test_does_not_flip_into_an_opponents_wild_backs() -> None:
    state = flip_table("R1/W Y2/WDC")
    assert choice((state, 0)) != "p.RF"


def test_never_plays_a_card_it_does_not_hold_and_only_legal_ones() -> None:
    state = table(["R1 R2 R3", "G1 G2 G3"], discard="R5")
    given = seen(state, 0)
    assert strong.choose(given, rng()) in given.legal
    assert given.pending is not None and given.pending.kind is PendingKind.TURN
    assert ActionType.PLAY in {a.type for a in given.legal}


# -- memory of its own earlier views --------------------------------------------------------------


def test_a_seated_player_keeps_the_colour_its_opponent_drew_on() -> None:
    """The opponent drew instead of playing on red, so they hold no red: the player seated
    at this game remembers that and stays on red; the memoryless registry instance (a
    stand-in deciding once) switches to the colour it holds most of."""
    state = table(["R1 R2 B1 B2 B6 B7 B8", "G3 G4 G5"], discard="R9", draw_pile="Y6 Y8 Y9 Y3")
    seated = strong.for_game()
    first = seated.choose(seen(state, 0), rng())
    assert first.code in {"p.R1", "p.R2"}
    state = after(state, first, draw(1))
    assert state.pending is not None and state.pending.player == 0
    other_red = "p.R2" if first.code == "p.R1" else "p.R1"
    assert seated.choose(seen(state, 0), rng()).code == other_red
    assert strong.choose(seen(state, 0), rng()).code.startswith("p.B")
