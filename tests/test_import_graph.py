"""The services' import graph: no circles, and the engine's client loads nothing of the
engine service.

A circle (a imports b, b imports a) makes the import order decide what works; the
client's boundary lets the bot and the worker depend on the client without loading the
service's Redis, FastAPI or game-store code (services/engine/README.md).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: services/engine/rules/ has its own owner and tests; its graph is checked there.
SKIPPED = ("services.engine.rules",)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its file (function bodies too)."""
    files = {module_name(p): p for p in (REPO / "services").rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        if name.startswith(SKIPPED):
            continue
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in files else node.module)
        graph[name] = {t for t in targets if t in files and t != name and not t.startswith(SKIPPED)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_services_import_no_circles() -> None:
    graph = import_graph()
    assert "services.worker.tasks" in graph and "services.engine.app" in graph
    assert circles(graph) == []


def test_a_circle_is_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_client_loads_nothing_of_the_service() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, services.engine.client; print(*sys.modules)"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    engine = sorted(m for m in loaded if m.startswith("services.engine"))
    allowed = ("services.engine.client", "services.engine.wire", "services.engine.rules")
    assert [m for m in engine if m != "services.engine" and not m.startswith(allowed)] == []
    assert not {"fastapi", "starlette", "redis", "uvicorn"} & {m.split(".")[0] for m in loaded}
