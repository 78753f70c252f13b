"""Callback data: compact, within Telegram's 64 bytes, and refused when not ours."""

from __future__ import annotations

import pytest

from services.move_ids import GAME_ID, action_id, is_game_id
from services.presentation.callbacks import MAX_BYTES, BadCallback, Callback, Kind


def test_round_trip_of_the_longest_move() -> None:
    cb = Callback(Kind.ACT, "AbCdEf-_1234", 2**40, "p.WR+4")
    data = cb.encode()
    assert len(data.encode()) <= MAX_BYTES
    assert Callback.decode(data) == cb


def test_a_flip_card_and_a_seat_fit() -> None:
    for arg in ("p.R5", "c.V", "x.9", "s.3", "ch", "a", "u", "d", "k"):
        cb = Callback(Kind.ACT, "x" * 12, 123456, arg)
        assert Callback.decode(cb.encode()) == cb


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "junk",
        "a|g|v|p.R5",
        "z|g|1|d",
        "a|g|1|d|extra",
        "a|g;drop|1|d",
        "a|g|-1|d",
        "a|" + "g" * 70 + "|1|d",
    ],
)
def test_garbage_is_refused(data: str | None) -> None:
    with pytest.raises(BadCallback):
        Callback.decode(data)


def test_too_long_data_is_never_written() -> None:
    with pytest.raises(ValueError):
        Callback(Kind.ACT, "g" * 60, 1, "p.R5").encode()


def test_action_ids_repeat_for_the_same_press_only() -> None:
    assert action_id(7, 3, "p.R5") == action_id(7, 3, "p.R5")
    assert action_id(7, 3, "p.R5") != action_id(7, 4, "p.R5")
    assert action_id(7, 3, "p.R5") != action_id(8, 3, "p.R5")


@pytest.mark.parametrize(
    "data",
    [
        "a|AbCdEf-_1234|7|",  # a move without its code
        "a|AbCdEf-_1234|" + "9" * 20 + "|d",  # more digits than any version
        "a|AbCdEf-_1234|\u0661|d",  # a digit, but not an ASCII one
        "a|../../v1/games/AbCdEf|7|d",  # a path for a game id
        "h|AbCdEf/view|0|",
        "a|AbCdEf-_1234|7|p.R\ud800",  # a lone surrogate (JSON of a webhook update)
        "l|AbCdEf-_1234|0|jo\u00efn",
    ],
)
def test_made_up_data_that_once_raised_is_refused(data: str) -> None:
    with pytest.raises(BadCallback):
        Callback.decode(data)


def test_game_ids_are_the_engines() -> None:
    from services.engine.routes import GAME_ID_PATTERN

    assert GAME_ID.pattern == GAME_ID_PATTERN
    assert is_game_id("AbCdEf-_1234") and not is_game_id("AbCd/spectator#")
