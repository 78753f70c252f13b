"""The Mini App service's Prometheus metrics (``/metrics`` on ``UNO_WEBAPP_METRICS_PORT``)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

CONNECTIONS = Gauge("uno_webapp_connections", "Live table streams on this replica")
PUSHES = Counter("uno_webapp_pushes_total", "Table updates sent to viewers")
PUSH_LAG = Histogram(
    "uno_webapp_push_seconds",
    "From a viewer woken by the event log to its update sent",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
)
MOVES = Counter("uno_webapp_moves_total", "Moves sent to the engine, by outcome", ["outcome"])
REFUSED = Counter("uno_webapp_refused_total", "Requests refused, by reason", ["reason"])
VIEW_REQUESTS = Counter(
    "uno_webapp_engine_view_requests",
    "Requests to the engine for table views (one per game and version for all its viewers)",
)
