"""Prometheus metrics of the engine service (served at /metrics).

One registry per app instance, so tests that build several apps never collide. Requests
are labelled by route template (``/v1/games/{game_id}/actions``), never by raw path, so a
flood of unknown ids cannot grow the label set.
"""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_TYPE_LATEST", "MetricsMiddleware", "ServiceMetrics"]

_LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class ServiceMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "uno_engine_requests_total",
            "HTTP requests by route template, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "uno_engine_request_seconds",
            "HTTP request latency by route template.",
            ["route"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.actions = Counter(
            "uno_engine_actions_total",
            "Actions applied, by who took them (player, stand_in, system).",
            ["by"],
            registry=self.registry,
        )
        self.rejected = Counter(
            "uno_engine_actions_rejected_total",
            "Actions the rules refused, by the engine's reason code.",
            ["reason"],
            registry=self.registry,
        )
        self.stale = Counter(
            "uno_engine_stale_total",
            "Writes refused because the game had moved on (409).",
            registry=self.registry,
        )
        self.duplicates = Counter(
            "uno_engine_duplicate_actions_total",
            "Repeated action ids answered with the first result.",
            registry=self.registry,
        )
        self.games_created = Counter(
            "uno_engine_games_created_total", "Games created.", registry=self.registry
        )

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class MetricsMiddleware:
    """Pure ASGI middleware (cheaper than BaseHTTPMiddleware): counts and times requests."""

    def __init__(self, app: ASGIApp, metrics: ServiceMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            route: Any = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            self.metrics.requests.labels(template, scope.get("method", ""), str(status)).inc()
            self.metrics.latency.labels(template).observe(time.perf_counter() - start)
