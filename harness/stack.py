"""The whole product against the local Telegram, for the bot's end-to-end tests and the
Telegram load bench: the engine, the worker and bot replicas as processes, a bot made in
the local Telegram, and the scripted people who play there."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import redis

from harness.players import Players
from harness.processes import ServiceProcess
from harness.services import (
    QUICK_GAMES,
    EngineProcess,
    TelegramProcess,
    records_url,
    start_bot,
    start_engine,
    start_local_telegram,
    start_worker,
)
from playground.control import TelegramControl
from services.engine.client import EngineClient

#: How long a process of the stack has to exit after SIGTERM before it is killed.
STOP_GRACE = 15.0

#: Scripted people play faster than people: the flood limits (and the per-person cooldown)
#: would only slow them down. Tests of the limits themselves set the real numbers back.
FAST_LIMITS = {
    "UNO_BOT_GROUP_MESSAGES_PER_MINUTE": "6000",
    "UNO_BOT_PRIVATE_MESSAGES_PER_SECOND": "100",
    "UNO_BOT_MESSAGES_PER_SECOND": "1000",
    "UNO_BOT_USER_UPDATES_PER_SECOND": "1000",
    "UNO_BOT_USER_UPDATE_BURST": "1000",
}


@dataclass
class Stack:
    """Engine, worker and bot replicas on one Redis database, against the local Telegram
    at ``telegram_url`` (``telegram``: its process, when the stack started one). Callers make
    their own users, groups and games."""

    redis_url: str
    log_dir: Path
    telegram_url: str
    engine: EngineProcess
    worker: ServiceProcess
    token: str
    username: str
    bot_id: int
    #: Settings every replica gets before its own (e.g. :data:`FAST_LIMITS`).
    bot_env: dict[str, str] = field(default_factory=dict)
    telegram: TelegramProcess | None = None
    bots: list[ServiceProcess] = field(default_factory=list)
    _control: TelegramControl | None = field(default=None, init=False, repr=False)

    @property
    def database_url(self) -> str:
        """The records the worker writes and the bot reads: a SQLite file of this stack's
        own (the bot and the worker each migrate it at start)."""
        return records_url(self.log_dir)

    @property
    def engine_url(self) -> str:
        return self.engine.url

    @property
    def bot_api_url(self) -> str:
        return self.telegram_url + "/bot"

    @property
    def control(self) -> TelegramControl:
        if self._control is None:
            self._control = TelegramControl(self.telegram_url)
        return self._control

    @property
    def processes(self) -> dict[str, ServiceProcess]:
        """Every process of the stack by name (the local Telegram's as ``telegram``)."""
        found: dict[str, ServiceProcess] = {b.name: b for b in self.bots}
        found.update(engine=self.engine, worker=self.worker)
        if self.telegram is not None:
            found["telegram"] = self.telegram
        return found

    def start_bot(self, name: str, **extra: str) -> ServiceProcess:
        """A bot replica with the stack's bot settings, then ``extra``."""
        bot = start_bot(
            name, self.redis_url, self.engine_url, self.bot_api_url, self.token, self.log_dir,
            **{**self.bot_env, **extra},
        )  # fmt: skip
        self.bots.append(bot)
        return bot

    def engine_client(self) -> EngineClient:
        return self.engine.client()

    def players(self, chat_id: int) -> Players:
        return Players(self.control, self.token, chat_id, self.username, self.bot_id)

    def stop(self) -> None:
        """Every process, the bots first, the local Telegram last, all told at once (SIGTERM)
        and then waited for (SIGKILL after a grace): the stack takes as long to stop as its
        slowest process (the worker's warm shutdown), not as all of them one after another;
        a bench stopped by ``timeout`` has seconds to let go of everything."""
        procs = [*self.bots, self.worker, self.engine]
        if self.telegram is not None:
            procs.append(self.telegram)
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait_or_kill(STOP_GRACE)
            proc.stop()  # gone by now: it only lets go of what it held
        if self._control is not None:
            self._control.close()
            self._control = None


def start_stack(
    redis_url: str,
    log_dir: Path,
    *,
    telegram_url: str | None = None,
    bot_username: str = "uno_harness_bot",
    privacy_mode: bool = True,
    bot_env: dict[str, str] | None = None,
    **service_env: str,
) -> Stack:
    """Empty the Redis database, make the bot in the local Telegram at ``telegram_url`` (or
    in one started here, Telegram's flood limits on), start the engine and the worker with
    :data:`QUICK_GAMES`' pauses and ``service_env``; no bot replica runs yet
    (:meth:`Stack.start_bot`)."""
    service_env = {**QUICK_GAMES, **service_env}
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()
    started: list[ServiceProcess] = []
    try:
        telegram = None
        if telegram_url is None:
            telegram = start_local_telegram(log_dir)
            started.append(telegram)
            telegram_url = telegram.url
        control = TelegramControl(telegram_url)
        try:
            made = control.create_bot(
                username=bot_username, first_name="UNO", privacy_mode=privacy_mode
            )
        finally:
            control.close()
        engine = start_engine(redis_url, log_dir, **service_env)
        started.append(engine)
        worker = start_worker(redis_url, engine.url, log_dir, **service_env)
        started.append(worker)
    except BaseException:
        for proc in reversed(started):
            proc.stop()
        raise
    user = made["user"]
    return Stack(
        redis_url, log_dir, telegram_url, engine, worker, str(made["token"]),
        str(user["username"]), int(user["id"]), dict(bot_env or {}), telegram,
    )  # fmt: skip
