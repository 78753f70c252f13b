"""Process-wide logging set-up shared by every service's entry point.

Each service calls :func:`configure_logging` once at start. Lines are JSON objects
(``UNO_LOG_FORMAT=json``, what a log collector wants) or plain text (``text``, the default
on a developer's machine). A record's ``game_id`` (pass ``extra={"game_id": ...}``) becomes
its own field, so an operator can follow one game across the bot, the engine and the worker.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any

#: ``LogRecord`` attributes that are set by ``logging`` itself, not passed in ``extra``.
_STANDARD_ATTRIBUTES = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys() | {"message", "asctime"}
)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, service and any extras."""

    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "service": self.service,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD_ATTRIBUTES and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """Human-readable lines; a ``game_id`` extra is shown after the logger's name."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s%(game)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        game_id = getattr(record, "game_id", None)
        record.game = f" [{game_id}]" if game_id else ""
        return super().format(record)


#: Libraries whose INFO lines are one per request.
CHATTY_LOGGERS = ("httpx", "httpcore")


def configure_logging(service: str, *, level: str | None = None, fmt: str | None = None) -> None:
    """Send every logger's records to stderr in the chosen format.

    ``level`` defaults to ``UNO_LOG_LEVEL`` (``INFO``), ``fmt`` to ``UNO_LOG_FORMAT``
    (``text``). Calling it again replaces the handler rather than adding a second one.
    """
    level = (level or os.environ.get("UNO_LOG_LEVEL") or "INFO").upper()
    fmt = (fmt or os.environ.get("UNO_LOG_FORMAT") or "text").lower()
    if fmt not in {"json", "text"}:
        raise ValueError(f"UNO_LOG_FORMAT must be 'json' or 'text', not {fmt!r}")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(service) if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # HTTP clients log a line per request at INFO: several per move in the bot, as many
    # as its real messages, at a measurable share of its CPU. They speak from WARNING up
    # unless the service is asked for DEBUG.
    for chatty in CHATTY_LOGGERS:
        logging.getLogger(chatty).setLevel(logging.DEBUG if level == "DEBUG" else logging.WARNING)
