"""Runtime settings: the one place that reads the environment.

Every setting is an ``UNO_``-prefixed environment variable (``UNO_REDIS_URL``,
``UNO_ENGINE_TOKEN``, ...). Services call :func:`get_settings`; tests build a
:class:`Settings` directly with the values they need.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

#: Development-only shared secret between the engine and its clients, accepted only with
#: ``UNO_DEV_MODE`` on: set ``UNO_ENGINE_TOKEN`` to a long random value everywhere else.
DEV_ENGINE_TOKEN = "dev-token-change-me"


class InsecureToken(ValueError):
    """The engine token is empty, or the development token outside development mode."""


TELEGRAM_BOT_API_URL = "https://api.telegram.org/bot"


class Settings(BaseSettings):
    """Configuration shared by the engine service, the worker and the bot."""

    model_config = SettingsConfigDict(env_prefix="UNO_", extra="ignore", frozen=True)

    redis_url: str = Field(default=DEFAULT_REDIS_URL, description="Redis holding live game state.")
    engine_url: str = Field(
        default="http://127.0.0.1:8080", description="Base URL of the engine service."
    )
    engine_token: SecretStr = Field(
        default=SecretStr(DEV_ENGINE_TOKEN),
        description="Bearer token the engine requires from the bot and the worker.",
    )
    dev_mode: bool = Field(
        default=False,
        description="Development mode: the engine and its clients accept the development "
        "token (DEV_ENGINE_TOKEN). Tests, `make play` and `make test` turn it on; images and "
        "docker-compose never do.",
    )
    enable_test_endpoints: bool = Field(
        default=False, description="Expose the engine's scenario set-up endpoints (tests only)."
    )
    game_ttl_seconds: int = Field(
        default=86_400, gt=0, description="A game left untouched this long expires from Redis."
    )
    event_shards: int = Field(
        default=16,
        ge=1,
        description="Streams of the event log (uno:eventlog:{0..n-1}); a game's writes all go "
        "to one of them. Fixed for a deployment: changing it re-maps games to other streams "
        "(a reader then misses what the old ones hold).",
    )
    event_log_seconds: int = Field(
        default=120,
        ge=1,
        description="The event log keeps every write of the last this many seconds (one entry "
        "per write with all its events), up to its cap: a reader (the bot) away for less "
        "misses nothing. Memory follows the games' pace: at a write every 5 s a live game "
        "keeps 24 entries, some 1.3 KB.",
    )
    event_log_maxlen: int = Field(
        default=10_000,
        ge=1,
        description="The cap of each event log stream, in entries (trimmed with MAXLEN ~): "
        "16 x 10,000 entries of some 53 B bound the log at about 8.6 MB, whatever the load; "
        "past it the log keeps less than event_log_seconds.",
    )
    turn_seconds: int = Field(default=60, gt=0, description="Time a player has for a turn.")
    uno_window_seconds: int = Field(
        default=8,
        gt=0,
        description="Longest a UNO window stays open when no other player acts: the time to "
        "catch a player who did not call (RULES.md §2 'The catch window'); a chat's own "
        "setting wins.",
    )
    away_pause_seconds: float = Field(
        default=2.0, ge=0, description="Pause before acting for a player who timed out."
    )
    turn_nudge_seconds: float = Field(
        default=15,
        ge=0,
        description="A human player who has not acted this long into their turn (half the "
        "turn time, if sooner) is told once, in their private chat (0: never). The engine "
        "sets the reminder's deadline, the worker finds it due, the bot sends it.",
    )
    worker_poll_interval: float = Field(
        default=0.1,
        gt=0,
        description="Longest the worker's deadline drainer sleeps between two looks at Redis.",
    )
    timer_lease_seconds: float = Field(
        default=10.0,
        gt=0,
        description="A claimed deadline whose task has not finished within this is claimed again.",
    )
    timer_claim_batch: int = Field(
        default=200, gt=0, description="Most deadlines the drainer claims in one Redis call."
    )
    timer_max_attempts: int = Field(
        default=20,
        gt=0,
        description="Claims of one deadline before it is set aside in uno:deadlines:dead "
        "(leases double per claim up to 30x: with the defaults, about 80 minutes of failures).",
    )
    worker_metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="Port on which each worker serves Prometheus /metrics (timer lateness, "
        "fires by outcome); 0 serves none.",
    )
    stand_in_policy: str = Field(
        default="strong", description="AI policy that decides for a player who is out of time."
    )
    database_url: str = Field(
        default="sqlite:///./uno.db",
        description=(
            "SQLAlchemy URL for lasting records (statistics, chat preferences); in production "
            "e.g. postgresql+psycopg://postgres@127.0.0.1:5432/uno."
        ),
    )
    record_results: bool = Field(
        default=True,
        description="Whether this worker records finished games, results and ratings from the "
        "event log into database_url (services/worker/records.py).",
    )
    archive_days: int = Field(
        default=365,
        ge=1,
        description="How long a finished game's archive (its seeds and moves, docs/EXPORT.md) "
        "is kept in database_url; the worker purges older ones hourly.",
    )
    telegram_token: SecretStr | None = Field(
        default=None, description="Bot token from @BotFather; only the bot needs it."
    )
    bot_api_url: str = Field(
        default=TELEGRAM_BOT_API_URL,
        description="Bot API base URL (python-telegram-bot's base_url); point it at a local "
        "Bot API server to test against one.",
    )
    broker_url: str = Field(
        default="",
        description="Celery broker URL; empty means the same Redis as redis_url.",
    )
    # -- the bot (services/bot/README.md) --
    bot_webhook_url: str = Field(
        default="",
        description="Public HTTPS URL Telegram posts updates to; empty: the bot polls. "
        "setWebhook is a deploy step (python -m services.deploy.set_webhook), not done by "
        "replicas.",
    )
    bot_webhook_secret: SecretStr | None = Field(
        default=None,
        description="Secret Telegram sends in X-Telegram-Bot-Api-Secret-Token; required "
        "with a webhook.",
    )
    bot_http_host: str = Field(
        default="0.0.0.0", description="Where the bot's HTTP server (webhook, probes) listens."
    )
    bot_http_port: int = Field(
        default=8090,
        ge=0,
        le=65535,
        description="Port of the bot's HTTP server: /telegram (webhook), /healthz, /readyz; "
        "0 picks a free one.",
    )
    bot_metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="Port on which the bot serves Prometheus /metrics, apart from its HTTP "
        "server (which Telegram's webhook calls reach): only the monitoring may reach it; "
        "0 serves none.",
    )
    bot_replica: str = Field(
        default="",
        description="This replica's name in the event log's consumer group; default hostname-pid.",
    )
    bot_group_messages_per_minute: float = Field(
        default=20,
        gt=0,
        description="Telegram's limit of messages (edits too) per group per minute, kept for "
        "the token across replicas.",
    )
    bot_private_messages_per_second: float = Field(
        default=1, gt=0, description="Telegram's limit per private chat per second."
    )
    bot_messages_per_second: float = Field(
        default=30, gt=0, description="Telegram's overall limit for the token per second."
    )
    bot_user_updates_per_second: float = Field(
        default=2,
        gt=0,
        description="One person's presses and commands the bot takes, per second, after a "
        "burst of bot_user_update_burst; past it a flood is answered with one toast.",
    )
    bot_user_update_burst: int = Field(
        default=8, gt=0, description="Presses and commands one person may send at once."
    )
    bot_table_repost_after: int = Field(
        default=2,
        ge=0,
        description="Messages below the group's table after which its next write posts it "
        "anew at the bottom instead of editing it up the chat (the same one write): 2 keeps "
        "it among the chat's last three messages.",
    )
    # [decision] 30 s: with every seated human following the game in the Mini App, the
    # group's table is for the rest of the chat, for whom a table half a minute behind is
    # still the game; at a move every 10 s a game that is a third of a write a move (0.33
    # Bot API calls), so one token's 30 calls a second carry some 90 app moves a second
    # instead of 30, and a group's 20 writes a minute are left to what must go out now (a
    # person closing the app, a round's end).
    bot_quiet_table_seconds: float = Field(
        default=30.0,
        ge=0,
        description="While every seated human of a game has the Mini App open, the group's "
        "table is written at most once in this many seconds (and when one of them closes "
        "it, and at a round's or the game's end) instead of at every move; 0: at every "
        "move.",
    )
    bot_claim_idle_ms: int = Field(
        default=10_000,
        gt=0,
        description="An event log entry another replica took and has not acknowledged within "
        "this is rendered by this one.",
    )
    # -- the Mini App (services/webapp/README.md) --
    webapp_http_host: str = Field(
        default="0.0.0.0", description="Where the Mini App service listens."
    )
    webapp_http_port: int = Field(
        default=8070, ge=0, le=65535, description="Port of the Mini App service."
    )
    webapp_metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="Port on which the Mini App serves Prometheus /metrics, apart from its "
        "public port: only the monitoring may reach it; 0 serves none.",
    )
    webapp_public_url: str = Field(
        default="",
        description="The Mini App's public HTTPS URL, as registered with @BotFather (the "
        "private hand's web_app button opens it with ?game=<game id>); empty: no Mini App.",
    )
    webapp_short_name: str = Field(
        default="table",
        description="The Mini App's short name with @BotFather: the group's direct link is "
        "https://t.me/<bot>/<short name>?startapp=<game id>.",
    )
    webapp_replay_short_name: str = Field(
        default="replay",
        description="The short name with @BotFather of the replay page, an app of its own "
        "whose URL is the Mini App's public URL followed by replay (https://<host>/replay): "
        "the Replay button is https://t.me/<bot>/<short name>?startapp=<game id>.",
    )
    webapp_replay_archive: bool = Field(
        default=False,
        description="Whether the Mini App reads the records at database_url for the replay of "
        "a game the engine no longer holds (it holds a finished game a day); off: such a "
        "replay is 404.",
    )
    webapp_init_data_seconds: int = Field(
        default=86_400,
        gt=0,
        description="The oldest initData (by its auth_date) the Mini App accepts.",
    )
    webapp_member_cache_seconds: float = Field(
        default=30.0,
        ge=0,
        description="How long a replica trusts one getChatMember answer for the Mini App.",
    )
    webapp_moves_per_second: float = Field(
        default=4.0, gt=0, description="Moves one person may send the Mini App per second."
    )
    webapp_move_burst: int = Field(
        default=6, gt=0, description="Moves one person may send the Mini App at once."
    )
    webapp_stream_ticket_seconds: int = Field(
        default=120,
        gt=0,
        description="How long a Mini App stream ticket opens its stream (once). The page "
        "opens the stream the moment it has the ticket and asks for a new one to reconnect: "
        "two minutes cover a slow phone network, and a URL a proxy logged is spent by then.",
    )
    webapp_streams_per_person: int = Field(
        default=8,
        gt=0,
        description="Table streams one person may hold open at once, all replicas together: "
        "the table on a phone and a desktop for three games at once is six, and two more "
        "cover a page reconnecting before the server has noticed its old connection gone.",
    )
    webapp_streams_per_game: int = Field(
        default=200,
        gt=0,
        description="Table streams one game may have open at once, all replicas together: "
        "its ten seats on two devices each and 180 watchers; a fifth of the 1,000 streams a "
        "replica is sized for, so one crowd cannot take a replica's room from the other tables.",
    )
    webapp_stream_lease_seconds: float = Field(
        default=45.0,
        ge=1,
        description="How long a Mini App stream's place outlives its replica: the replica "
        "renews its streams' leases every third of this, so a live stream keeps its place "
        "through two missed renewals, and a crashed replica's places come back within it.",
    )

    @model_validator(mode="before")
    @classmethod
    def _broker_defaults_to_redis(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("broker_url"):
            return {**data, "broker_url": data.get("redis_url") or DEFAULT_REDIS_URL}
        return data

    @property
    def bot_api_file_url(self) -> str:
        """File download base URL matching :attr:`bot_api_url` (``.../bot`` -> ``.../file/bot``)."""
        base = self.bot_api_url.rstrip("/")
        if base.endswith("/bot"):
            return base[: -len("bot")] + "file/bot"
        return base + "/file"

    @property
    def engine_token_is_default(self) -> bool:
        """True while the development token is in use."""
        return self.engine_token.get_secret_value() == DEV_ENGINE_TOKEN

    def require_engine_token(self) -> str:
        """The engine token, for a service that serves or sends it; raises ``InsecureToken``
        when it is empty, or the development token while development mode is off."""
        token = self.engine_token.get_secret_value()
        if not token.strip():
            raise InsecureToken("UNO_ENGINE_TOKEN is empty; set it to a long random value")
        if token == DEV_ENGINE_TOKEN and not self.dev_mode:
            raise InsecureToken(
                "UNO_ENGINE_TOKEN is the development token; set it to a long random value "
                "(or UNO_DEV_MODE=1 on a developer's machine)"
            )
        return token


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read from the environment once."""
    return Settings()
