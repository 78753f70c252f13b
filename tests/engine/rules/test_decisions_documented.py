"""Every decision the rules engine makes is written down in ``docs/RULES.md``.

A place where the code decides what the rule sheets leave open carries a comment
``[decision <key>]``; the paragraph of ``docs/RULES.md`` that states the decision carries an
anchor ``<!-- decision: <key> ... -->`` (invisible when the page is rendered).  These tests
read both: a marker without a key, a key with no paragraph, an anchor outside a paragraph
that says **[decision]**, or an anchor no code names any more all fail, so the code and the
document cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import services.engine.game_record as game_record_module
import services.engine.rules as rules_package

RULES_CODE = Path(rules_package.__file__).parent
#: The game record decides the rules of a game in a chat (RULES.md §7: the lobby, the
#: rematch), purely, as the rules library does the cards'.
GAME_RECORD = Path(game_record_module.__file__)
RULES_DOC = Path(__file__).resolve().parents[3] / "docs" / "RULES.md"

MARKER = re.compile(r"\[decision\b([^\]]*)\]")
KEYED_MARKER = re.compile(r"\[decision ([a-z0-9]+(?:-[a-z0-9]+)*)\]")
ANCHOR = re.compile(r"<!-- decision: ([a-z0-9 -]+?) -->")
SECTION = re.compile(r"RULES\.md §\d")


def code_markers() -> list[tuple[str, str]]:
    """Every ``[decision ...]`` marker in the rules code, as (where, marker text)."""
    found = []
    for path in sorted(RULES_CODE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in MARKER.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{path.relative_to(RULES_CODE)}:{line}", match.group(0)))
    return found


def code_keys() -> dict[str, list[str]]:
    """The keyed markers of the rules code and of the game record (whose unkeyed
    ``[decision]`` notes are the service's, stated in its README)."""
    keys: dict[str, list[str]] = {}
    text = GAME_RECORD.read_text(encoding="utf-8")
    record_markers = [
        (f"{GAME_RECORD.name}:{text.count(chr(10), 0, m.start()) + 1}", m.group(0))
        for m in KEYED_MARKER.finditer(text)
    ]
    for where, marker in [*code_markers(), *record_markers]:
        keyed = KEYED_MARKER.fullmatch(marker)
        if keyed is not None:
            keys.setdefault(keyed.group(1), []).append(where)
    return keys


def doc_paragraphs() -> list[str]:
    """``docs/RULES.md`` split into paragraphs (a list belongs to the paragraph above it)."""
    return [p for p in re.split(r"\n\s*\n", RULES_DOC.read_text(encoding="utf-8")) if p.strip()]


def doc_anchors() -> list[tuple[str, str]]:
    """Every anchor key of the document, with the paragraph it stands in."""
    return [
        (key, paragraph)
        for paragraph in doc_paragraphs()
        for match in ANCHOR.finditer(paragraph)
        for key in match.group(1).split()
    ]


def test_every_decision_marker_in_the_code_has_a_key() -> None:
    unkeyed = [
        f"{where}: {marker}"
        for where, marker in code_markers()
        if KEYED_MARKER.fullmatch(marker) is None
    ]
    assert unkeyed == [], "write these as [decision <key>] and anchor the key in docs/RULES.md"


def test_every_decision_of_the_code_has_its_paragraph_in_rules_md() -> None:
    documented = {key for key, _ in doc_anchors()}
    missing = {key: where for key, where in code_keys().items() if key not in documented}
    assert missing == {}, "state these decisions in docs/RULES.md, with their anchors"


def test_every_anchor_stands_in_a_paragraph_that_states_a_decision() -> None:
    """The anchor marks the paragraph that says **[decision]**, not just any place."""
    stray = [key for key, paragraph in doc_anchors() if "[decision" not in paragraph]
    assert stray == []


def test_every_anchor_in_rules_md_is_named_by_the_code_once() -> None:
    """No stale anchors (a decision the code no longer makes) and no key used twice."""
    counts = Counter(key for key, _ in doc_anchors())
    assert [key for key, n in counts.items() if n > 1] == []
    assert sorted(set(counts) - set(code_keys())) == []


def test_every_decision_has_a_test_naming_it() -> None:
    """Each decision is pinned by at least one rules test whose docstring names its key
    (``[decision <key>]``) beside the section of RULES.md it tests."""
    named: set[str] = set()
    here = Path(__file__).parent
    # The rules' tests, and the game record's beside them (tests/engine/).
    for path in [*here.glob("test_*.py"), *here.parent.glob("test_*.py")]:
        if path.name != Path(__file__).name:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                    docstring = ast.get_docstring(node) or ""
                    if SECTION.search(docstring):
                        named.update(KEYED_MARKER.findall(docstring))
    assert sorted(set(code_keys()) - named) == []


def test_the_checks_see_markers_and_anchors() -> None:
    """The readers themselves work: the code has keyed markers, the document anchors, and
    a marker without a key would be found."""
    assert len(code_keys()) >= 20
    assert len(doc_anchors()) >= 20
    assert MARKER.search("so [decision: it was played long ago]") is not None
    assert KEYED_MARKER.fullmatch("[decision: it was played long ago]") is None
    assert KEYED_MARKER.fullmatch("[decision final-flip]") is not None
    assert "final-draw-colour" in {key for key, _ in doc_anchors()}
