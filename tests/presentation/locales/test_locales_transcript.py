"""One whole game's chat, as the bot sends it, in each language: golden files to read
through for the words and the layout (golden/chat.<language>.txt), and checks of the
right-to-left layout with the Unicode bidi algorithm (python-bidi).

The game is seeded and played by a fixed preference (play, then any other decision, then
draw) between a Latin name, a Latin name ending in punctuation and a Persian name, with a
low target score so one round decides it. Each step shows the public lines of what happened;
every few steps the group's table and the first player's private hand, as sent (HTML,
isolates and direction marks included).

Regenerate after an intended change with ``UPDATE_GOLDEN=1 .venv/bin/pytest
tests/bot/locales/test_locales_transcript.py`` and read the diff before committing it.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Any

import pytest
from bidi import get_display

from services.bot.telegram_html import telegram_html
from services.engine.client import GameInfo
from services.engine.rules import Applied, Options, apply, get_variant, legal_actions, new_game
from services.engine.rules.state import GameState
from services.presentation.locales.bidi import (
    FIRST_STRONG_ISOLATE,
    POP_DIRECTIONAL_ISOLATE,
    RIGHT_TO_LEFT_MARK,
    with_direction,
)
from services.presentation.locales.catalog import LANGUAGES
from services.presentation.rich import Rich
from services.presentation.screens.event_lines import RECENT_MOVES, event_line
from services.presentation.screens.hand import private_hand
from services.presentation.screens.lobby import lobby as lobby_screen
from services.presentation.screens.scores import game_over, round_end
from services.presentation.screens.table import table as table_screen
from tests.helpers.engine_views import engine_view, game_info

GOLDEN = Path(__file__).parent / "golden"
PLAYERS = ["alice", "Bob!", "مریم"]
SEED = 11
#: Moves between two showings of the table and the first player's hand.
SHOW_EVERY = 6
PREFERENCE = ("p", "u", "c", "s", "ch", "a", "d", "k")


def two_sided(info: GameInfo) -> bool:
    """The variant's cards have two sides, as the rules library says."""
    return get_variant(info.variant).double_sided


def _info(state: GameState, status: str) -> GameInfo:
    return game_info(state, status, game_id="G-golden")


def _choice(state: GameState) -> Any:
    assert state.pending is not None
    actions = legal_actions(state, state.pending.player)
    for head in PREFERENCE:
        for action in actions:
            if action.code.split(".")[0] == head:
                return action
    return actions[0]


def chat_transcript(language: str) -> str:
    state, _ = new_game("classic", PLAYERS, Options(target_score=50), seed=SEED)
    out: list[str] = []

    def message(title: str, text: Rich) -> None:
        out.append(f"== {title}")
        out.append(telegram_html(with_direction(language, text)))

    message("lobby", lobby_screen(language, _info(state, "lobby")).text)
    moves: list[list[Rich]] = []  # each write's lines: the table tells the last few whole
    step = 0
    while state.pending is not None:
        if step % SHOW_EVERY == 0:
            info = _info(state, "playing")
            message(
                "table",
                table_screen(
                    language,
                    info,
                    engine_view(state, None),
                    [line for move in moves[-RECENT_MOVES:] for line in move],
                    two_sided=two_sided(info),
                ).text,
            )
            message(
                "alice's hand",
                private_hand(language, info, engine_view(state, 0), "Friday UNO").text,
            )
        result = apply(state, _choice(state))
        assert isinstance(result, Applied)
        state, step = result.state, step + 1
        info = _info(state, "playing" if state.pending is not None else "over")
        moves.append([])
        for event in (e.to_json() for e in result.events if e.to is None):
            line = event_line(language, info, event)
            if line:
                moves[-1].append(line)
                out.append(f"{step}. {telegram_html(with_direction(language, line))}")
            if event["type"] == "round_ended":
                message("round", round_end(language, info, event))
            if event["type"] == "game_over":
                message("game over", game_over(language, info, event))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("language", LANGUAGES)
def test_golden_chat(language: str) -> None:
    text = chat_transcript(language)
    path = GOLDEN / f"chat.{language}.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no golden chat for {language}: create it with UPDATE_GOLDEN=1 and read it")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), "golden", "now", lineterm="", n=1
        )
        pytest.fail(f"chat.{language}.txt differs:\n" + "\n".join(list(diff)[:60]))


def test_the_game_is_played_to_its_end() -> None:
    english = chat_transcript("en")
    assert "== game over" in english and "wins the game!" in english


TAGS = re.compile(r"<[^>]+>")
CONTROLS = dict.fromkeys(
    map(ord, FIRST_STRONG_ISOLATE + POP_DIRECTIONAL_ISOLATE + RIGHT_TO_LEFT_MARK)
)


def test_every_persian_line_is_laid_out_right_to_left_with_names_whole() -> None:
    persian = chat_transcript("fa")
    for line in persian.splitlines():
        text = TAGS.sub("", line.split(". ", 1)[1] if re.match(r"\d+\. ", line) else line)
        if not text.strip() or text.startswith("== "):
            continue
        assert text.startswith(RIGHT_TO_LEFT_MARK), line
        seen = get_display(text).translate(CONTROLS)
        for name in ("alice", "Bob!", "مریم"[::-1]):
            if name.strip("!") in seen:
                assert name in seen, (line, seen)


def test_persian_and_gujarati_chats_use_their_own_words() -> None:
    english = chat_transcript("en")
    for language in ("fa", "gu"):
        other = chat_transcript(language)
        said = "\n".join(line for line in other.splitlines() if not line.startswith("== "))
        words = set(re.findall(r"[A-Za-z]{4,}", TAGS.sub("", said)))
        assert words <= {"alice", "Friday", "golden"}, (language, words - {"alice"})
        assert other != english
