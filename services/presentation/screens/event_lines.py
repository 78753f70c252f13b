"""What happened, in words: a public event of the engine's log as a short line, and the
event types each part of the chat shows (the one place they are listed). Every line names
people, so every message here is rich text (``i18n.rich_gettext``: the names keep their
looks)."""

from __future__ import annotations

from typing import Any

from services.engine.views import GameInfo
from services.presentation.cards import COLOR_SQUARES, face_label
from services.presentation.i18n import rich_gettext as gettext
from services.presentation.i18n import rich_ngettext as ngettext
from services.presentation.rich import Rich
from services.presentation.screens.people import seat_name, seat_names

#: How many of the last moves the table tells, each whole: a move is one write of the
#: game, with every line it has (a +2 and the draw it forced are two). Counted in lines, a
#: table write that carries two such moves at once (a write held for the next move, in a
#: group past its budget) would leave the first one's card out, and no table would ever
#: tell it.
RECENT_MOVES = 3
#: Besides those, every move since the table's last write is told (a write held for the
#: group's budget can carry several: each change of a hand's size has its line), up to
#: this many moves in all.
MOVES_KEPT_MOST = 12
#: The most events of one move kept to tell it (its last ones).
MOVE_EVENTS_KEPT = 6

#: Public events the table's "last moves" line tells (``event_line`` has words for them).
MOVE_EVENTS = frozenset(
    {
        "first_card",
        "skipped",
        "played",
        "drew",
        "kept",
        "color_chosen",
        "challenged",
        "uno_called",
        "caught",
        "false_catch",
        "stacked",
        "swapped",
        "hands_rotated",
        "knocked_out",
        "frozen",
        "frozen_penalty",
        "flipped",
        "roulette",
        "discarded_all",
        "stand_in",
        "player_away",
        "player_back",
        "player_left",
    }
)

#: Move events with no line of their own: a first card is told by what it does, a skip
#: only when the first card did it (``event_lines``).
TOLD_WITH_THE_EVENT_BEFORE = frozenset({"first_card", "skipped"})

#: Public events that are messages of their own, each sent once: a round's scores, the
#: game's end, a Dumb Fu penalty's reason (``scores``, ``notices``).
NOTICE_EVENTS = ("round_ended", "game_over", "game_ended", "frozen_penalty")

#: Writes whose only news is something going away (the UNO window's buttons): a group's
#: budget (20 messages a minute) is kept for moves, so such a write is shown at once only
#: while a slot beyond the next move's is free, else with the next change or once the
#: budget has that room. A press on a button still shown meanwhile is refused by the engine
#: as out of date, so nothing is lost by the wait.
QUIET_EVENTS = frozenset({"uno_window_closed"})


def event_line(locale: str | None, game: GameInfo, event: dict[str, Any]) -> Rich | None:
    """A public event as a short line for the table's "last moves"; None for the ones the
    table shows by itself (whose turn, a window opening ...)."""
    names = seat_names(game)

    def n(key: str = "player") -> Rich | str:
        return seat_name(names, event.get(key))

    kind = event.get("type")
    if kind == "played":
        return gettext(
            locale,
            "{name} played {card}",
            name=n(),
            card=face_label(locale, str(event.get("card"))),
        )
    if kind == "drew":
        return ngettext(
            locale, "{name} drew {n}", "{name} drew {n}", int(event.get("count", 0)), name=n()
        )
    if kind == "kept":
        return gettext(locale, "{name} kept the drawn card", name=n())
    if kind == "color_chosen":
        return gettext(
            locale,
            "{name} chose {color}",
            name=n(),
            color=COLOR_SQUARES.get(str(event.get("color")), "?"),
        )
    if kind == "challenged":
        if event.get("guilty"):
            return gettext(
                locale, "{name} challenged {target}: guilty", name=n(), target=n("target")
            )
        return gettext(locale, "{name} challenged {target}: innocent", name=n(), target=n("target"))
    if kind == "uno_called":
        return gettext(locale, "{name} called UNO!", name=n())
    if kind == "caught":
        return gettext(locale, "{name} caught {target}: +2", name=n(), target=n("target"))
    if kind == "false_catch":
        return gettext(locale, "{name} tried to catch {target}", name=n(), target=n("target"))
    if kind == "stacked":
        return gettext(locale, "{name} stacked on +{n}", name=n(), n=event.get("total"))
    if kind == "swapped":
        return gettext(locale, "{name} swapped hands with {target}", name=n(), target=n("target"))
    if kind == "hands_rotated":
        return gettext(locale, "every hand passed on")
    if kind == "knocked_out":
        points = event.get("points")
        if isinstance(event.get("by"), int) and isinstance(points, int) and points > 0:
            # RULES.md §4 "Scoring": the knock-out scores at once, for whoever caused it.
            return gettext(
                locale,
                "☠ {name} holds 25 cards or more: knocked out by the mercy rule; "
                "{scorer} scores {n}",
                name=n(),
                scorer=n("by"),
                n=points,
            )
        return gettext(
            locale, "☠ {name} holds 25 cards or more: knocked out by the mercy rule", name=n()
        )
    if kind == "frozen":
        return gettext(locale, "{name} is frozen by Dumb Fu 🧊", name=n())
    if kind == "frozen_penalty":
        return gettext(locale, "{name} moved while frozen: +4", name=n())
    if kind == "flipped":
        return gettext(locale, "everything flipped ⤵")
    if kind == "roulette":
        return ngettext(
            locale,
            "{name} turned up {n} card in the roulette",
            "{name} turned up {n} cards in the roulette",
            len(event.get("cards") or []),
            name=n(),
        )
    if kind == "discarded_all":
        return gettext(
            locale,
            "{name} discarded all {color}",
            name=n(),
            color=COLOR_SQUARES.get(str(event.get("color")), "?"),
        )
    if kind == "stand_in":
        # Events older than the field were all for a deadline passed.
        if event.get("timed_out", True):
            return gettext(locale, "💤 {name} is out of time; AI plays for them", name=n("seat"))
        return gettext(locale, "🤖 AI plays for {name}", name=n("seat"))
    if kind == "player_away":
        return gettext(locale, "{name} is away; AI plays for them", name=n("seat"))
    if kind == "player_back":
        return gettext(locale, "{name} is back", name=n("seat"))
    if kind == "player_left":
        return gettext(locale, "{name} left; AI plays for them", name=n("seat"))
    return None


def event_lines(locale: str | None, game: GameInfo, events: list[dict[str, Any]]) -> list[Rich]:
    """The lines of those ``events`` that have one, in order. Two read with the event
    before them: a stack and its card are one line, and a skip is told only when the first
    card turned up did it (a skip card played says it by itself)."""
    names = seat_names(game)
    lines: list[Rich] = []
    previous: dict[str, Any] = {}
    for event in events:
        kind, before = event.get("type"), previous.get("type")
        line: Rich | None
        if (
            kind == "played"
            and before == "stacked"
            and previous.get("player") == event.get("player")
        ):
            lines.pop()  # the stack's own line: this one says it with the card
            line = gettext(
                locale,
                "{name} stacked {card} on +{n}",
                name=seat_name(names, event.get("player")),
                card=face_label(locale, str(event.get("card"))),
                n=previous.get("total"),
            )
        elif kind == "skipped":
            line = None
            if before == "first_card":
                line = gettext(
                    locale,
                    "the first card skips {name}",
                    name=seat_name(names, event.get("player")),
                )
        else:
            line = event_line(locale, game, event)
        if line:
            lines.append(line)
        previous = event
    return lines
