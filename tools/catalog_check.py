"""What keeps a catalog from shipping: ``python -m tools.catalog_check`` (also the catalog
tests). A development tool: it reads the source tree and Babel's extraction, which the
product's pure presentation has no need of.

- the template ``bot.pot`` lists exactly the messages the bot's code marks (run
  ``make catalogs-update`` after changing a message);
- every language's catalog translates every message of the template, none of them fuzzy
  or empty, each with exactly the placeholders of the English (a plural form may leave out
  ``{n}``), with the plural forms Babel (CLDR) gives the language, and nothing obsolete;
- the compiled ``.mo`` says what the ``.po`` says (run ``make catalogs`` after editing).
"""

from __future__ import annotations

import string
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from services.presentation.locales.catalog import (
    LANGUAGES,
    LOCALES_DIR,
    SOURCE_LANGUAGE,
    catalog_path,
)

_SERVICES: Final = LOCALES_DIR.parent.parent  # services/presentation/locales
#: Where the words shown to people are written: the presentation, the two fronts, and the
#: variants' own (their names, titles, summaries and side names: ``VariantWords``).
SOURCE_DIRS: Final = (
    _SERVICES / "presentation",
    _SERVICES / "bot",
    _SERVICES / "webapp",
    _SERVICES / "engine" / "rules" / "variants",
)
MAPPING_FILE: Final = _SERVICES.parent / "babel.cfg"
TEMPLATE_PATH: Final = LOCALES_DIR / "bot.pot"

Key = tuple[str | None, str]


def po_path(language: str) -> Path:
    return catalog_path(language).with_suffix(".po")


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as po:
        # A broken entry (two merges that both added at the end) is refused, not skipped.
        return read_po(po, abort_invalid=True)


def extracted_keys(
    source_dirs: Iterable[Path] = SOURCE_DIRS, mapping_file: Path = MAPPING_FILE
) -> set[Key]:
    """The messages the code under ``source_dirs`` marks for translation today."""
    with mapping_file.open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    return {
        (context, message[0] if isinstance(message, tuple) else message)
        for source_dir in source_dirs
        for _file, _line, message, _comments, context in extract_from_dir(
            str(source_dir), method_map, options_map
        )
    }


def _keys(catalog: Catalog) -> set[Key]:
    return {_key(m) for m in catalog if m.id}


def _key(message: Message) -> Key:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return (message.context, str(msgid))


def _strings(value: object) -> list[str]:
    return [str(s) for s in value] if isinstance(value, tuple | list) else [str(value or "")]


def placeholders(text: str) -> set[str]:
    """The named fields of a ``str.format`` template (``ValueError`` when malformed)."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def template_problems(template: Catalog, extracted: set[Key]) -> list[str]:
    in_template = _keys(template)
    return [
        f"not in bot.pot (run make catalogs-update): {k}"
        for k in sorted(extracted - in_template, key=str)
    ] + [
        f"in bot.pot but no longer in the code: {k}"
        for k in sorted(in_template - extracted, key=str)
    ]


def message_problems(language: str, english: Message, translated: Message | None) -> list[str]:
    key = _key(english)
    if translated is None:
        return [f"{language}: missing {key}"]
    if translated.fuzzy:
        return [f"{language}: fuzzy {key}"]
    forms = _strings(translated.string)
    if not all(forms):
        return [f"{language}: untranslated {key}"]
    try:
        wanted = set().union(*(placeholders(s) for s in _strings(english.id)))
        found = [placeholders(form) for form in forms]
    except ValueError as exc:
        return [f"{language}: malformed braces in {key}: {exc}"]
    if english.pluralizable:
        nplurals = get_plural(language).num_plurals
        if len(forms) != nplurals:
            return [f"{language}: {len(forms)} plural forms instead of {nplurals} in {key}"]
        bad = [f for f in found if not (wanted - {"n"} <= f <= wanted)]
    else:
        bad = [f for f in found if f != wanted]
    return [
        f"{language}: placeholders {sorted(b)} instead of {sorted(wanted)} in {key}" for b in bad
    ]


def catalog_problems(language: str, template: Catalog, catalog: Catalog) -> list[str]:
    """Why ``catalog`` (the ``.po`` of ``language``) can't ship against ``template``."""
    problems: list[str] = []
    expected_plural_forms = str(get_plural(language))
    if catalog.plural_forms != expected_plural_forms:
        problems.append(
            f"{language}: Plural-Forms is {catalog.plural_forms!r}, "
            f"Babel says {expected_plural_forms!r}"
        )
    for english in template:
        if english.id:
            problems += message_problems(
                language, english, catalog.get(english.id, english.context)
            )
    extra = _keys(catalog) - _keys(template)
    problems += [f"{language}: not in the template (obsolete): {k}" for k in sorted(extra, key=str)]
    problems += [f"{language}: obsolete entry {k!r}" for k in catalog.obsolete]
    return problems


def compiled_problems(language: str, catalog: Catalog, mo_path: Path) -> list[str]:
    """Where the compiled catalog differs from its source (or is missing)."""
    if not mo_path.exists():
        return [f"{language}: {mo_path} is missing (run make catalogs)"]
    with mo_path.open("rb") as mo:
        compiled = read_mo(mo)
    stale = [
        _key(m)
        for m in catalog
        if m.id
        and not m.fuzzy
        and _strings((compiled.get(m.id, m.context) or Message("")).string) != _strings(m.string)
    ]
    return [f"{language}: {mo_path.name} is out of date (run make catalogs): {k}" for k in stale]


def all_problems(languages: Iterable[str] = LANGUAGES) -> list[str]:
    template = read_catalog(TEMPLATE_PATH)
    problems = template_problems(template, extracted_keys())
    for language in languages:
        if language == SOURCE_LANGUAGE:
            continue
        catalog = read_catalog(po_path(language))
        problems += catalog_problems(language, template, catalog)
        problems += compiled_problems(language, catalog, catalog_path(language))
    return problems


def main() -> int:
    problems = all_problems()
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) in the catalogs of {', '.join(LANGUAGES)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
