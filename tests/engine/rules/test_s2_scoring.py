"""RULES.md §2 "End of a round" and "Scoring" (Classic), with the alternate-scoring and
target-score chat options."""

from __future__ import annotations

import itertools
import random

import pytest

from services.engine.rules import (
    ActionType,
    Applied,
    EventType,
    GameState,
    Options,
    Reason,
    apply,
    legal_actions,
    new_game,
    round_gains,
)
from services.engine.rules.actions import accept, draw, play
from tests.helpers.rules import all_cards, deck_of, of_type, ok, refused, table, types

# -- End of a round --------------------------------------------------------------------------


def test_s2_end_of_round_when_a_player_plays_their_last_card() -> None:
    """RULES.md §2 "End of a round": when a player plays their last card."""
    state = table(["R1", "B1 B2", "G3 GS"], discard="R5", current=0, seed=3)
    result = ok(state, play(0, "R1"))
    ended = of_type(result.events, EventType.ROUND_ENDED)
    assert len(ended) == 1
    assert ended[0].data["winner"] == 0
    assert ended[0].data["points"] == [0, 3, 23]
    assert ended[0].data["hands"] == [[], ["B1", "B2"], ["G3", "GS"]]
    assert result.state.players[0].score == 26
    assert EventType.UNO_WINDOW_OPENED not in types(result.events)


