"""The end-to-end tests' world: the services of a test module and a group to play in."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from telegram_play import Players

from services.engine.client import EngineClient
from services.playground.processes import ENGINE_TOKEN, Process, records_url, start_bot

#: A test plays faster than people: the flood limits (and the per-person cooldown) would
#: only slow it down. The tests of the limits themselves set the real numbers back.
FAST_LIMITS = {
    "UNO_BOT_GROUP_MESSAGES_PER_MINUTE": "6000",
    "UNO_BOT_PRIVATE_MESSAGES_PER_SECOND": "100",
    "UNO_BOT_MESSAGES_PER_SECOND": "1000",
    "UNO_BOT_USER_UPDATES_PER_SECOND": "1000",
    "UNO_BOT_USER_UPDATE_BURST": "1000",
}


@dataclass
class Stack:
    """Engine, worker and one bot replica, for one test module, on the test Redis (emptied
    at the start); tests make their own users, groups and games. Not for the whole session:
    the worker would go on draining deadlines under other areas' tests."""

    redis_url: str
    engine: Process
    worker: Process
    bots: list[Process]
    token: str
    username: str
    bot_id: int
    telegram: Any
    log_dir: Path

    @property
    def database_url(self) -> str:
        """The records the worker writes and the bot reads: a SQLite file of this stack's
        own (the bot and the worker each migrate it at start)."""
        return records_url(self.log_dir)

    @property
    def engine_url(self) -> str:
        return self.engine.env["UNO_ENGINE_URL"]

    @property
    def control(self) -> Any:
        return self.telegram.control

    def start_bot(self, name: str, **extra: str) -> Process:
        """A bot replica; Telegram's limits are lifted (in the bot and the local Telegram)
        unless a test sets them, so games run at a test's pace."""
        extra = {**FAST_LIMITS, **extra}
        bot = start_bot(
            name, self.redis_url, self.engine_url, self.telegram.bot_api_url, self.token,
            self.log_dir, **extra,
        )  # fmt: skip
        self.bots.append(bot)
        return bot

    def engine_client(self) -> EngineClient:
        return EngineClient(self.engine_url, ENGINE_TOKEN)

    def players(self, chat_id: int) -> Players:
        return Players(self.control, self.token, chat_id, self.username, self.bot_id)


@dataclass
class Group:
    chat: dict[str, Any]
    people: list[dict[str, Any]]
    players: Players

    @property
    def id(self) -> int:
        return int(self.chat["id"])
