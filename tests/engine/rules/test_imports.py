"""The rules package's modules import one another without a circle.

A circle (``table`` needing ``variant`` needing ``table``) makes the import order matter and
hides which concept rests on which.  Every import counts, those made only for type checking
too: they are the same dependency, just deferred.
"""

from __future__ import annotations

import ast
from pathlib import Path

import services.engine.rules as rules_package

ROOT = Path(rules_package.__file__).parent
PACKAGE = rules_package.__name__


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports, wherever the import statement stands."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    paths = sorted(ROOT.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) for p in paths}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle found by a depth-first walk (each reported once per back edge)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_the_graph_sees_the_imports_it_must() -> None:
    """The walk itself works: it finds imports of each kind the package uses."""
    graph = import_graph()
    rules = PACKAGE
    assert f"{rules}.variant" in graph[f"{rules}.table"]  # from .variant import ...
    assert f"{rules}.table" in graph[f"{rules}.variants.flip"]  # from ..table import ...
    assert f"{rules}.variants" in graph[f"{rules}.engine"]  # from .variants import ...
    assert f"{rules}.state" in graph[f"{rules}.variant"]  # under TYPE_CHECKING
    assert circles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]


def test_the_rules_package_has_no_import_circle() -> None:
    assert circles(import_graph()) == []
