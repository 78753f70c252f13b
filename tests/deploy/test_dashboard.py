"""deploy/grafana/uno.json: a Grafana dashboard whose queries are PromQL over metrics the
services export."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import promql_parser
import pytest
from prometheus_client import REGISTRY, CollectorRegistry

import services.bot.metrics  # noqa: F401  (registers the bot's metrics on the default registry)
from services.engine.metrics import ServiceMetrics
from services.worker.metrics import REGISTRY as WORKER_REGISTRY

REPO = Path(__file__).resolve().parents[2]
DASHBOARD = REPO / "deploy" / "grafana" / "uno.json"
#: The bot's metrics (services/bot/metrics.py): updates, Bot API calls by method and outcome,
#: 429 answers, and the lag from an engine write to its chat message (a histogram).
BOT_METRICS = {
    "uno_bot_updates_total",
    "uno_bot_api_calls_total",
    "uno_bot_retry_after_total",
    "uno_bot_render_lag_seconds",
}
#: What an operator watches; each must be on the dashboard.
WATCHED = {
    "uno_engine_requests_total",
    "uno_engine_request_seconds",
    "uno_worker_timer_lateness_seconds",
    *BOT_METRICS,
}


def family_names(registry: CollectorRegistry) -> set[str]:
    """Metric families of ``registry`` as Prometheus names them (counters with _total)."""
    return {
        family.name + ("_total" if family.type == "counter" else "")
        for family in registry.collect()
    }


def exported_names() -> set[str]:
    """What the services export."""
    bot = {n for n in family_names(REGISTRY) if n.startswith("uno_bot_")}
    return family_names(ServiceMetrics().registry) | family_names(WORKER_REGISTRY) | bot


def queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    found = []
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            found.append(target["expr"])
    return found


def metric_names(expr: str) -> set[str]:
    """The series an expression selects, as families (``_bucket``/``_count``/``_sum`` off)."""
    # Grafana's own variable is not PromQL; any duration stands in for it.
    tree = promql_parser.parse(expr.replace("$__rate_interval", "5m"))
    names: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, promql_parser.VectorSelector) and node.name:
            names.add(re.sub(r"_(bucket|count|sum)$", "", node.name))

    promql_parser.walk(tree, pre_visit=visit)
    return names


def test_the_dashboard_is_a_grafana_dashboard_over_a_chosen_prometheus() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"] and dashboard["panels"]
    (variable,) = dashboard["templating"]["list"]
    assert variable["type"] == "datasource" and variable["query"] == "prometheus"
    for panel in dashboard["panels"]:
        if panel["type"] != "row":
            assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
            assert panel["targets"], panel["title"]


@pytest.mark.parametrize("expr", queries())
def test_each_query_is_promql_over_metrics_that_exist(expr: str) -> None:
    names = metric_names(expr)
    assert names, expr
    assert names <= exported_names(), expr


def test_the_parser_refuses_a_broken_query() -> None:
    with pytest.raises(ValueError):
        metric_names("sum(rate(uno_engine_requests_total[5m])")


def test_every_watched_figure_has_a_panel() -> None:
    shown = set().union(*(metric_names(expr) for expr in queries()))
    assert shown >= WATCHED
