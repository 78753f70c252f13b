"""``make play`` (``python -m services.worker.ai.play``): a terminal game between AI players
on the pure engine, every player's view shown; it needs no bot token, Docker or Redis."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.engine.rules import VARIANTS
from services.worker.ai import play as play_module

ROOT = Path(__file__).resolve().parents[3]


def run(*argv: str) -> str:
    out = io.StringIO()
    play_module.play(list(argv), out=out)
    return out.getvalue()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_round_shows_every_players_view_and_what_they_did(variant: str) -> None:
    text = run("--variant", variant, "--players", "3", "--seed", "4", "--rounds", "1")
    for seat, policy in enumerate(("strong", "random", "first")):
        name = f"{policy}-{seat}"
        assert f"[{name}'s view]" in text
        assert f"\n{name}: " in text  # what they did
    assert "  hand " in text and " · may " in text
    assert "round 1 won by" in text
    assert "Stopped after 1 round(s)." in text


def test_the_same_seed_replays_the_same_game() -> None:
    first = run("--seed", "9", "--rounds", "1", "--policy", "random")
    assert first == run("--seed", "9", "--rounds", "1", "--policy", "random")
    assert first != run("--seed", "10", "--rounds", "1", "--policy", "random")


def test_a_whole_game_runs_to_its_winner() -> None:
    text = run("--players", "2", "--seed", "2", "--target-score", "60", "--quiet")
    assert "wins the game" in text
    assert "'s view]" not in text  # --quiet: the events only


def test_policies_per_seat_and_house_rules() -> None:
    text = run(
        "--players", "2", "--seed", "1", "--rounds", "1",
        "--policies", "first,strong", "--house-rule", "progressive_draw",
    )  # fmt: skip
    assert "first-0" in text and "strong-1" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "1"], "takes 2–10 players"),
        (["--policies", "strong,random"], "--policies names 2 seats but --players is 4"),
        (["--policies", "strong,nobody,first,first"], "no AI policy named 'nobody'"),
        (["--variant", "no_mercy", "--house-rule", "progressive_draw"], "not offered"),
    ],
)
def test_bad_options_get_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play_module.main(argv) == 2
    assert message in capsys.readouterr().err


def test_runs_on_a_bare_machine_without_token_redis_or_celery() -> None:
    """The main job uses the pure engine directly: no service, broker or bot is imported."""
    code = (
        "import sys\n"
        "from services.worker.ai import play\n"
        "assert play.main(['--seed', '3', '--rounds', '1', '--quiet']) == 0\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        "assert not loaded & {'redis', 'celery', 'telegram', 'fastapi', 'httpx'}, loaded\n"
    )
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "Stopped after 1 round(s)." in done.stdout


def test_the_game_opens_with_a_legend_of_every_code_it_prints() -> None:
    from services.engine.rules.actions import ActionType
    from services.engine.rules.cards import Color, Kind
    from services.worker.ai.legend import ACTION_WORDS, COLOR_WORDS, KIND_WORDS

    # Every colour, action kind and action has its words (a new one without fails here).
    assert set(COLOR_WORDS) == set(Color)
    assert set(KIND_WORDS) == {k for k in Kind if not k.is_number}
    assert set(ACTION_WORDS) == set(ActionType)
    text = run("--seed", "9", "--rounds", "1", "--quiet")
    legend, _, game = text.partition("\n\n")
    assert legend.startswith("Legend")
    for words in (*COLOR_WORDS.values(), *KIND_WORDS.values(), *ACTION_WORDS.values()):
        assert words in " ".join(legend.split()), words
    assert "Classic UNO" in game
    assert "Legend" not in run("--seed", "9", "--rounds", "1", "--quiet", "--no-legend")
