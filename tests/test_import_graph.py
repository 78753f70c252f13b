"""The import graph of the product (services), the local Telegram (playground) and what
starts and drives them (harness): no circles; the lines between the packages (the product
imports nothing of the harness or the playground; the playground nothing of the harness and
of the product only its logging; the benches nothing of the tests; the presentation nothing
of Telegram, of I/O or of any front; the bot and the Mini App nothing of each other); and the
engine's client loads nothing of the engine service.

A circle (a imports b, b imports a) makes the import order decide what works and hides
which concept rests on which (in the rules package: ``table`` needing ``variant`` needing
``table``).  Every import counts, those made only for type checking or inside a function
too: they are the same dependency, just deferred.  The client's boundary lets the bot and
the worker depend on the client without loading the service's Redis, FastAPI or game-store
code (services/engine/README.md).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RULES = "services.engine.rules"
#: The packages of the tree, the product first; the checks below say which may import which.
PACKAGES = ("services", "playground", "harness")
#: What the playground may import of the product: the process set-up every entry point
#: shares (logging, the start-up heap kept out of full collections), nothing else.
PLAYGROUND_USES = {"services", "services.logs", "services.heap"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The project modules that ``path`` imports, wherever the import statement stands."""
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


def import_graph(*roots: str) -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its file (function bodies too),
    over the modules below ``roots`` (the product, the playground and the harness when none
    are named) and every module of the tree they may import."""
    paths = sorted(p for root in roots or PACKAGES for p in (REPO / root).rglob("*.py"))
    roots_all = (*PACKAGES, "bench", "tests", "tools")
    every = sorted(p for root in roots_all for p in (REPO / root).rglob("*.py"))
    modules = {module_name(p) for p in every} | {"tests", "bench"}
    return {module_name(p): imports_of(p, modules) for p in paths}


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def package_of(module: str) -> str:
    return module.split(".")[0]


def imports_across(graph: dict[str, set[str]], into: set[str]) -> list[tuple[str, str]]:
    """Each (module, imported module) where the imported one is in a package of ``into``."""
    return sorted((m, n) for m, found in graph.items() for n in found if package_of(n) in into)


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


def test_the_packages_import_no_circles() -> None:
    graph = import_graph()
    assert "services.worker.tasks" in graph and "services.engine.app" in graph
    assert "playground.app" in graph and "harness.play" in graph
    assert circles(graph) == []


def test_the_product_imports_nothing_of_the_harness_or_the_playground() -> None:
    """An operator deploys services/ alone (the image holds nothing else): nothing of the
    harness, the playground, the tests, the benches or the development tools."""
    graph = import_graph("services")
    assert imports_across(graph, {"harness", "playground", "tests", "bench", "tools"}) == []
    assert "services.presentation.locales.catalog" in import_graph("tools")["tools.catalog_check"]


def test_the_bot_and_the_mini_app_import_nothing_of_each_other() -> None:
    """The Mini App and the bot are deployed apart (their own images' roles, replicas and
    autoscalers): what both fronts must agree on lives outside both, a move's idempotency
    key and a game id's shape in ``services.move_ids``, the words, cards and screens in
    ``services.presentation``, who speaks which language in ``services.language_preferences``."""
    graph = import_graph("services")
    bot = {m: found for m, found in graph.items() if in_package(m, "services.bot")}
    webapp = {m: found for m, found in graph.items() if in_package(m, "services.webapp")}
    assert "services.bot.publisher" in bot and "services.webapp.app" in webapp
    assert [
        (m, n) for m, found in webapp.items() for n in found if in_package(n, "services.bot")
    ] == []
    assert [
        (m, n) for m, found in bot.items() for n in found if in_package(n, "services.webapp")
    ] == []
    assert "services.move_ids" in webapp["services.webapp.app"]
    assert "services.move_ids" in graph["services.bot.play"]
    assert "services.language_preferences" in webapp["services.webapp.words"]


def test_the_playground_imports_nothing_of_the_harness_and_only_the_products_logging() -> None:
    """The local Telegram is a product of its own: it knows Telegram, not the UNO bot."""
    graph = import_graph("playground")
    assert imports_across(graph, {"harness", "tests", "bench"}) == []
    used = {n for _, n in imports_across(graph, {"services"})}
    assert used <= PLAYGROUND_USES, used - PLAYGROUND_USES


def test_the_harness_and_the_benches_import_nothing_of_the_tests() -> None:
    """The harness serves the tests, the benches and the playground alike; the tests' own
    helpers (tests/helpers) are theirs alone."""
    graph = import_graph("harness", "bench")
    assert imports_across(graph, {"tests"}) == []
    assert "harness.stack" in graph["bench.telegram_load"]  # the walk reaches the benches


def test_the_tests_import_their_helpers_as_one_package() -> None:
    """No test module imports another file by its bare name (``from conftest import``): a
    helper is ``tests.helpers.<name>``."""
    test_modules = {p.stem for p in (REPO / "tests").rglob("*.py")}
    bare = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            bare += [f"{path.relative_to(REPO)}: {n}" for n in names if n in test_modules]
    assert bare == []


def test_the_graph_sees_the_imports_it_must() -> None:
    """The walk itself works: it finds imports of each kind the rules package uses."""
    graph = import_graph()
    assert f"{RULES}.variant" in graph[f"{RULES}.table"]  # from .variant import ...
    assert f"{RULES}.table" in graph[f"{RULES}.variants.flip"]  # from ..table import ...
    assert f"{RULES}.variants" in graph[f"{RULES}.engine"]  # from .variants import ...
    assert f"{RULES}.state" in graph[f"{RULES}.variant"]  # under TYPE_CHECKING


def test_a_circle_is_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]


def test_the_client_loads_nothing_of_the_service() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, services.engine.client; print(*sys.modules)"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    engine = sorted(m for m in loaded if m.startswith("services.engine"))
    allowed = (
        "services.engine.client",
        "services.engine.views",
        "services.engine.wire",
        "services.engine.rules",
    )
    assert [m for m in engine if m != "services.engine" and not m.startswith(allowed)] == []
    assert not {"fastapi", "starlette", "redis", "uvicorn"} & {m.split(".")[0] for m in loaded}


SCREENS = "services.presentation.screens"
#: What the screens may reach of the project: the words, cards and callback data (with the
#: game id check it uses), and the engine's pure door for the fronts (``services.engine.views``:
#: the views' types, the refusals, the variants' facts and the scoring).
#: Not Telegram, not Redis, not the records: a page that shows the same screens can use them.
SCREENS_REACH = (
    SCREENS,
    "services.presentation.callbacks",
    "services.presentation.cards",
    "services.presentation.i18n",
    "services.presentation.locales.bidi",
    "services.presentation.locales.catalog",
    "services.presentation.locales.glossary",
    "services.presentation.locales.numerals",
    "services.presentation.rich",
    "services.engine.views",
    "services.move_ids",
)
#: The other modules they may import: pure parts of the standard library, and Babel's
#: number formats; the catalogs alone read files (the translations, once).
SCREENS_OTHERS = {"__future__", "collections", "dataclasses", "enum", "functools", "html", "re"}
SCREENS_OTHERS |= {"string"}
SCREENS_OTHERS |= {"typing", "unicodedata", "babel"}
# Of urllib only its string building (a share link's query) is pure; urllib.request is not.
SCREENS_OTHERS |= {"urllib.parse"}
# Packages whose pure and impure halves are told apart by their submodule.
SPLIT_BY_SUBMODULE = {"urllib"}
READS_CATALOGS = {"services.presentation.locales.catalog": {"gettext", "pathlib"}}


def outside_imports(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports, project ones included."""
    return top_level_imports(path.read_text(encoding="utf-8"))


