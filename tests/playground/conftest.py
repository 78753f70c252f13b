"""Fixtures of the local Telegram's tests."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from playground.server import LocalTelegram
from tests.helpers.telegram_scene import Scene


@pytest.fixture
def scene(local_telegram: LocalTelegram) -> Iterator[Scene]:
    """A fresh bot in a supergroup with Ann and Bob (Ann has started the bot in private); its
    pending updates are read; flood limits are Telegram's before and after."""
    control = local_telegram.control
    control.set_limits(True)  # Telegram's numbers, whatever an earlier test left
    made = control.create_bot("scene_bot")
    ann = control.create_user("Ann")
    bob = control.create_user("Bob")
    group = control.create_group("table", [ann["id"], bob["id"]], bots=[made["token"]])
    control.start_bot(ann["id"], made["token"])
    with httpx.Client(timeout=30) as http:
        s = Scene(local_telegram, http, made["token"], made["user"], ann, bob, group)
        s.updates()
        yield s
    control.set_limits(True)
