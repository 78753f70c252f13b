"""Callback data: compact, within Telegram's 64 bytes, and refused when not ours."""

from __future__ import annotations

import pytest

from services.bot.callbacks import MAX_BYTES, BadCallback, Callback, Kind, action_id


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
