"""services/logs.py: one JSON object per line with the game id as its own field."""

from __future__ import annotations

import json
import logging

import pytest

from services.logs import configure_logging


@pytest.fixture(autouse=True)
def _restore_root_logger() -> object:
    """configure_logging replaces the root handlers; give pytest's back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.NOTSET)


def test_json_lines_carry_the_service_and_the_game_id(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("bot", fmt="json", level="INFO")
    logging.getLogger("uno.test").info("played %s", "R7", extra={"game_id": "g1"})
    line = capsys.readouterr().err.strip().splitlines()[-1]
    entry = json.loads(line)
    assert entry["service"] == "bot"
    assert entry["message"] == "played R7"
    assert entry["game_id"] == "g1"
    assert entry["level"] == "info"


def test_text_lines_show_the_game_id(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("engine", fmt="text", level="INFO")
    logging.getLogger("uno.test").warning("stale", extra={"game_id": "g2"})
    assert "[g2]" in capsys.readouterr().err


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="UNO_LOG_FORMAT"):
        configure_logging("engine", fmt="xml")


def test_http_clients_log_a_request_only_when_debugging(
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure_logging("bot", fmt="text", level="INFO")
    logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/... 200 OK")
    logging.getLogger("httpx").warning("connection reset")
    err = capsys.readouterr().err
    assert "HTTP Request" not in err and "connection reset" in err
    configure_logging("bot", fmt="text", level="DEBUG")
    logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/... 200 OK")
    assert "HTTP Request" in capsys.readouterr().err
