"""The image's build, without Docker: the build stage's RUN steps of the Dockerfile, run as
they are written (with a scratch folder for /opt/venv), give an environment from the runtime
lock alone in which the entry point migrates a database and starts the engine, outside the
checkout. This is where a
missing runtime pin or a file left out of the package shows up. The Dockerfile's other
promises (stages, user, entry point) are read off the file."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import processes
from harness.processes import free_port
from tests.helpers.service_runner import TOKEN, wait_ready

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = (REPO / "Dockerfile").read_text()


def stages() -> dict[str, str]:
    """The Dockerfile's stages by name, each from its FROM line on, continuation lines
    joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    found = re.split(r"(?m)^(?=FROM )", joined)[1:]
    return {re.match(r"FROM \S+ AS (\S+)", stage).group(1): stage for stage in found}  # type: ignore[union-attr]


def test_the_image_is_multi_stage_and_runs_unprivileged() -> None:
    named = stages()
    assert list(named) == ["build", "service", "local-telegram", "runtime"]
    build, service, runtime = named["build"], named["service"], named["runtime"]
    assert "--require-hashes" in build and "-r requirements.lock" in build
    assert "pip check" in build
    assert re.search(r"(?m)^COPY --from=build /opt/venv /opt/venv$", service)
    user = re.findall(r"(?m)^USER (\S+)$", service)
    assert user and user[-1].split(":")[0] not in {"0", "root"}
    assert re.search(r'(?m)^ENTRYPOINT \["uno-entrypoint"\]$', service)
    # The default target (the last stage) is the product, on the service stage; nothing
    # after it changes the user.
    assert runtime.startswith("FROM service AS runtime") and "USER" not in runtime
    assert named["local-telegram"].startswith("FROM service AS local-telegram")
    assert "latest" not in DOCKERFILE
    for forbidden in ("UNO_DEV_MODE", "UNO_ENABLE_TEST_ENDPOINTS"):
        assert forbidden not in DOCKERFILE


def test_the_dockerfile_builds_where_no_registry_is_reachable() -> None:
    """No front end fetched from a registry (a `# syntax=` line); the base is a build
    argument whose default stays the official image; pip's index and CA bundle come in as
    build arguments of the build stage alone, never baked into the image."""
    assert not re.search(r"(?im)^#\s*syntax\s*=", DOCKERFILE)
    assert re.search(r"(?m)^ARG PYTHON_IMAGE=python:3\.11-slim-bookworm$", DOCKERFILE)
    named = stages()
    for argument in ("PIP_INDEX_URL", "PIP_CERT"):
        assert re.search(rf"(?m)^ARG {argument}$", named["build"]), argument
        for stage in ("service", "local-telegram", "runtime"):
            assert argument not in named[stage], (argument, stage)


def test_the_product_leaves_out_the_local_telegram_and_the_harness() -> None:
    """The product's stages copy services/ and nothing of the checkout's other packages;
    the local-telegram target adds the playground package alone."""
    named = stages()
    copied = {
        name: {
            part.strip("/").removeprefix("./")
            for line in re.findall(r"(?m)^COPY (?!--from)(?:--\S+ )*(.+) \S+$", stage)
            for part in line.split()
        }
        for name, stage in named.items()
    }
    assert "services" in copied["build"]
    for stage in ("build", "service", "runtime"):
        assert not {"playground", "harness", "tests", "bench", "."} & copied[stage], stage
    assert copied["local-telegram"] == {"playground"}
    assert "pip install --no-deps ." in named["build"]


def test_the_build_context_leaves_out_the_checkouts_clutter() -> None:
    lines = [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()]
    assert "*" in lines, "the context should hold only what is let in by name"
    let_in = {line[1:].strip("/") for line in lines if line.startswith("!")}
    copied = re.findall(r"(?m)^COPY (?!--from)(?:--\S+ )*(.+) \S+$", DOCKERFILE)
    sources = {part.strip("/") for line in copied for part in line.split()}
    assert sources and sources <= let_in, sources - let_in


def image_contents(
    python: Path, cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """tests/deploy/image_contents.py (what scripts/container-check.sh runs in the image)."""
    script = REPO / "tests" / "deploy" / "image_contents.py"
    return subprocess.run(
        [str(python), str(script)], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_the_contents_check_finds_the_harness_in_the_checkout(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    found = image_contents(Path(sys.executable), tmp_path, env)
    assert found.returncode == 1
    for package in ("playground", "harness", "tests", "bench"):
        assert f"the module {package} is there" in found.stdout, found.stdout


@pytest.mark.slow
def test_the_build_steps_give_an_image_that_migrates_and_serves(
    tmp_path: Path, redis_url: str, fresh_database: str
) -> None:
    build = stages()["build"]
    src, venv = tmp_path / "src", tmp_path / "venv"
    src.mkdir()
    for line in re.findall(r"(?m)^COPY (?!--from)(.+)$", build):
        *sources, _destination = line.split()
        for source in sources:
            if (REPO / source).is_dir():
                shutil.copytree(
                    REPO / source, src / source, ignore=shutil.ignore_patterns("__pycache__")
                )
            else:
                shutil.copy(REPO / source, src / source)
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    for command in re.findall(r"(?m)^RUN (.+)$", build):
        command = command.replace("/opt/venv", str(venv)).replace(
            "python3 -m venv", f"{sys.executable} -m venv"
        )
        result = subprocess.run(
            ["sh", "-c", command], cwd=src, env=env, capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, f"{command}\n{result.stdout[-2000:]}{result.stderr[-3000:]}"

    installed = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "pytest==" not in installed and "mypy==" not in installed
    # The product alone: the harness stays in the checkout (and the local-telegram target).
    empty = tmp_path / "empty"
    empty.mkdir()
    contents = image_contents(venv / "bin" / "python", empty, env)
    assert contents.returncode == 0, contents.stdout + contents.stderr

    app = tmp_path / "app"
    app.mkdir()
    port = free_port()
    run_env = {
        **{k: v for k, v in env.items() if not k.startswith(("UNO_", "UVICORN_"))},
        "PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}",
        "UNO_REDIS_URL": redis_url,
        "UNO_ENGINE_TOKEN": TOKEN,
        "UVICORN_HOST": "127.0.0.1",
        "UVICORN_PORT": str(port),
    }
    log = tmp_path / "engine.log"
    with log.open("ab") as out:
        process = subprocess.Popen(
            ["sh", str(REPO / "scripts" / "entrypoint.sh"), "engine"],
            cwd=app,
            env=run_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_ready("the engine", f"http://127.0.0.1:{port}", log, timeout=60)
        where = subprocess.run(
            [
                "python",
                "-c",
                "import services.worker.tasks, services.deploy.set_webhook as m; print(m.__file__)",
            ],
            cwd=app,
            env=run_env,
            capture_output=True,
            text=True,
        )
        assert where.returncode == 0, where.stderr
        assert where.stdout.startswith(str(venv)), "the code came from the checkout"
        # The migrations travel in the package: the installed copy brings a database up.
        migrated = subprocess.run(
            ["sh", str(REPO / "scripts" / "entrypoint.sh"), "migrate"],
            cwd=app,
            env={**run_env, "UNO_DATABASE_URL": fresh_database},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert migrated.returncode == 0, migrated.stderr[-3000:]
    finally:
        processes.stop(process)
