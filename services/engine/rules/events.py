"""What happened, for rendering: each event is public or addressed to one player.

Events are redacted through the same door as views (``view.events_for``): a private event
reaches only its addressee; its public twin (e.g. "Ana drew 3") reaches everyone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class EventType(StrEnum):
    ROUND_STARTED = "round_started"
    FIRST_CARD = "first_card"
    PLAYED = "played"
    DREW = "drew"  # public: who drew how many
    DREW_CARDS = "drew_cards"  # private: which cards
    KEPT = "kept"
    COLOR_CHOSEN = "color_chosen"
    SKIPPED = "skipped"
    REVERSED = "reversed"
    FLIPPED = "flipped"
    CHALLENGED = "challenged"
    CHALLENGE_REVEAL = "challenge_reveal"  # private to the challenger: the hand
    UNO_CALLED = "uno_called"
    UNO_WINDOW_OPENED = "uno_window_opened"
    UNO_WINDOW_CLOSED = "uno_window_closed"
    CAUGHT = "caught"
    FALSE_CATCH = "false_catch"
    RESHUFFLED = "reshuffled"
    DRAW_STOPPED_SHORT = "draw_stopped_short"
    STACKED = "stacked"
    SWAPPED = "swapped"
    HANDS_ROTATED = "hands_rotated"
    DISCARDED_ALL = "discarded_all"
    ROULETTE = "roulette"
    KNOCKED_OUT = "knocked_out"
    FROZEN = "frozen"
    UNFROZEN = "unfrozen"
    FROZEN_PENALTY = "frozen_penalty"
    TURN = "turn"
    ROUND_ENDED = "round_ended"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Event:
    type: EventType
    data: dict[str, Any] = field(default_factory=dict)
    to: int | None = None  # None: public; else the only seat that may see it

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type.value, **self.data}
        if self.to is not None:
            out["to"] = self.to
        return out
