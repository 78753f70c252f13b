"""RULES.md §5 Minecraft: Classic's 108 cards plus 4 Mob cards, the Creeper (``W+3``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from services.engine.rules import (
    EventType,
    GameState,
    Kind,
    Options,
    PendingKind,
    Reason,
    new_game,
    view,
)
from services.engine.rules.actions import challenge, choose_color, draw, play
from services.engine.rules.variants import get_variant
from tests.helpers.rules import (
    added_to_classic,
    after,
    all_cards,
    assert_classic_apart_from,
    deck_of,
    hand,
    of_type,
    ok,
    refused,
    table,
)

MINECRAFT = "minecraft"


def minecraft(hands: list[str], **kw: Any) -> GameState:
    """A Minecraft round in play: seat 0 owes a turn on an R5 (overridable)."""
    kw = {"discard": "R5", "current": 0, **kw}
    return table(hands, variant=MINECRAFT, **kw)


def test_s5_deck_is_classic_plus_four_creepers() -> None:
    """RULES.md §5 "Deck (112)": Classic's 108 + 4 Mob cards (the Creeper, W+3)."""
    assert len(get_variant(MINECRAFT).deck) == 112
    assert added_to_classic(MINECRAFT) == Counter({"W+3": 4})


def test_s5_creeper_has_a_themed_name() -> None:
    """RULES.md §1 / §5: the Mob card is the Creeper (display only; its code is W+3)."""
    assert "Creeper" in get_variant(MINECRAFT).themed_names[Kind.WILD_DRAW3]


def test_s5_creeper_chooses_colour_then_next_player_draws_three_and_loses_turn() -> None:
    """RULES.md §5 "W+3": a wild; its player chooses the colour; the next player draws 3
    and loses the turn.
    [decision creeper]"""
    state = minecraft(["W+3 R1 R2", "B1 B2", "G1 G2"], draw_pile="Y1 Y2 Y3 Y4")
    played = ok(state, play(0, "W+3"))
    assert played.state.pending is not None
    assert played.state.pending.kind is PendingKind.CHOOSE_COLOR
    assert played.state.pending.player == 0
    result = ok(played.state, choose_color(0, "G"))
    state = result.state
    assert hand(state, 1) == ["B1", "B2", "Y1", "Y2", "Y3"]
    assert [e.data["player"] for e in of_type(result.events, EventType.SKIPPED)] == [1]
    assert state.color is not None and state.color.value == "G"
    assert state.pending is not None
    assert (state.pending.kind, state.pending.player) == (PendingKind.TURN, 2)


def test_s5_creeper_cannot_be_challenged_or_answered() -> None:
    """RULES.md §5 "W+3": playable at any time (no colour restriction, no challenge): its
    victim owes no decision and simply draws."""
    state = minecraft(["W+3 R1 R2", "B1 B2", "G1 G2"], draw_pile="Y1 Y2 Y3 Y4")
    state = after(state, play(0, "W+3"), choose_color(0, "B"))
    assert state.pending is not None and state.pending.player == 2
    assert len(state.hand(1)) == 5
    refused(state, challenge(1), Reason.NOT_YOUR_TURN)


def test_s5_creeper_playable_while_holding_the_colour_in_play() -> None:
    """RULES.md §5 "W+3": no colour restriction: legal while holding the colour in play."""
    state = minecraft(["W+3 R1 R2", "B1 B2"], draw_pile="Y1 Y2 Y3 Y4")
    assert "p.W+3" in view(state, 0).legal_codes
    state = after(state, play(0, "W+3"), choose_color(0, "R"))
    # Two players: the victim loses the turn, so the Creeper's player plays again.
    assert len(state.hand(1)) == 5
    assert state.pending is not None and state.pending.player == 0


def test_s5_creeper_as_first_card_goes_back_and_another_is_turned_up() -> None:
    """RULES.md §5 "W+3": as the first card, put back and turn another."""
    state = table(["R1 R2", "B1 B2", "G1 G2"], draw_pile="W+3 Y7 Y8", variant=MINECRAFT)
    assert state.top.code != "W+3"
    assert state.top.code in {"Y7", "Y8"}
    assert [c.code for c in state.draw_pile].count("W+3") == 1
    assert all(len(state.hand(seat)) == 2 for seat in range(3))
    assert state.pending is not None and state.pending.kind is PendingKind.TURN


