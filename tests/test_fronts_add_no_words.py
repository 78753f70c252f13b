"""The fronts add no words of their own: every word the bot and the Mini App show is made in
the presentation (``services/presentation/screens``), so a new front, or a new language,
finds them all in one place. No module of ``services/bot`` or ``services/webapp`` calls a
translation function or imports one, and none writes Telegram's HTML markup but the one
module that turns rich text into it (``services/bot/telegram_html.py``).

What the fronts may still import of ``services.presentation.i18n`` says which language to
speak, not what to say: ``language`` (a person's locale as one the catalogs hold) and
``available_locales`` (the languages a command menu is registered in).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FRONTS = (REPO / "services" / "bot", REPO / "services" / "webapp")
#: The functions that make a word from a message id (``services.presentation.i18n`` and the
#: catalogs under it), and ``N_``, which marks one for the catalogs.
TRANSLATING = {
    "gettext",
    "ngettext",
    "pgettext",
    "npgettext",
    "rich_gettext",
    "rich_ngettext",
    "N_",
    "number",
}
#: The modules those functions live in.
WORD_MODULES = ("services.presentation.i18n", "services.presentation.locales.catalog")
#: The one module of the bot that writes Telegram's HTML (from rich text).
WRITES_HTML = REPO / "services" / "bot" / "telegram_html.py"
#: An HTML tag Telegram's parse mode reads, in a string the code writes.
HTML_TAG = re.compile(r"</?(b|i|u|s|code|pre|a|tg-spoiler|blockquote)(\s[^>]*)?>")


def words_in(source: str) -> list[tuple[int, str]]:
    """Each (line, name) where ``source`` imports a translation function or calls one (by
    its name or as an attribute: ``i18n.gettext``), or imports anything of ``N_``'s kind."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in WORD_MODULES:
            found += [(node.lineno, a.name) for a in node.names if a.name in TRANSLATING]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name in WORD_MODULES]
        elif isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in TRANSLATING:
                found.append((node.lineno, name))
    return sorted(found)


def markup_in(source: str) -> list[int]:
    """The lines of ``source`` whose string constants (docstrings aside) hold an HTML tag."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return sorted(
        {
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and HTML_TAG.search(node.value)
        }
    )


def front_modules() -> list[Path]:
    modules = sorted(p for front in FRONTS for p in front.rglob("*.py"))
    assert REPO / "services" / "bot" / "lobby.py" in modules
    assert REPO / "services" / "webapp" / "words.py" in modules
    return modules


def test_the_fronts_call_no_translation() -> None:
    found = {
        f"{p.relative_to(REPO)}:{line}": name
        for p in front_modules()
        for line, name in words_in(p.read_text(encoding="utf-8"))
    }
    assert found == {}


def test_the_fronts_write_no_html_but_the_one_module() -> None:
    found = {
        str(p.relative_to(REPO)): lines
        for p in front_modules()
        if p != WRITES_HTML and (lines := markup_in(p.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_a_translation_and_markup_are_found() -> None:
    """The searches above work: each way of reaching a word is found, and markup in a
    string, not in a docstring."""
    source = (
        "from services.presentation.i18n import gettext, language\n"
        "import services.presentation.i18n\n"
        "from services.presentation import i18n\n"
        "def f(locale):\n"
        '    """``/language <code>``"""\n'
        "    language(locale)\n"
        "    i18n.ngettext(locale, 'a', 'b', 2)\n"
        "    return f'<b>{rich_gettext(locale, \"x\")}</b>'\n"
    )
    assert words_in(source) == [
        (1, "gettext"),
        (2, "services.presentation.i18n"),
        (7, "ngettext"),
        (8, "rich_gettext"),
    ]
    assert markup_in(source) == [8]
