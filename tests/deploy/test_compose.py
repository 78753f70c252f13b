"""docker-compose.yml: valid Compose, every service and setting the code expects, tokens
required, nothing that must never be deployed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers.deployment import (
    CODE_VARIABLES,
    FORBIDDEN_VARIABLES,
    REPO,
    VERSION,
    compose_command,
    entrypoint_roles,
)

COMPOSE_FILE = REPO / "docker-compose.yml"
APP_SERVICES = {"migrate", "engine", "worker", "set-webhook", "bot", "webapp"}
#: Compose stops with an error while any of these is unset or empty.
REQUIRED = {"UNO_TELEGRAM_TOKEN", "UNO_ENGINE_TOKEN", "UNO_REDIS_PASSWORD", "POSTGRES_PASSWORD"}
#: What every service of ours needs to find the others.
APP_VARIABLES = {
    "UNO_REDIS_URL",
    "UNO_ENGINE_URL",
    "UNO_ENGINE_TOKEN",
    "UNO_DATABASE_URL",
    "UNO_LOG_FORMAT",
}
BOT_VARIABLES = APP_VARIABLES | {
    "UNO_TELEGRAM_TOKEN",
    "UNO_BOT_WEBHOOK_URL",
    "UNO_BOT_WEBHOOK_SECRET",
}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text())
    return document


def assert_valid_compose(path: Path) -> None:
    """``path`` validates against the compose specification's schema."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.compose-spec",
            str(path),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_file_is_valid_against_the_compose_specification() -> None:
    assert_valid_compose(COMPOSE_FILE)


def test_every_service_is_there(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == APP_SERVICES | {"redis", "postgres"}


def test_each_app_service_runs_an_entry_point_role_of_the_image(compose: dict[str, Any]) -> None:
    roles = entrypoint_roles()
    for name in APP_SERVICES:
        service = compose["services"][name]
        assert service["image"] == f"uno-bot:{VERSION}", name
        assert service["command"][0] in roles, name
        assert service["read_only"] is True, name


def test_the_services_get_the_settings_the_code_reads(compose: dict[str, Any]) -> None:
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        names = set(environment)
        unknown = {n for n in names if n.startswith("UNO_")} - CODE_VARIABLES
        assert unknown == set(), f"{name} sets variables no code reads"
        wanted = BOT_VARIABLES if name in {"bot", "set-webhook"} else APP_VARIABLES
        assert wanted <= names, f"{name} lacks {wanted - names}"
        assert environment["UNO_LOG_FORMAT"] == "json"
        assert names & FORBIDDEN_VARIABLES == set(), name


def test_nothing_sets_the_development_switches() -> None:
    for path in (COMPOSE_FILE, REPO / ".env.example", REPO / "Dockerfile"):
        for variable in FORBIDDEN_VARIABLES:
            assert variable not in path.read_text(), f"{path.name} mentions {variable}"


def test_tokens_and_passwords_are_required_and_listed_in_env_example() -> None:
    text = COMPOSE_FILE.read_text()
    required = set(re.findall(r"\$\{([A-Z_]+):\?", text))
    assert required == REQUIRED
    # No token has a fallback anywhere in the file.
    assert not re.search(r"\$\{(" + "|".join(REQUIRED) + r"):?-", text)
    example = (REPO / ".env.example").read_text()
    listed = set(re.findall(r"(?m)^#?\s*([A-Z_]+)=", example))
    interpolated = set(re.findall(r"\$\{([A-Z_]+)", text))
    assert interpolated <= listed, f".env.example lacks {interpolated - listed}"
    assert not re.search(r"(?m)^(" + "|".join(REQUIRED) + r")=\S", example), (
        ".env.example must not carry a value for a token or password"
    )
    assert (REPO / ".gitignore").read_text().count("\n.env\n") == 1


def test_metrics_are_served_on_ports_of_their_own_that_nothing_publishes(
    compose: dict[str, Any],
) -> None:
    """The bot's and the Mini App's HTTP ports are published (for the TLS reverse proxy);
    their metrics, like the worker's, are on ports of their own, reached only from the
    compose network (where Prometheus would scrape them)."""
    services = compose["services"]
    for name, setting, port in (
        ("worker", "UNO_WORKER_METRICS_PORT", "9103"),
        ("bot", "UNO_BOT_METRICS_PORT", "9102"),
        ("webapp", "UNO_WEBAPP_METRICS_PORT", "9104"),
    ):
        assert services[name]["environment"][setting] == port, name
        published = " ".join(services[name].get("ports", []))
        assert f":{port}" not in published, name


def test_services_start_in_order(compose: dict[str, Any]) -> None:
    services = compose["services"]
    # The Mini App writes no records but reads their archive: it waits for their schema too.
    assert set(services["webapp"]["depends_on"]) == {"redis", "engine", "migrate"}
    for name in APP_SERVICES - {"migrate", "set-webhook"}:
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }, name
    assert services["bot"]["depends_on"]["set-webhook"]["condition"] == (
        "service_completed_successfully"
    )
    assert services["migrate"]["restart"] == services["set-webhook"]["restart"] == "no"
    redis = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in redis and "--requirepass" in redis


# ---------------------------------------------------------------- with a Compose implementation


