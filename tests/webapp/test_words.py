"""The Mini App's words are the chat's own screens read as plain text: a name comes through
as its person wrote it (markup-looking characters and all, never escaped), a mention as
the name alone, and the isolates round it kept for a right-to-left page."""

from __future__ import annotations

from services.engine.rules import new_game
from services.presentation.screens.hand import why_line
from services.webapp.words import view_words, with_moves
from tests.helpers.engine_views import engine_view, game_info

NAME = "<b>Ann</b> & Co"


def test_a_name_reads_as_written_and_a_mention_as_the_name() -> None:
    state, _ = new_game("classic", [NAME, "Bo"], seed=3)  # the first to play: NAME
    assert state.pending is not None and state.pending.player == 0
    info = game_info(state)
    words = view_words("en", info, engine_view(state, 1))
    # The chat's owing line mentions the player (a link to them); the page reads the name.
    assert words["owing"] == f"▶ \u2068{NAME}\u2069 · to play · ⏱ 60s"
    assert "&lt;" not in repr(words) and "&amp;" not in repr(words) and "href" not in repr(words)
    waiting = why_line("en", info, engine_view(state, 1)).plain
    assert waiting == f"waiting for \u2068{NAME}\u2069"


def test_a_move_s_line_names_its_player_as_written() -> None:
    state, _ = new_game("classic", [NAME, "Bo"], seed=3)
    info = game_info(state)
    words = with_moves({}, "en", info, [{"event": {"type": "drew", "player": 0, "count": 2}}])
    assert words["lines"] == [f"\u2068{NAME}\u2069 drew 2"]
