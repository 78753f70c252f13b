"""A finished game as the engine's event log holds it, for the records tests."""

from __future__ import annotations

from typing import Any

from services.records.writer import GameFacts, SeatFacts

CHAT = -100_555
ANA, BO, CY = 101, 102, 103

#: Ana, Bo, a strong AI and Cy around the table of a Classic game in CHAT.
FACTS = GameFacts(
    chat_id=CHAT,
    topic_id=0,
    variant="classic",
    seats=(
        SeatFacts("Ana", user_id=ANA),
        SeatFacts("Bo", user_id=BO),
        SeatFacts("AI 1", ai="strong"),
        SeatFacts("Cy", user_id=CY),
    ),
)

Entry = tuple[int, list[dict[str, Any]]]


def finished_game(winner: int = 0, final: list[int] | None = None) -> list[Entry]:
    """The entries of a two-round game that ``winner`` wins on ``final`` scores: Bo missed
    two turns (stand-ins), seat 2 was knocked out once; lobby and play entries in between
    carry nothing the records keep."""
    final = final or [0, 0, 0, 0]
    if final == [0, 0, 0, 0]:
        final = [0, 40, 10, 0]
        final[winner] = 520
    return [
        (1, [{"type": "game_created", "host": ANA, "variant": "classic"}]),
        (5, [{"type": "game_started", "players": 4}, {"type": "round_started", "round": 1}]),
        (9, [{"type": "stand_in", "seat": 1}, {"type": "played", "player": 1, "card": "R5"}]),
        (12, [{"type": "knocked_out", "player": 2, "by": None}]),
        (
            20,
            [
                {"type": "played", "player": winner, "card": "B2"},
                {
                    "type": "round_ended",
                    "round": 1,
                    "winner": winner,
                    "points": [0, 30, 10, 0],
                    "scores": [40, 0, 0, 0] if winner == 0 else final,
                    "hands": [],
                },
                {"type": "round_started", "round": 2},
            ],
        ),
        (24, [{"type": "stand_in", "seat": 1}, {"type": "drew", "player": 1, "count": 1}]),
        (
            31,
            [
                {
                    "type": "round_ended",
                    "round": 2,
                    "winner": winner,
                    "points": [0, 40, 10, 0],
                    "scores": final,
                    "hands": [],
                },
                {"type": "game_over", "winner": winner, "scores": final},
            ],
        ),
    ]
