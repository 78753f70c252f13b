"""Places from final scores, and Weng-Lin ratings from places."""

from __future__ import annotations

import pytest

from services.records.ratings import NEW_PLAYER, Skill, places, rate


@pytest.mark.parametrize(
    ("scores", "winner", "lowest_wins", "expected"),
    [
        ([520, 40, 10, 0], 0, False, [1, 2, 3, 4]),
        ([0, 520, 0, 0], 1, False, [2, 1, 2, 2]),  # the losers tie on nothing
        ([30, 30, 600, 30], 2, False, [2, 2, 1, 2]),
        ([500, 500, 10], 1, False, [2, 1, 3]),  # a tie on top goes to the game's winner
        ([510, 120, 80, 300], 2, True, [4, 2, 1, 3]),  # alternate scoring: lowest first
    ],
)
def test_places(scores: list[int], winner: int, lowest_wins: bool, expected: list[int]) -> None:
    assert places(scores, winner, lowest_wins=lowest_wins) == expected


def test_the_winner_gains_and_the_last_loses() -> None:
    new = rate([1, 2, 3], [1, 2, 3], {})
    assert new[1].mu > NEW_PLAYER.mu > new[3].mu
    assert all(s.sigma < NEW_PLAYER.sigma for s in new.values())


def test_beating_a_strong_player_is_worth_more() -> None:
    strong = Skill(mu=35.0, sigma=3.0)
    beat_strong = rate([1, 2], [1, 2], {2: strong})[1].mu
    beat_newcomer = rate([1, 2], [1, 2], {})[1].mu
    assert beat_strong > beat_newcomer


def test_ties_share_the_change() -> None:
    new = rate([1, 2, 3], [1, 2, 2], {})
    assert new[2] == new[3]
