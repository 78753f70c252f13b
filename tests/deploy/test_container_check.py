"""scripts/container-check.sh, the deployment played in containers, is wired as it says:
`make test` runs it, it waits on every service of the two compose files, and its scripts
parse. (It runs Docker itself; these tests do not.)"""

from __future__ import annotations

import re
import subprocess

import yaml

from tests.helpers.deployment import REPO

SCRIPTS = ("container-check.sh", "debian-base-image.sh")


def test_make_test_runs_the_container_check() -> None:
    makefile = (REPO / "Makefile").read_text()
    (test_target,) = re.findall(r"(?m)^test:(.*)$", makefile)
    assert "container-check" in test_target.split()
    assert re.search(r"(?m)^container-check:.*\n\tbash scripts/container-check\.sh$", makefile)


def test_the_check_waits_on_every_service_of_the_stack() -> None:
    services: set[str] = set()
    for name in ("docker-compose.yml", "docker-compose.local-telegram.yml"):
        services |= set(yaml.safe_load((REPO / name).read_text())["services"])
    script = (REPO / "scripts" / "container-check.sh").read_text()
    (waited,) = re.findall(r"for service in (redis postgres [a-z -]+); do", script)
    assert set(waited.split()) == services


def test_the_scripts_parse() -> None:
    for name in SCRIPTS:
        result = subprocess.run(
            ["bash", "-n", str(REPO / "scripts" / name)], capture_output=True, text=True
        )
        assert result.returncode == 0, f"{name}: {result.stderr}"