def top_level_imports(source: str) -> set[str]:
    """The top-level names of every module ``source`` imports, wherever the statement
    stands (absolute imports: a relative one stays in its package)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(top_level_name(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(top_level_name(node.module))
    return found


def top_level_name(module: str) -> str:
    """``module``'s top-level package, or its first two parts for a package in
    ``SPLIT_BY_SUBMODULE`` (``urllib.parse`` is not ``urllib.request``)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] in SPLIT_BY_SUBMODULE else parts[0]


def reached_from(graph: dict[str, set[str]], start: str, stop: str) -> set[str]:
    """Every project module ``start`` reaches through imports, not walking past ``stop``."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        if module != stop:
            todo.extend(graph.get(module, ()))
    return seen


def test_the_screens_are_pure() -> None:
    """Screens take views in and give text and plain keyboards out: nothing of Telegram
    (python-telegram-bot), and nothing that does I/O, anywhere they reach before the
    engine's views (pure, but built on pydantic and the rules library)."""
    graph = import_graph()
    screens = [m for m in graph if m == SCREENS or m.startswith(f"{SCREENS}.")]
    assert f"{SCREENS}.table" in screens and f"{SCREENS}.event_lines" in screens
    for screen in screens:
        reached = reached_from(graph, screen, "services.engine.views")
        assert not [m for m in reached if not m.startswith(SCREENS_REACH)], screen
        for module in reached - {"services.engine.views"}:
            path = REPO / (module.replace(".", "/") + ".py")
            if not path.exists():
                path = REPO / module.replace(".", "/") / "__init__.py"
            allowed = SCREENS_OTHERS | READS_CATALOGS.get(module, set()) | {"services"}
            assert outside_imports(path) <= allowed, (module, outside_imports(path) - allowed)