def test_s2_end_of_round_last_card_draw_two_still_makes_next_player_draw() -> None:
    """RULES.md §2 "End of a round": a final +2 still makes the next player draw; those
    cards count in scoring."""
    state = table(["R+2", "B1 B2", "G3"], discard="R5", draw_pile="Y7 Y8 Y9", current=0)
    result = ok(state, play(0, "R+2"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0]
    assert ended.data["hands"][1] == ["B1", "B2", "Y7", "Y8"]
    assert ended.data["points"] == [0, 1 + 2 + 7 + 8, 3]
    assert result.state.players[0].score == 1 + 2 + 7 + 8 + 3
    drew = of_type(result.events, EventType.DREW)
    assert drew[0].data == {"player": 1, "count": 2}
    assert types(result.events).index(EventType.DREW) < types(result.events).index(
        EventType.ROUND_ENDED
    )


def test_s2_end_of_round_last_card_wild_draw_four_draws_four_without_challenge() -> None:
    """RULES.md §2 "End of a round": a final W+4 still makes the next player draw 4; the
    round is over, so there is no colour to choose and nothing to challenge.
    [decision final-draw-card]"""
    state = table(["W+4", "B1 B2", "G3"], discard="R5", draw_pile="Y1 Y2 Y3 Y4 Y5", current=0)
    result = ok(state, play(0, "W+4"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0]
    assert ended.data["hands"][1] == ["B1", "B2", "Y1", "Y2", "Y3", "Y4"]
    assert result.state.players[0].score == 3 + 10 + 3
    assert EventType.COLOR_CHOSEN not in types(result.events)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", Options(jump_in=True, progressive_draw=True)),
        ("minecraft", Options(jump_in=True, progressive_draw=True)),
        ("no_mercy", Options(jump_in=True)),
    ],
)
def test_s2_end_of_round_final_draw_card_is_not_stacked_or_jumped_on(
    variant: str, options: Options
) -> None:
    """RULES.md §2 "End of a round" [decision final-draw-card]: a final draw card can't be
    stacked or jumped on, even where stacking and Jump-In are played: the next player (who
    holds a card to stack) just draws, the player holding an identical card can't jump in, and
    the round is scored."""
    state = table(
        ["R+2", "B+2 B1", "R+2 G3"],
        discard="R5",
        draw_pile="Y1 Y2 Y3",
        current=0,
        variant=variant,
        options=options,
    )
    result = ok(state, play(0, "R+2"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["winner"] == 0
    assert ended["hands"] == [[], ["B+2", "B1", "Y1", "Y2"], ["R+2", "G3"]]
    assert EventType.STACKED not in types(result.events)


def test_s2_end_of_round_final_wild_draw_four_is_not_stacked_under_progressive_draw() -> None:
    """RULES.md §2 "End of a round" [decision final-draw-card]: a final W+4 is drawn, not
    stacked or challenged, and no colour is asked for."""
    state = table(
        ["W+4", "W+4 B1", "G3"],
        discard="R5",
        draw_pile="Y1 Y2 Y3 Y4 Y5",
        current=0,
        options=Options(progressive_draw=True),
    )
    result = ok(state, play(0, "W+4"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["hands"][1] == ["W+4", "B1", "Y1", "Y2", "Y3", "Y4"]
    assert EventType.COLOR_CHOSEN not in types(result.events)


def test_s2_end_of_round_last_card_skip_or_wild_has_no_effect_left() -> None:
    """RULES.md §2 "End of a round": only a draw card still acts after the last card."""
    for last in ("RS", "RR", "W"):
        state = table([last, "B1 B2", "G3"], discard="R5", draw_pile="Y1 Y2", current=0)
        result = ok(state, play(0, last))
        ended = of_type(result.events, EventType.ROUND_ENDED)[0]
        assert ended.data["hands"][1:] == [["B1", "B2"], ["G3"]]
        assert (
            EventType.SKIPPED
            not in types(result.events)[: types(result.events).index(EventType.ROUND_ENDED)]
        )


# -- Scoring -----------------------------------------------------------------------------------


def test_s2_scoring_numbers_face_value_actions_20_wilds_50() -> None:
    """RULES.md §2 "Scoring": numbers face value; +2, R, S 20; W, W+4 50; the winner scores
    the points left in every other hand."""
    state = table(
        ["G1", "R7 G+2 BS YR", "W W+4 B0 Y9"], discard="G5", current=0, scores=[10, 20, 30]
    )
    result = ok(state, play(0, "G1"))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0]
    assert ended.data["points"] == [0, 7 + 20 + 20 + 20, 50 + 50 + 0 + 9]
    assert ended.data["scores"] == [10 + 67 + 109, 20, 30]
    assert [p.score for p in result.state.players] == [186, 20, 30]


def test_s2_scoring_round_gains_the_winner_scores_the_other_hands_or_each_their_own() -> None:
    """RULES.md §2 "Scoring": what each seat scores for a round, as the engine adds it and
    the bot's score line shows it (the winner's own hand, if any, is not counted)."""
    assert round_gains([0, 12, 30, 7], 0, alternate_scoring=False) == [49, 0, 0, 0]
    assert round_gains([5, 12, 30, 7], 0, alternate_scoring=False) == [49, 0, 0, 0]
    assert round_gains([0, 12, 30, 7], 0, alternate_scoring=True) == [0, 12, 30, 7]


def test_s2_scoring_first_to_500_wins_the_game() -> None:
    """RULES.md §2 "Scoring": first to 500 wins the game."""
    state = table(["G1", "W W+4", "B9"], discard="G5", current=0, scores=[395, 480, 0])
    result = ok(state, play(0, "G1"))
    assert result.state.players[0].score == 504
    assert result.state.winner == 0
    assert result.state.pending is None and result.state.is_over
    over = of_type(result.events, EventType.GAME_OVER)
    assert [e.data for e in over] == [{"winner": 0, "scores": [504, 480, 0]}]
    assert EventType.ROUND_STARTED not in types(result.events)
    refused(result.state, draw(1), Reason.GAME_OVER)
    assert legal_actions(result.state, 1) == ()


def test_s2_scoring_short_of_500_the_next_round_is_dealt() -> None:
    """RULES.md §2 "Scoring": otherwise shuffle and deal the next round."""
    state = table(["G1", "W W+4", "B9"], discard="G5", current=0, scores=[300, 480, 0], seed=9)
    result = ok(state, play(0, "G1"))
    new = result.state
    assert new.players[0].score == 409
    assert new.winner is None and new.pending is not None
    assert new.round == 2
    assert new.dealer == 1
    assert all_cards(new) == deck_of(new)
    assert types(result.events).index(EventType.ROUND_ENDED) < types(result.events).index(
        EventType.ROUND_STARTED
    )
    assert [p.declared_uno for p in new.players] == [False] * 3
    assert new.uno_window is None and new.direction == 1


def test_s2_scoring_alternate_each_adds_own_hand_lowest_wins() -> None:
    """RULES.md §2 "Scoring" (alternate scoring option): each player adds up the points in
    their own hand each round; when anyone reaches 500, the lowest total wins."""
    options = Options(alternate_scoring=True)
    state = table(
        ["G1", "W W+4", "B9"], discard="G5", current=0, scores=[300, 420, 100], options=options
    )
    result = ok(state, play(0, "G1"))
    assert [p.score for p in result.state.players] == [300, 520, 109]
    assert result.state.winner == 2
    assert of_type(result.events, EventType.GAME_OVER)[0].data["winner"] == 2


def test_s2_scoring_alternate_below_target_goes_on() -> None:
    options = Options(alternate_scoring=True)
    state = table(["G1", "W", "B9"], discard="G5", current=0, scores=[0, 0, 0], options=options)
    result = ok(state, play(0, "G1"))
    assert [p.score for p in result.state.players] == [0, 50, 9]
    assert result.state.winner is None and result.state.round == 2


def test_s2_scoring_target_score_option() -> None:
    """RULES.md §2 "Scoring" (chat option): the target score."""
    options = Options(target_score=100)
    state = table(["G1", "W W+4", "B9"], discard="G5", current=0, options=options)
    result = ok(state, play(0, "G1"))
    assert result.state.winner == 0
    state = table(["G1", "W", "B9"], discard="G5", current=0, options=options)
    assert ok(state, play(0, "G1")).state.winner is None


def _random_game(players: int, seed: int, options: Options | None = None) -> list[Applied]:
    """Play a whole seeded game with random legal plays (draw only when stuck)."""
    rng = random.Random(seed)
    state, _ = new_game("classic", [f"P{i}" for i in range(players)], options, seed=seed)
    results = []
    for _ in range(20_000):
        if state.pending is None:
            return results
        actions = legal_actions(state, state.pending.player)
        plays = [a for a in actions if a.type is ActionType.PLAY]
        calls = [a for a in actions if a.type is ActionType.CALL_UNO]
        action = calls[0] if calls else rng.choice(plays or list(actions))
        result = apply(state, action)
        assert isinstance(result, Applied)
        results.append(result)
        state = result.state
    raise AssertionError("game did not end")


@pytest.mark.parametrize("seed", range(3))
def test_s2_scoring_a_whole_game_of_several_rounds_to_500(seed: int) -> None:
    """RULES.md §2 "Scoring": rounds are scored until someone reaches 500; the deal passes
    to the left every round."""
    results = _random_game(4, seed)
    final = results[-1].state
    events = [e for r in results for e in r.events]
    dealers = [e.data["dealer"] for e in of_type(events, EventType.ROUND_STARTED)]
    assert len(dealers) >= 2
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))
    ended = of_type(events, EventType.ROUND_ENDED)
    assert len(ended) == len(dealers) + 1  # round 1 was dealt by new_game
    totals = [0, 0, 0, 0]
    for e in ended:
        winner = e.data["winner"]
        totals[winner] += sum(e.data["points"])
        assert e.data["scores"] == totals
    assert final.winner is not None
    assert final.players[final.winner].score >= 500
    assert max(totals) == totals[final.winner]
    assert [p.score for p in final.players] == totals


def test_s2_scoring_game_state_after_game_over_is_stable() -> None:
    results = _random_game(2, 11, Options(target_score=50))
    final: GameState = results[-1].state
    assert final.is_over
    for seat in range(2):
        assert legal_actions(final, seat) == ()
        refused(final, accept(seat), Reason.GAME_OVER)