def test_s5_creeper_as_first_card_in_dealt_games_never_stays_on_top() -> None:
    """RULES.md §5 "W+3" as the first card, over many real deals: never the starting card;
    nothing created or lost."""
    for seed in range(150):
        state, events = new_game(MINECRAFT, ["A", "B", "C"], seed=seed)
        first_cards = [e.data["card"] for e in of_type(events, EventType.FIRST_CARD)]
        assert state.top.code not in {"W+3", "W+4"}
        assert all(code in {"W+3", "W+4"} for code in first_cards[:-1])
        assert all_cards(state) == deck_of(state)


def test_s5_creeper_as_last_card_still_makes_the_next_player_draw_and_scores_fifty() -> None:
    """RULES.md §2 "End of a round" with §5: a final W+3 still makes the next player draw 3,
    and those cards count; RULES.md §5 "Scores 50"."""
    state = minecraft(["W+3", "W+3 B1", "G1 G2"], draw_pile="Y1 Y2 Y3 R9 R9 R9 R9 R9 R9 R9 R9")
    result = ok(state, play(0, "W+3"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    # Seat 1: W+3 (50) + B1 + Y1 Y2 Y3 drawn = 57; seat 2: G1 G2 = 3.
    assert ended["points"] == [0, 57, 3]
    assert result.state.players[0].score == 60


def test_s5_everything_else_is_classic_w4_challenge() -> None:
    """RULES.md §5 "Everything else is Classic": the W+4 challenge works (guilty: its
    player draws 4)."""
    state = minecraft(["W+4 R1 R2", "B1 B2", "G1 G2"], draw_pile="Y1 Y2 Y3 Y4 Y5 Y6")
    state = after(state, play(0, "W+4"), choose_color(0, "B"))
    assert state.pending is not None and state.pending.kind is PendingKind.RESPOND_TO_DRAW
    state = after(state, challenge(1))
    assert len(state.hand(0)) == 6
    assert state.pending is not None and state.pending.player == 1


def test_s5_everything_else_is_classic_first_cards_challenge_uno_500_alternate_scoring() -> None:
    """RULES.md §5 "Everything else is Classic (first-card rules, challenge, UNO, 500,
    alternate scoring)": only the Creeper is Minecraft's own."""
    assert_classic_apart_from(MINECRAFT, {Kind.WILD_DRAW3})


def test_s5_creeper_stacks_on_creeper_with_progressive_draw() -> None:
    """RULES.md §2 "House rules" Progressive draw, in Minecraft: a W+3 may be stacked on a
    W+3 (same kind), not on a W+4 nor a +2; the last player takes the total."""
    options = Options(progressive_draw=True)
    state = minecraft(
        ["W+3 R1 R2", "W+3 W+4 R+2 B1", "G1 G2"], draw_pile="Y1 Y2 Y3 Y4 Y5 Y6 Y7", options=options
    )
    state = after(state, play(0, "W+3"), choose_color(0, "R"))
    assert state.pending is not None and state.pending.kind is PendingKind.RESPOND_TO_DRAW
    legal = view(state, 1).legal_codes
    assert "p.W+3" in legal
    assert "p.W+4" not in legal and "p.R+2" not in legal
    assert "ch" not in legal  # a Creeper is never challenged
    refused(state, play(1, "W+4"), Reason.NOT_STACKABLE)
    state = after(state, play(1, "W+3"), choose_color(1, "G"))
    # Seat 2 has nothing to stack, so it takes the total at once.
    assert len(state.hand(2)) == 8
    assert state.pending is not None and state.pending.player == 0


def test_s5_creeper_can_be_drawn_and_played_at_once() -> None:
    """RULES.md §2 "A turn" with §5: a drawn Creeper is playable (a wild), at once."""
    state = minecraft(["B1 B2", "G1 G2", "Y1 Y2"], draw_pile="W+3 R9 R9 R9")
    state = after(state, draw(0))
    assert state.pending is not None and state.pending.kind is PendingKind.PLAY_DRAWN
    state = after(state, play(0, "W+3"), choose_color(0, "Y"))
    assert len(state.hand(1)) == 5


def test_s5_scoring_counts_creeper_fifty() -> None:
    """RULES.md §5 "Scores 50": a Creeper left in a hand is worth 50."""
    state = minecraft(["B1", "W+3 W+3 R7", "W+4 YS"], discard="B5")
    result = ok(state, play(0, "B1"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["points"] == [0, 107, 70]
