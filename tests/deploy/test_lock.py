"""The lock files agree with pyproject.toml.

``requirements-dev.lock`` (what .venv and CI install) and ``requirements.lock`` (what the
image installs) are written by ``make lock``. These tests read them without a network: each
direct requirement of pyproject.toml is pinned at a version its bounds allow, nothing is
pinned as a direct requirement that pyproject.toml no longer asks for, every pin carries
hashes (the image installs with ``--require-hashes``), and the image runs the very versions
the tests ran.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]
#: What the lock is solved for (Makefile LOCK_FLAGS): Python 3.11 on x86-64 Linux.
TARGET = {
    "python_version": "3.11",
    "python_full_version": "3.11.0",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}
#: uv's annotation for a requirement that comes from pyproject.toml itself.
FROM_PYPROJECT = "uno-bot (pyproject.toml)"


@dataclass
class Pin:
    version: str
    hashes: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)


def read_lock(path: Path) -> dict[str, Pin]:
    """``name==version`` entries with their ``--hash`` and ``# via`` lines."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if match := re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s\\;]+)", raw):
            current = pins[canonicalize_name(match.group(1))] = Pin(match.group(3))
        elif current is not None and line.startswith("--hash="):
            current.hashes.append(line.removeprefix("--hash=").rstrip(" \\"))
        elif current is not None and line.startswith("# via "):
            current.via.append(line.removeprefix("# via ").strip())
        elif current is not None and line.startswith("#   "):
            current.via.append(line.removeprefix("#   ").strip())
    return pins


def direct_requirements(*extras: str) -> list[Requirement]:
    """pyproject.toml's runtime dependencies plus those of ``extras`` that apply to TARGET."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    texts = list(project["dependencies"])
    for extra in extras:
        texts += project["optional-dependencies"][extra]
    requirements = [Requirement(text) for text in texts]
    return [r for r in requirements if r.marker is None or r.marker.evaluate(TARGET)]


LOCKS = {
    "requirements.lock": (),
    "requirements-dev.lock": ("dev",),
}


@pytest.mark.parametrize("lock_name", sorted(LOCKS))
def test_every_direct_requirement_is_pinned_within_its_bounds(lock_name: str) -> None:
    pins = read_lock(REPO / lock_name)
    problems = []
    for requirement in direct_requirements(*LOCKS[lock_name]):
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None:
            problems.append(f"{requirement} is not in {lock_name}")
        elif not requirement.specifier.contains(pin.version, prereleases=True):
            problems.append(f"{requirement} but {lock_name} pins {pin.version}")
    assert not problems, "pyproject.toml and the lock disagree; run `make lock`:\n" + "\n".join(
        problems
    )


@pytest.mark.parametrize("lock_name", sorted(LOCKS))
def test_nothing_is_pinned_for_a_requirement_pyproject_dropped(lock_name: str) -> None:
    wanted = {canonicalize_name(r.name) for r in direct_requirements(*LOCKS[lock_name])}
    pinned_as_direct = {
        name for name, pin in read_lock(REPO / lock_name).items() if FROM_PYPROJECT in pin.via
    }
    assert pinned_as_direct - wanted == set(), (
        f"{lock_name} still pins what pyproject.toml no longer asks for; run `make lock`"
    )


@pytest.mark.parametrize("lock_name", sorted(LOCKS))
def test_every_pin_has_hashes(lock_name: str) -> None:
    pins = read_lock(REPO / lock_name)
    assert pins, f"{lock_name} pins nothing"
    unhashed = sorted(name for name, pin in pins.items() if not pin.hashes)
    assert unhashed == [], f"{lock_name}: pins without --hash lines"


def test_the_image_runs_the_versions_the_tests_ran() -> None:
    runtime = read_lock(REPO / "requirements.lock")
    dev = read_lock(REPO / "requirements-dev.lock")
    differing = {
        name: (pin.version, dev[name].version if name in dev else None)
        for name, pin in runtime.items()
        if name not in dev or dev[name].version != pin.version
    }
    assert differing == {}, "requirements.lock differs from requirements-dev.lock; `make lock`"


def test_the_dev_lock_holds_no_test_tool_in_the_image() -> None:
    runtime = read_lock(REPO / "requirements.lock")
    for tool in ("pytest", "mypy", "ruff", "hypothesis"):
        assert tool not in runtime, f"{tool} would ship in the image"


def test_the_reader_sees_a_disagreement(tmp_path: Path) -> None:
    """The checks above can fail: a lock missing a pin, or pinning outside the bounds."""
    lock = (REPO / "requirements.lock").read_text()
    broken = tmp_path / "broken.lock"
    broken.write_text(re.sub(r"(?m)^fastapi==\S+", "fastapi==0.1.0", lock))
    pins = read_lock(broken)
    fastapi = next(r for r in direct_requirements() if r.name == "fastapi")
    assert not fastapi.specifier.contains(pins["fastapi"].version)
    broken.write_text(re.sub(r"(?m)^celery==.*$", "", lock))
    assert "celery" not in read_lock(broken)
