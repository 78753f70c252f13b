"""The bot's Prometheus metrics (served with the health probes by ``health.py``)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

UPDATES = Counter("uno_bot_updates_total", "Updates handled, by kind", ["kind"])
API_CALLS = Counter(
    "uno_bot_api_calls_total", "Bot API calls, by method and outcome", ["method", "outcome"]
)
RETRY_AFTER = Counter(
    "uno_bot_retry_after_total", "429 Too Many Requests answers, by method", ["method"]
)
RATE_WAIT = Histogram(
    "uno_bot_rate_wait_seconds",
    "Time a call waited for the shared rate budget",
    buckets=(0.001, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30),
)
RENDER_LAG = Histogram(
    "uno_bot_render_lag_seconds",
    "From a write entering the event log to its game shown in the chat",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
ENGINE_ERRORS = Counter(
    "uno_bot_engine_unavailable_total", "Engine requests that found it unreachable or failing"
)
