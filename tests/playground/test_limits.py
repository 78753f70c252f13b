"""Flood limits on a fake clock: Telegram's numbers, bursts, refills and retry_after."""

from __future__ import annotations

import pytest

from playground.limits import FloodLimits

BOT = 7


def burst(limits: FloodLimits, chat: int, private: bool, now: float) -> tuple[int, int]:
    """Messages sent at ``now`` before the first refusal, and its retry_after."""
    for sent in range(1000):
        retry = limits.take(BOT, chat, private, now)
        if retry:
            return sent, retry
    raise AssertionError("never refused")


def test_a_group_takes_20_a_minute() -> None:
    limits = FloodLimits()
    assert burst(limits, -100, False, now=0.0) == (20, 3)
    assert limits.take(BOT, -100, False, 2.9) == 1  # not yet refilled
    assert limits.take(BOT, -100, False, 3.0) == 0  # one message every 3 s
    assert limits.take(BOT, -200, False, 3.0) == 0  # other groups have their own bucket


def test_a_private_chat_takes_about_one_a_second() -> None:
    limits = FloodLimits()
    assert burst(limits, 5, True, now=0.0) == (3, 1)
    assert limits.take(BOT, 5, True, 1.0) == 0
    assert limits.take(BOT, 5, True, 1.0) == 1


def test_a_bot_takes_30_a_second_overall() -> None:
    limits = FloodLimits()
    sent = 0
    for chat in range(1, 40):
        if limits.take(BOT, chat, True, 0.0):
            break
        sent += 1
    assert sent == 30
    assert limits.take(BOT + 1, 1, True, 0.0) == 0  # another bot is not held up


def test_refused_messages_cost_nothing_and_limits_switch_off() -> None:
    limits = FloodLimits()
    burst(limits, 5, True, now=0.0)
    for _ in range(10):
        assert limits.take(BOT, 5, True, 0.5) == 1
    assert limits.take(BOT, 5, True, 1.0) == 0
    limits.configure(False)
    assert all(limits.take(BOT, 5, True, 1.0) == 0 for _ in range(100))


def test_settings_are_checked() -> None:
    limits = FloodLimits()
    with pytest.raises(ValueError, match="unknown"):
        limits.configure(True, per_hour=3)
    with pytest.raises(ValueError, match="positive"):
        limits.configure(True, group_per_minute=0)
    limits.configure(True, group_per_minute=2)
    assert burst(limits, -1, False, now=0.0) == (2, 30)
