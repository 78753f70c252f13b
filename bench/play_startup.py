"""How long ``make play`` takes from a fresh clone to a playable page.

Clones the repository (its committed HEAD) into a temporary folder, then runs ``make play``
there (harness/launcher.py, as a terminal does) several times, each until the launcher
prints the page's address ("UNO playground: http..."; it prints it only once the bot polls,
so the page is playable then) and the page answers, then stops it with Ctrl-C (SIGINT to its
process group, as a terminal sends it):

- **first run**: creates ``.venv`` and installs the runtime lock and the project, no dev
  extra (pip's cache on this machine counts: a machine that never downloaded the packages
  takes longer); goal: at most 90 s on the shared 2-core machine;
- **later runs**: everything installed; only the stack starts; goal: at most 10 s.

The baselines, measured in the same run: five bare interpreters started together
(``python -c pass`` ×5, what five processes cost before they import anything), the engine
alone (uvicorn until ``/healthz`` answers), and the later runs of the previous design
(``--previous REF``, default ``main``: a clone at that commit sharing the fresh clone's
``.venv``; ``--previous ''`` leaves it out), each run beside one of this commit's.

Usage: .venv/bin/python bench/play_startup.py [--runs 3] [--previous REF] [--redis URL] [--keep]
Uses the Redis at ``--redis`` (default redis://127.0.0.1:6379/13; nothing is flushed).
Nothing here asserts on time; the figures are for reading.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from harness.launcher import start_launcher  # noqa: E402
from harness.play import PAGE_LINE, page_in  # noqa: E402
from harness.processes import (  # noqa: E402
    answers_ok,
    free_port,
    service_env,
    spawn,
    stop,
    uvicorn_command,
)
from services.config import DEV_ENGINE_TOKEN  # noqa: E402


def timed_play(clone: Path, redis_url: str, log: Path) -> float:
    """Seconds from ``make play`` to a page that answers; the stack is stopped after."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    env["UNO_REDIS_URL"] = redis_url
    args = f"--port {free_port()} --engine-port {free_port()}"
    started = time.monotonic()
    launcher = start_launcher(["make", "play", f"ARGS={args}"], clone, env)
    try:
        page = page_in(launcher.wait_for(PAGE_LINE, timeout=900))
        assert page is not None
        httpx.get(page, timeout=10).raise_for_status()
        elapsed = time.monotonic() - started
    except AssertionError as error:
        raise SystemExit(f"make play never printed its page; see {log}") from error
    finally:
        launcher.interrupt()
        with log.open("a") as out:
            out.write(launcher.output + "\n")
    return elapsed


def timed_engine(redis_url: str, log: Path) -> float:
    """Seconds from starting the engine alone to its ``/healthz`` answering."""
    port = free_port()
    env = service_env(redis_url, f"http://127.0.0.1:{port}", DEV_ENGINE_TOKEN)
    started = time.monotonic()
    process = spawn(
        uvicorn_command("services.engine.app:app", port, "--log-level", "warning"), env, log
    )
    healthy = answers_ok(f"http://127.0.0.1:{port}/healthz")
    try:
        while True:
            if healthy():
                return time.monotonic() - started
            if process.poll() is not None:
                raise SystemExit("the engine exited while starting")
            time.sleep(0.02)
    finally:
        stop(process, grace=10)


def timed_bare_starts(count: int = 5) -> float:
    """Seconds for ``count`` bare interpreters started together to have all exited."""
    started = time.monotonic()
    processes = [subprocess.Popen([sys.executable, "-c", "pass"]) for _ in range(count)]
    for process in processes:
        process.wait()
    return time.monotonic() - started


def previous_clone(folder: Path, clone: Path, ref: str) -> Path:
    """A clone of ``ref`` beside ``clone``, using ``clone``'s installed ``.venv``."""
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", f"{ref}^{{commit}}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    previous = folder / "previous"
    clone_command = ["git", "clone", "--quiet", "--no-checkout", str(REPO), str(previous)]
    subprocess.run(clone_command, check=True)
    subprocess.run(["git", "-C", str(previous), "checkout", "--quiet", commit], check=True)
    (previous / ".venv").symlink_to(clone / ".venv")
    return previous


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs in all (the first installs)")
    parser.add_argument(
        "--previous", default="main", help="the previous design's commit ('' for none)"
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--keep", action="store_true", help="keep the clone and its logs")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="uno-play-bench-"))
    clone = folder / "uno"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    log = folder / "make-play.log"
    print(f"fresh clone of {REPO} at {clone}; output in {log}")
    print(f"{'run':<28} {'seconds':>8}  goal")
    bare = timed_bare_starts()
    print(f"{'baseline: python -c pass ×5':<28} {bare:8.1f}")
    baseline = timed_engine(args.redis, folder / "engine.log")
    print(f"{'baseline: engine alone':<28} {baseline:8.1f}")
    previous = None
    for run in range(args.runs):
        seconds = timed_play(clone, args.redis, log)
        name = "make play, first (installs)" if run == 0 else f"make play, later #{run}"
        goal = "≤ 90" if run == 0 else "≤ 10"
        print(f"{name:<28} {seconds:8.1f}  {goal}", flush=True)
        if run > 0 and args.previous:
            previous = previous or previous_clone(folder, clone, args.previous)
            seconds = timed_play(previous, args.redis, log)
            print(f"{f'baseline: {args.previous}, later #{run}':<28} {seconds:8.1f}", flush=True)
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}")
    if not args.keep:
        subprocess.run(["rm", "-rf", str(folder)], check=True)


if __name__ == "__main__":
    main()
