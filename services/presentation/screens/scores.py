"""A round's scores and the game's end, from the ``round_ended`` and ``game_over`` events."""

from __future__ import annotations

from typing import Any

from services.engine.views import GameInfo, round_gains
from services.presentation.i18n import gettext, number, rich_gettext
from services.presentation.rich import Rich, join
from services.presentation.screens.names import listed
from services.presentation.screens.people import seat_name, seat_names


def shown_gains(game: GameInfo, event: dict[str, Any]) -> list[int | None]:
    """What each seat's score line shows it gained in the round (None: nothing), from the
    ``round_ended`` event, whose ``points`` are each seat's own hand: the engine's own
    ``round_gains`` (RULES.md §2 "Scoring"), every seat's with alternate scoring, else the
    winner's alone. No Mercy's knock-out points (250) were scored when the knock-out
    happened and are in ``scores`` already (the event's ``knockouts`` tells them apart),
    and a knocked-out hand counts nothing (its points are 0); Flip's hands count on the
    side in play, as the engine reckoned them."""
    points = [int(p) for p in event.get("points") or []]
    winner = event.get("winner")
    if not (isinstance(winner, int) and 0 <= winner < len(points)):
        return [None] * len(points)
    alternate = bool(game.rules.get("alternate_scoring"))
    gains = round_gains(points, winner, alternate)
    return [g if alternate or seat == winner else None for seat, g in enumerate(gains)]


def gain_text(locale: str | None, gained: int | None, knockouts: int | None) -> str:
    """What a seat gained in the round, after its score: "(+64)"; where knock-outs score
    (``knockouts``: what the seat scored for them this round, None elsewhere), each part
    with what it is for, the hands' cards and the knock-outs (RULES.md §4 "Scoring")."""
    if knockouts is None:
        return f"  (+{number(locale, gained)})" if gained is not None else ""
    parts = []
    if gained is not None:
        parts.append(gettext(locale, "+{n} for the cards left in the other hands", n=gained))
    if knockouts:
        parts.append(gettext(locale, "+{n} for knock-outs", n=knockouts))
    return f"  ({listed(locale, parts)})" if parts else ""


def round_end(locale: str | None, game: GameInfo, event: dict[str, Any]) -> Rich:
    names = seat_names(game)
    lines = [
        "🏁 "
        + rich_gettext(
            locale,
            "Round {n} goes to {name}",
            n=event.get("round"),
            name=seat_name(names, event.get("winner")),
        )
    ]
    gains = shown_gains(game, event)
    scores = event.get("scores") or []
    # Where knock-outs score (No Mercy), what each seat scored for them in the round: the
    # engine's, with the round's end.
    knockouts = event.get("knockouts")
    for seat, name in enumerate(names):
        gained = gains[seat] if seat < len(gains) else None
        total = scores[seat] if seat < len(scores) else 0
        scored = None
        if isinstance(knockouts, list):
            scored = int(knockouts[seat]) if seat < len(knockouts) else 0
        lines.append(
            "   " + name + f": {number(locale, total)}" + gain_text(locale, gained, scored)
        )
    return join("\n", lines)


def game_over(locale: str | None, game: GameInfo, event: dict[str, Any]) -> Rich:
    names = seat_names(game)
    scores = event.get("scores") or []
    lines = [
        "🏆 "
        + rich_gettext(locale, "{name} wins the game!", name=seat_name(names, event.get("winner")))
    ]
    return join("\n", lines + score_lines(locale, game, scores))


def score_lines(locale: str | None, game: GameInfo, scores: list[int]) -> list[Rich]:
    """Each seat's name and score, a line each."""
    return [
        "   " + name + f": {number(locale, scores[seat] if seat < len(scores) else 0)}"
        for seat, name in enumerate(seat_names(game))
    ]
