"""What the deployment files are checked against: the settings the code reads, the image's
entry point roles, the project's version."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

from services.config import Settings

REPO = Path(__file__).resolve().parents[2]
VERSION: str = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]

#: Environment variables the code reads: every Settings field and the logging set-up
#: (services/logs.py).
SETTINGS_VARIABLES = {f"UNO_{name.upper()}" for name in Settings.model_fields}
CODE_VARIABLES = SETTINGS_VARIABLES | {"UNO_LOG_FORMAT", "UNO_LOG_LEVEL"}

#: Never in a deployment: the engine's scenario endpoints and its development switch.
FORBIDDEN_VARIABLES = {"UNO_ENABLE_TEST_ENDPOINTS", "UNO_DEV_MODE"}


def entrypoint_roles() -> set[str]:
    """The roles scripts/entrypoint.sh knows (its ``case`` labels)."""
    text = (REPO / "scripts" / "entrypoint.sh").read_text()
    return set(re.findall(r"(?m)^([a-z-]+)\)$", text))


def compose_command() -> list[str] | None:
    """A Compose implementation that can render a file without a Docker engine, if any."""
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None
