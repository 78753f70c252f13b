"""Prometheus metrics of the worker, served on ``UNO_WORKER_METRICS_PORT`` (0: not served).

The worker runs its tasks in threads of one process (``app.py``), so one registry in this
module counts them all and a plain HTTP server thread exposes it.
"""

from __future__ import annotations

from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server

REGISTRY = CollectorRegistry(auto_describe=True)

TIMER_LATENESS = Histogram(
    "uno_worker_timer_lateness_seconds",
    "From a deadline falling due to its fire finishing (turn timers, UNO windows).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
TIMER_FIRES = Counter(
    "uno_worker_timer_fires_total",
    "Deadline fires by outcome (the engine's answer, or later: it could not be reached).",
    ["outcome"],
    registry=REGISTRY,
)


def serve(port: int, host: str = "0.0.0.0") -> WSGIServer:
    """Serve /metrics on ``host:port`` from a daemon thread; ``shutdown()`` the result."""
    server, _thread = start_http_server(port, addr=host, registry=REGISTRY)
    return server


def record_fire(outcome: str, lateness: float | None) -> None:
    TIMER_FIRES.labels(outcome).inc()
    if lateness is not None:
        TIMER_LATENESS.observe(lateness)
