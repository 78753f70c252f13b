"""The page's vendored libraries are the ones package-lock.json pins: each file under
``services/webapp/static/vendor/`` has the sha256 that MANIFEST.json recorded when
``scripts/vendor-page-libraries.sh`` copied it out of the package ``npm ci`` installed
(``npm ci`` refuses a tarball whose sha512 is not the lock's integrity), and MANIFEST's
version and integrity of each package are the lock's. A file edited by hand, or a lock
moved on without vendoring again, fails here."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "services" / "webapp" / "static" / "vendor"
MANIFEST = json.loads((VENDOR / "MANIFEST.json").read_text())
LOCK = json.loads((ROOT / "package-lock.json").read_text())["packages"]
FILES = [
    (package, name, entry)
    for package, record in MANIFEST.items()
    for name, entry in record["files"].items()
]


@pytest.mark.parametrize(("package", "name", "entry"), FILES, ids=[f[1] for f in FILES])
def test_each_vendored_file_is_the_one_copied_from_the_locked_package(
    package: str, name: str, entry: dict[str, str]
) -> None:
    assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == entry["sha256"]


@pytest.mark.parametrize("package", sorted(MANIFEST))
def test_the_manifest_names_the_version_and_integrity_the_lock_pins(package: str) -> None:
    pinned = LOCK[f"node_modules/{package}"]
    assert MANIFEST[package]["version"] == pinned["version"]
    assert MANIFEST[package]["integrity"] == pinned["integrity"]
    # the root package.json asks for exactly that version (save-exact: no range to drift in)
    wanted = json.loads((ROOT / "package.json").read_text())["dependencies"][package]
    assert wanted == pinned["version"]


def test_nothing_unlisted_is_vendored() -> None:
    listed = {name for _, name, _ in FILES} | {"MANIFEST.json"}
    assert {p.name for p in VENDOR.iterdir()} == listed


def test_the_page_loads_telegrams_sdk_from_the_vendored_copy() -> None:
    page = (ROOT / "services" / "webapp" / "static" / "index.html").read_text()
    assert '<script src="/static/vendor/telegram-web-app.js" defer></script>' in page
    assert not (VENDOR.parent / "telegram-web-app.js").exists()
