"""The text renderer of views and events (``services.engine.rules.transcript``): it shows what
a view shows and nothing more."""

from __future__ import annotations

from services.engine.rules import Event, EventType, view
from services.engine.rules.actions import challenge, choose_color, play
from services.engine.rules.transcript import (
    play_transcript,
    render_event,
    render_private,
    render_view,
)
from tests.helpers.rules import after, ok, table


def test_render_view_of_a_player_shows_their_hand_and_choices_only() -> None:
    state = table(
        ["R1 G2 W", "B1 B2", "Y3 Y4"], discard="R5", current=0, names=["Ana", "Ben", "Cy"]
    )
    text = render_view(view(state, 0))
    assert "hand R1 G2 W" in text
    assert "may p.R1 p.W d" in text
    assert "B1" not in text and "Y3" not in text
    assert len(text.splitlines()) == 3
    spectator = render_view(view(state, None))
    assert len(spectator.splitlines()) == 2
    assert "R1" not in spectator and "hand" not in spectator
    assert ">Ana 3" in spectator and "Ben 2" in spectator
    assert "Ana owes turn" in spectator


def test_render_view_shows_a_challenged_hand_to_the_challenger_only() -> None:
    """RULES.md §2 "Challenge": the hand is shown to the challenger only."""
    state = table(
        ["W+4 G1 R2", "B1 B2", "G3 G4"],
        discard="G5",
        draw_pile="Y1 Y2 Y3 Y4",
        current=0,
        names=["Ana", "Ben", "Cy"],
    )
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    result = ok(state, challenge(1))
    assert "sees Ana's hand G1 R2" in render_private(view(result.state, 1))
    for other in (0, 2, None):
        assert "sees" not in render_view(view(result.state, other))
    lines = [render_event(e, ["Ana", "Ben", "Cy"]) for e in result.events]
    assert "Ben challenges Ana: guilty" in lines
    assert "(to Ben) Ana's hand is G1 R2" in lines


def test_render_event_names_seats_and_marks_private_events() -> None:
    assert render_event(Event(EventType.PLAYED, {"player": 1, "card": "R5"})) == "#1 plays R5"
    private = Event(EventType.DREW_CARDS, {"player": 0, "cards": ["R5", "W"]}, to=0)
    assert render_event(private, ["Ana"]) == "(to Ana) Ana gets R5 W"


def test_render_event_falls_back_to_type_and_data() -> None:
    """Events without a dedicated line (newer variants) still render."""
    event = Event(EventType.ROULETTE, {"player": 2, "color": "R"})
    assert render_event(event) == "roulette player=2 color=R"


def test_play_transcript_is_a_whole_game_of_reasonable_length() -> None:
    text = play_transcript("classic", 3, 11)
    lines = text.splitlines()
    assert lines[0] == "# classic, 3 players (P0, P1, P2), seed 11"
    assert any("game over" in line for line in lines[-6:])
    assert len(lines) < 8000
