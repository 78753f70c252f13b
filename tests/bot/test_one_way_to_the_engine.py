"""Every call the bot makes to the engine goes through ``engine_calls.call_engine`` (its retries
when the engine is unreachable, all within the deadline a press allows): no module of the
bot calls a method of the engine's client bare."""

from __future__ import annotations

import ast
from pathlib import Path

from services.engine.client import EngineClient

BOT = Path(__file__).resolve().parents[2] / "services" / "bot"
#: The client's requests to the engine service.
REQUESTS = {m for m in vars(EngineClient) if not m.startswith("_")}
#: Not requests to wrap: the readiness probe answers for this instant (never retried), and
#: closing the client at shutdown asks the engine nothing.
NOT_WRAPPED = {"ready", "aclose", "from_settings"}


def _is_call_engine(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "call_engine"
    )


def bare_engine_calls(source: str) -> list[tuple[int, str]]:
    """Each (line, method) where ``source`` reaches a method of the engine's client
    (``engine.x``, ``uno.engine.x``) other than inside ``call_engine(...)``'s argument, or
    inside a local function that is only ever run from there."""
    tree = ast.parse(source)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node

    def inside_call_engine(node: ast.AST) -> bool:
        while node in parents:
            node = parents[node]
            if _is_call_engine(node):
                return True
        return False

    def function_of(node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        while node in parents:
            node = parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return node
        return None

    def wrapped(node: ast.AST) -> bool:
        if inside_call_engine(node):
            return True
        function = function_of(node)
        if function is None:
            return False
        uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == function.name]
        return bool(uses) and all(inside_call_engine(n) for n in uses)

    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr in REQUESTS - NOT_WRAPPED):
            continue
        receiver = node.value
        is_engine = (isinstance(receiver, ast.Name) and receiver.id == "engine") or (
            isinstance(receiver, ast.Attribute) and receiver.attr == "engine"
        )
        if is_engine and not wrapped(node):
            found.append((node.lineno, node.attr))
    return sorted(found)


def test_every_engine_call_goes_through_call_engine() -> None:
    modules = sorted(BOT.rglob("*.py"))
    assert BOT / "lobby.py" in modules and BOT / "play.py" in modules
    found = {
        f"{p.name}:{line}": method
        for p in modules
        for line, method in bare_engine_calls(p.read_text(encoding="utf-8"))
    }
    assert found == {}


def test_a_bare_engine_call_is_found() -> None:
    source = (
        "async def handler(context, uno):\n"
        "    await uno.engine.game('g')\n"
        "    await call_engine(lambda: uno.engine.join('g', 1, 'A'))\n"
        "    await call_engine(partial(uno.engine.leave, 'g', 1))\n"
        "    engine = uno.engine\n"
        "    async def as_host():\n"
        "        return await engine.start('g', 1)\n"
        "    await call_engine(as_host)\n"
        "    async def sometimes():\n"
        "        return await engine.end('g', 1)\n"
        "    await call_engine(sometimes)\n"
        "    await sometimes()\n"
        "    await uno.engine.ready()\n"
        "    await self.engine.user_stats(1)\n"
    )
    assert bare_engine_calls(source) == [(2, "game"), (10, "end")]