def filled_env(tmp_path: Path, **values: str) -> Path:
    """An env file: .env.example with every empty value filled in, then ``values``."""
    lines = []
    for line in (REPO / ".env.example").read_text().splitlines():
        match = re.match(r"^([A-Z_]+)=$", line)
        if match and match.group(1) in {"UNO_BOT_WEBHOOK_URL", "UNO_BOT_WEBHOOK_SECRET"}:
            lines.append(line)
        elif match:
            lines.append(f"{line}{match.group(1).lower()}0123")
        else:
            lines.append(line)
    env_file = tmp_path / "env"
    text = "\n".join(lines) + "\n"
    for name, value in values.items():
        text = re.sub(rf"(?m)^{name}=.*$", f"{name}={value}", text)
    env_file.write_text(text)
    return env_file


def render(env_file: Path, tmp_path: Path, *overrides: Path) -> subprocess.CompletedProcess[str]:
    """``compose config`` of docker-compose.yml (and ``overrides``) with ``env_file``."""
    command = compose_command()
    if command is None:
        pytest.skip("no Compose implementation here (docker compose or docker-compose)")
    # Only the env file: no .env of the checkout, no UNO_* of this process.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_", "POSTGRES_"))}
    return subprocess.run(
        [
            *command,
            "--project-directory",
            str(REPO),
            "--env-file",
            str(env_file),
            "-f",
            str(COMPOSE_FILE),
            *(part for path in overrides for part in ("-f", str(path))),
            "config",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )


def test_compose_renders_with_the_example_filled_in(tmp_path: Path) -> None:
    result = render(filled_env(tmp_path), tmp_path)
    assert result.returncode == 0, result.stderr
    rendered = yaml.safe_load(result.stdout)
    bot = rendered["services"]["bot"]["environment"]
    assert bot["UNO_TELEGRAM_TOKEN"] == "uno_telegram_token0123"
    assert bot["UNO_REDIS_URL"] == "redis://:uno_redis_password0123@redis:6379/0"
    assert bot["UNO_DATABASE_URL"].startswith("postgresql+psycopg://uno:postgres_password0123@")


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_compose_refuses_to_start_without_a_token(tmp_path: Path, missing: str) -> None:
    result = render(filled_env(tmp_path, **{missing: ""}), tmp_path)
    assert result.returncode != 0
    assert missing in result.stderr


# ------------------------------------------------------------- variables and the local Telegram

OVERRIDE_FILE = REPO / "docker-compose.local-telegram.yml"
#: Today's defaults of what a shared or registry-less host changes.
PUBLISHED = {
    "engine": ("ENGINE_HOST_PORT", "8080", "8080"),
    "bot": ("BOT_HOST_PORT", "8090", "8090"),
    "webapp": ("WEBAPP_HOST_PORT", "8070", "8070"),
}
THIRD_PARTY_IMAGES = {
    "redis": ("REDIS_IMAGE", "redis:7.4-alpine"),
    "postgres": ("POSTGRES_IMAGE", "postgres:16-alpine"),
}


def test_published_ports_and_third_party_images_are_variables_with_defaults(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    published = {name: s["ports"] for name, s in services.items() if "ports" in s}
    assert set(published) == set(PUBLISHED)
    for name, (variable, default, port) in PUBLISHED.items():
        assert published[name] == [f"127.0.0.1:${{{variable}:-{default}}}:{port}"], name
    for name, (variable, default) in THIRD_PARTY_IMAGES.items():
        assert services[name]["image"] == f"${{{variable}:-{default}}}", name


def test_the_local_telegram_override_is_valid_compose_and_never_the_product() -> None:
    assert_valid_compose(OVERRIDE_FILE)
    override = yaml.safe_load(OVERRIDE_FILE.read_text())
    telegram = override["services"]["local-telegram"]
    assert telegram["build"] == {"context": ".", "target": "local-telegram"}
    assert telegram["image"] == f"uno-local-telegram:{VERSION}"
    assert telegram["command"][0] in entrypoint_roles()
    assert telegram["read_only"] is True
    text = OVERRIDE_FILE.read_text()
    for variable in FORBIDDEN_VARIABLES:
        assert variable not in text


def test_compose_merges_the_local_telegram_as_the_bots_telegram(tmp_path: Path) -> None:
    env_file = filled_env(tmp_path, UNO_TELEGRAM_TOKEN="123456:secret0123")
    result = render(env_file, tmp_path, OVERRIDE_FILE)
    assert result.returncode == 0, result.stderr
    services = yaml.safe_load(result.stdout)["services"]
    assert set(services) == APP_SERVICES | {"redis", "postgres", "local-telegram"}
    for name in ("bot", "set-webhook"):
        environment = services[name]["environment"]
        assert environment["UNO_BOT_API_URL"] == "http://local-telegram:8081/bot", name
        # What the base file gives is kept.
        assert environment["UNO_TELEGRAM_TOKEN"] == "123456:secret0123", name
        assert services[name]["depends_on"]["local-telegram"]["condition"] == "service_healthy"
    assert "123456:secret0123" in services["local-telegram"]["command"]
    # Only the check's timing changes; the healthchecks' commands stay the services' own.
    base = yaml.safe_load(COMPOSE_FILE.read_text())["services"]
    for name in ("engine", "worker", "bot", "redis", "postgres"):
        assert services[name]["healthcheck"]["test"] == base[name]["healthcheck"]["test"], name