PRESENTATION = "services.presentation"
#: What the presentation may import of the rest of the product: the engine's views, the one
#: door to what a front reads of the engine without calling it (the views' types, the
#: refusals the client raises, the scoring and the variants' facts of the rules), and a game
#: id's shape. No front: not the bot, not the Mini App, not the worker; not the records, not
#: the engine's client (it carries HTTP) or service.
PRESENTATION_READS = ("services.engine.views", "services.move_ids")
#: Telegram's library, and every library that does I/O: none is the presentation's.
TELEGRAM_AND_IO = {"telegram", "redis", "httpx", "fastapi", "starlette", "sqlalchemy"}
TELEGRAM_AND_IO |= {"sqlmodel", "celery", "aiohttp", "uvicorn", "psycopg", "requests"}
TELEGRAM_AND_IO |= {"urllib.request"}


def presentation_modules(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    found = {m: imported for m, imported in graph.items() if in_package(m, PRESENTATION)}
    assert {f"{PRESENTATION}.rich", f"{PRESENTATION}.screens.table"} <= found.keys()
    return found


def module_path(module: str) -> Path:
    path = REPO / (module.replace(".", "/") + ".py")
    return path if path.exists() else REPO / module.replace(".", "/") / "__init__.py"


def test_the_presentation_imports_nothing_of_any_front() -> None:
    """Every front reads the presentation; it reads none of them, only the engine's views
    for what it draws."""
    presentation = presentation_modules(import_graph("services"))
    beyond = [
        (m, n)
        for m, found in presentation.items()
        for n in found
        if not in_package(n, PRESENTATION) and not n.startswith(PRESENTATION_READS)
    ]
    assert beyond == []


def test_the_presentation_imports_nothing_of_telegram_or_io() -> None:
    """No module of the presentation imports python-telegram-bot or a library that does
    I/O (Redis, HTTP, web frameworks, databases, the task queue)."""
    presentation = presentation_modules(import_graph("services"))
    found = {
        m: sorted(outside_imports(module_path(m)) & TELEGRAM_AND_IO)
        for m in presentation
        if outside_imports(module_path(m)) & TELEGRAM_AND_IO
    }
    assert found == {}


def test_telegram_and_io_imports_are_found() -> None:
    """The search above works: it finds such an import wherever it stands."""
    source = (
        "import redis.asyncio\nfrom telegram import Bot\nimport html\n"
        "def f():\n    from sqlmodel import Session\n"
        "from urllib.parse import urlencode\nimport urllib.request\n"
    )
    found = top_level_imports(source)
    assert found & TELEGRAM_AND_IO == {"redis", "telegram", "sqlmodel", "urllib.request"}
    assert "urllib.parse" in found and "urllib" not in found


def test_loading_the_presentation_loads_no_front_and_nothing_of_telegram_or_io() -> None:
    """Loading every module of the presentation loads no front, not the engine's client,
    and none of those libraries (HTTP included: the views' types come through a pure
    module, ``services.engine.views``)."""
    modules = sorted(presentation_modules(import_graph("services")))
    loaded = subprocess.run(
        [sys.executable, "-c", f"import sys; import {', '.join(modules)}; print(*sys.modules)"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    fronts = ("services.bot", "services.webapp", "services.worker", "services.records")
    assert [m for m in loaded if m.startswith(fronts)] == []
    assert "services.engine.client" not in loaded
    assert {m.split(".")[0] for m in loaded} & TELEGRAM_AND_IO == set()


#: The one door hidden events leave through (services/engine/README.md "Events"): the rules'
#: ``events_for`` (and ``addressee``); and the Event itself, which writes its ``to`` into
#: its JSON form.
EVENT_DOOR = {"services/engine/rules/view.py", "services/engine/rules/events.py"}
#: The event log's raw decoders (every event, private ones too): the service's store reads
#: them for its per-game answers, which it redacts; the client's ``stream_entry_events``
#: hands the fronts the public events alone.
RAW_LOG_DECODERS = {"decode_entry", "decode_events"}
RAW_LOG_READERS = {"services/engine/store.py", "services/engine/client.py"}


def reads_of_to(source: str) -> list[int]:
    """The lines of ``source`` that read a ``to`` field -- ``e["to"]``, ``"to" in e``,
    ``e.get("to")``, ``getattr(e, "to")``, ``e.to`` -- other than a challenge's reveal's
    (``state.reveal.to``: whom a hand is shown to, part of the state, not an event)."""

    def of_reveal(target: ast.expr) -> bool:
        return (isinstance(target, ast.Name) and target.id == "reveal") or (
            isinstance(target, ast.Attribute) and target.attr == "reveal"
        )

    def is_to(node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) and node.value == "to"

    lines = []
    for node in ast.walk(ast.parse(source)):
        read = False
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            read = is_to(node.slice) and not of_reveal(node.value)
        elif isinstance(node, ast.Compare):
            read = is_to(node.left) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
        elif isinstance(node, ast.Call) and node.args and is_to(node.args[-1]):
            func = node.func
            read = (isinstance(func, ast.Attribute) and func.attr in ("get", "pop")) or (
                isinstance(func, ast.Name) and func.id == "getattr"
            )
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            read = node.attr == "to" and not of_reveal(node.value)
        if read:
            lines.append(node.lineno)
    return lines


def test_the_reads_of_to_are_found() -> None:
    """The search below works: it finds each way of reading an event's ``to``, and none
    where there is none."""
    found = [
        "keep = [e for e in events if 'to' not in e]",
        "mine = e['to'] == seat",
        "mine = e.get('to') == seat",
        "mine = event.to is None",
        "mine = getattr(event, 'to') == seat",
        "mine = 'to' in event",
    ]
    assert [reads_of_to(line) for line in found] == [[1]] * len(found)
    not_reads = ["out['to'] = seat", "Event(t, to=seat)", "x = state.reveal.to", "y = reveal['to']"]
    assert [reads_of_to(line) for line in not_reads] == [[]] * len(not_reads)


def test_nothing_but_the_one_door_looks_at_whom_an_event_is_for() -> None:
    """A private event (``to``: a drawn card, a challenged hand) leaves the engine through
    the rules' ``events_for`` alone: no front, no route, no reader of the event log sorts
    events by their ``to`` itself, so none can leak one by forgetting to."""
    readers = {}
    for root in (*PACKAGES, "bench"):
        for path in sorted((REPO / root).rglob("*.py")):
            name = str(path.relative_to(REPO))
            lines = reads_of_to(path.read_text(encoding="utf-8"))
            if lines and name not in EVENT_DOOR:
                readers[name] = lines
    assert readers == {}


def test_the_product_reads_the_event_log_through_the_clients_door() -> None:
    """Outside the engine's store and client, no module of the product decodes an entry of
    the event log itself: it reads the public events from ``stream_entry_events``."""
    decoding = []
    for path in sorted((REPO / "services").rglob("*.py")):
        name = str(path.relative_to(REPO))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            used = (
                {a.name for a in node.names}
                if isinstance(node, ast.ImportFrom)
                else {node.attr}
                if isinstance(node, ast.Attribute)
                else set()
            )
            if used & RAW_LOG_DECODERS and name not in RAW_LOG_READERS:
                decoding.append(f"{name}:{node.lineno}")
    assert decoding == []


def test_each_shared_concept_is_written_once() -> None:
    """The token bucket both fronts meter with is one module outside both fronts' packages,
    and the deadline board's Redis keys are named once, for the engine that writes them and
    the worker that drains them."""
    graph = import_graph("services")
    assert "services.token_bucket" in graph["services.bot.ratelimit"]
    assert "services.token_bucket" in graph["services.webapp.flood"]
    keys = "services.engine.wire.deadline_keys"
    assert keys in graph["services.engine.store"] and keys in graph["services.worker.timers"]
    scripts = [
        p.relative_to(REPO).as_posix()
        for p in sorted((REPO / "services").rglob("*.py"))
        if "redis.call('TIME')" in p.read_text(encoding="utf-8")
        and "tolerance" in p.read_text(encoding="utf-8")
    ]
    assert scripts == ["services/token_bucket.py"]
    named = [
        p.relative_to(REPO).as_posix()
        for p in sorted((REPO / "services").rglob("*.py"))
        if '= "uno:deadlines' in p.read_text(encoding="utf-8")
    ]
    assert named == ["services/engine/wire/deadline_keys.py"]
