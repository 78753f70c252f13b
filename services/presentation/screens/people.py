"""People as a screen names them: a seat's name as rich text, isolated so a right-to-left
name keeps the line in order, and mentioning its person where the screen asks for it."""

from __future__ import annotations

from collections.abc import Sequence

import services.presentation.rich as rich
from services.engine.views import GameInfo, SeatInfo
from services.presentation.locales.bidi import isolate
from services.presentation.rich import Rich, as_rich


def person(seat: SeatInfo, *, mention: bool = False) -> Rich:
    """A seat's name, isolated once here (a message it fills in does not isolate it
    again); ``mention``: naming its person (a front may link them)."""
    name = isolate(seat.name)
    if mention and seat.user_id is not None:
        return rich.mention(name, seat.user_id)
    return as_rich(name)


def seat_names(game: GameInfo) -> list[Rich]:
    return [person(s) for s in game.seats]


def seat_name(names: Sequence[Rich], seat: object) -> Rich | str:
    """The name of ``seat`` (an event's field) among ``names``; "?" for none of them (plain
    text: isolated like any value where it fills a message)."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
