"""The fronts name no variant: every fact of a variant, its words' message ids included, is
the rules library's data (``services/engine/rules/variants/``), which the fronts read through
the engine's client. A new variant then touches that package and the catalogs alone.

A name counts where the code can act on it: an identifier, or a word of a string that is not
a docstring (``"no_mercy"``, ``"/top flip"``); in the page's files, any word of the text.
Prose (comments, docstrings, "Flip's dark side") may speak of the variants."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from services.engine.rules import VARIANTS

REPO = Path(__file__).resolve().parents[1]
FRONTS = ("services/bot", "services/webapp")
#: The page's own files: text where a variant's name would be a fact (a catalog's ``*.po``
#: is words, and has none of these suffixes).
PAGE_SUFFIXES = {".js", ".html", ".css"}
#: Telegram's own script, vendored as it is published.
VENDORED = {"services/webapp/static/telegram-web-app.js"}

NAMED = re.compile(r"\b(?:" + "|".join(sorted(VARIANTS)) + r")\b")


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' nodes in ``tree``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def names_in_python(source: str) -> list[tuple[int, str]]:
    """Each (line, variant name) an identifier or a string of ``source`` holds."""
    tree = ast.parse(source)
    skipped = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = [node.name]
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            words = [node.arg]
        elif isinstance(node, ast.alias):
            words = [node.asname or node.name]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = [] if id(node) in skipped else [node.value]
        line = getattr(node, "lineno", 0)
        found += [(line, m) for word in words for m in NAMED.findall(word)]
    return found


def names_in_text(text: str) -> list[tuple[int, str]]:
    return [(n, m) for n, line in enumerate(text.splitlines(), 1) for m in NAMED.findall(line)]


def variant_names_in(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    return names_in_python(text) if path.suffix == ".py" else names_in_text(text)


def front_files() -> list[Path]:
    return sorted(
        p
        for front in FRONTS
        for p in (REPO / front).rglob("*")
        if p.is_file()
        and (p.suffix == ".py" or p.suffix in PAGE_SUFFIXES)
        and p.relative_to(REPO).as_posix() not in VENDORED
    )


def test_the_fronts_name_no_variant() -> None:
    files = front_files()
    assert REPO / "services/bot/lobby.py" in files
    assert REPO / "services/webapp/static/app.js" in files
    named = {
        f"{p.relative_to(REPO)}:{line}": name for p in files for line, name in variant_names_in(p)
    }
    assert named == {}


def test_a_named_variant_is_found(tmp_path: Path) -> None:
    """The search finds a variant named in each way the code could name one, and not in
    prose."""
    module = tmp_path / "front.py"
    module.write_text(
        '"""Flip\'s side; no_mercy in a docstring is prose."""\n'
        "# classic in a comment is prose\n"
        'DEFAULT = "classic"\n'
        "stacks = view.variant in {'no_mercy'}\n"
        "def minions(minecraft: int) -> str:\n"
        '    return f"/top {x} flip"\n'
        "from x import flip\n"
        "flipped = y.classics\n",
        encoding="utf-8",
    )
    assert sorted(variant_names_in(module)) == [
        (3, "classic"),
        (4, "no_mercy"),
        (5, "minecraft"),
        (5, "minions"),
        (6, "flip"),
        (7, "flip"),
    ]
    page = tmp_path / "app.js"
    page.write_text("// Flip's dark side\nconst v = 'minions';\n", encoding="utf-8")
    assert variant_names_in(page) == [(2, "minions")]
