"""Plain-text rendering of views and events, and seeded game transcripts.

``render_view`` and ``render_event`` turn what a player (or a spectator) may see into short
terminal lines; they read only ``View`` and ``Event`` values, so they show nothing a view
does not.  ``play_transcript`` plays one whole seeded game with a tiny fixed policy and
prints every event and, after every action, the table as the spectator sees it and what
each player sees privately: the golden transcripts of the tests are made with it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .actions import Action, ActionType
from .engine import Applied, apply, legal_actions
from .events import Event, EventType
from .setup import new_game
from .state import GameState, Options
from .view import SeatView, View, addressee, as_seen, events_for, view

# -- views ------------------------------------------------------------------------------------


def _seat_name(names: Sequence[str] | None, seat: Any) -> str:
    if isinstance(seat, int) and names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"#{seat}"


def _seat_text(seat: SeatView, current: int | None) -> str:
    marks = []
    if seat.declared_uno:
        marks.append("UNO")
    if seat.knocked_out:
        marks.append("out")
    if seat.frozen:
        marks.append("frozen")
    text = f"{'>' if seat.seat == current else ''}{seat.name} {seat.cards}"
    if marks:
        text += " " + " ".join(marks)
    if seat.back_faces is not None:
        text += " [" + " ".join(seat.back_faces) + "]"
    return text


def render_table(v: View) -> str:
    """The public line: round, top card and colour, piles, direction and who owes what."""
    names = [s.name for s in v.seats]
    parts = [f"round {v.round}", f"v{v.version}"]
    if v.side != "light":
        parts.append(f"{v.side} side")
    top = v.top if v.color is None or v.top.startswith(v.color) else f"{v.top}→{v.color}"
    parts += [f"top {top}", f"draw {v.draw_pile}", f"discard {v.discard_pile}"]
    if v.draw_pile_back is not None:
        parts.append(f"draw-pile back {v.draw_pile_back}")
    parts.append("clockwise" if v.direction == 1 else "anticlockwise")
    if v.uno_window is not None:
        parts.append(f"UNO window on {_seat_name(names, v.uno_window)}")
    if v.winner is not None:
        parts.append(f"winner {_seat_name(names, v.winner)}")
    elif v.pending is not None:
        owed = v.pending.kind.value.replace("_", " ")
        if v.pending.amount:
            owed += f" {v.pending.amount}"
        parts.append(f"{_seat_name(names, v.pending.player)} owes {owed}")
    return " · ".join(parts)


def render_seats(v: View) -> str:
    """Every seat with its card count (and UNO Flip's visible backs), then the scores."""
    current = v.pending.player if v.pending is not None else None
    seats = " · ".join(_seat_text(s, current) for s in v.seats)
    scores = "/".join(str(s.score) for s in v.seats)
    return f"{seats} · scores {scores} of {v.target_score}"


def render_private(v: View) -> str:
    """What only this viewer sees: their hand, what they may do, a hand shown to them."""
    if v.viewer is None:
        return ""
    line = f"hand {' '.join(v.hand) or '-'}"
    if v.legal:
        line += f" · may {' '.join(v.legal_codes)}"
    if v.reveal_of is not None:
        names = [s.name for s in v.seats]
        line += f" · sees {_seat_name(names, v.reveal_of)}'s hand {' '.join(v.reveal) or '-'}"
    return line


def render_view(v: View) -> str:
    """A view in a few lines: the table, the seats, and (for a player) their own part."""
    lines = [render_table(v), render_seats(v)]
    private = render_private(v)
    if private:
        lines.append(private)
    return "\n".join(lines)


# -- events -----------------------------------------------------------------------------------


def _cards(data: dict[str, Any], key: str = "cards") -> str:
    items = data.get(key) or []
    return " ".join(str(c) for c in items) or "-"


_EventText = Callable[[dict[str, Any], Callable[[Any], str]], str]

_EVENT_TEXT: dict[EventType, _EventText] = {
    EventType.ROUND_STARTED: lambda d, n: f"round {d.get('round')} dealt by {n(d.get('dealer'))}",
    EventType.FIRST_CARD: lambda d, n: f"first card {d.get('card')}",
    EventType.PLAYED: lambda d, n: f"{n(d.get('player'))} plays {d.get('card')}",
    EventType.DREW: lambda d, n: f"{n(d.get('player'))} draws {d.get('count')}",
    EventType.DREW_CARDS: lambda d, n: f"{n(d.get('player'))} gets {_cards(d)}",
    EventType.KEPT: lambda d, n: f"{n(d.get('player'))} keeps the drawn card",
    EventType.COLOR_CHOSEN: lambda d, n: f"{n(d.get('player'))} names {d.get('color')}",
    EventType.SKIPPED: lambda d, n: f"{n(d.get('player'))} is skipped",
    EventType.REVERSED: lambda d, n: (
        "play goes " + ("clockwise" if d.get("direction") == 1 else "anticlockwise")
    ),
    EventType.FLIPPED: lambda d, n: (
        f"everything flips to the {d.get('side')} side, top {d.get('top')}"
    ),
    EventType.CHALLENGED: lambda d, n: (
        f"{n(d.get('player'))} challenges {n(d.get('target'))}: "
        + ("guilty" if d.get("guilty") else "innocent")
    ),
    EventType.CHALLENGE_REVEAL: lambda d, n: f"{n(d.get('target'))}'s hand is {_cards(d)}",
    EventType.UNO_CALLED: lambda d, n: f"{n(d.get('player'))} calls UNO",
    EventType.UNO_WINDOW_OPENED: lambda d, n: f"{n(d.get('player'))} has one card, no UNO called",
    EventType.UNO_WINDOW_CLOSED: lambda d, n: f"too late to catch {n(d.get('player'))}",
    EventType.CAUGHT: lambda d, n: f"{n(d.get('player'))} catches {n(d.get('target'))}",
    EventType.FALSE_CATCH: lambda d, n: (
        f"{n(d.get('player'))} wrongly tries to catch {n(d.get('target'))}"
    ),
    EventType.RESHUFFLED: lambda d, n: f"discards reshuffled into a draw pile of {d.get('size')}",
    EventType.DRAW_STOPPED_SHORT: lambda d, n: f"no cards left for {n(d.get('player'))} to draw",
    EventType.STACKED: lambda d, n: f"{n(d.get('player'))} stacks, total {d.get('total')}",
    EventType.SWAPPED: lambda d, n: f"{n(d.get('player'))} swaps hands with {n(d.get('target'))}",
    EventType.HANDS_ROTATED: lambda d, n: "every hand passes on",
    EventType.KNOCKED_OUT: lambda d, n: f"{n(d.get('player'))} is knocked out",
    EventType.UNFROZEN: lambda d, n: f"{n(d.get('player'))} is no longer frozen",
    EventType.FROZEN_PENALTY: lambda d, n: f"{n(d.get('player'))} moved while frozen",
    EventType.TURN: lambda d, n: f"{n(d.get('player'))}'s turn",
    EventType.ROUND_ENDED: lambda d, n: (
        f"round {d.get('round')} won by {n(d.get('winner'))}; points "
        + "/".join(str(p) for p in d.get("points", []))
        + "; scores "
        + "/".join(str(s) for s in d.get("scores", []))
        + "; hands "
        + " | ".join(" ".join(h) or "-" for h in d.get("hands", []))
    ),
    EventType.GAME_OVER: lambda d, n: (
        f"game over: {n(d.get('winner'))} wins; scores "
        + "/".join(str(s) for s in d.get("scores", []))
    ),
}


def render_event(event: Event, names: Sequence[str] | None = None) -> str:
    """One line for one event; a private one says whom it is for."""

    def name(seat: Any) -> str:
        return _seat_name(names, seat)

    text = _EVENT_TEXT.get(event.type)
    if text is not None:
        line = text(event.data, name)
    else:
        # Events without a line of their own (No Mercy's and Minions') read well enough
        # as their type and data.
        details = " ".join(f"{k}={v}" for k, v in event.data.items())
        line = f"{event.type.value.replace('_', ' ')} {details}".strip()
    to = addressee(event)
    if to is not None:
        line = f"(to {name(to)}) {line}"
    return line


# -- transcripts ------------------------------------------------------------------------------

# The order in which the transcript's policy prefers kinds of action: always call UNO,
# play when possible, draw only when stuck, never challenge.
_PREFERENCE = (
    ActionType.CALL_UNO,
    ActionType.PLAY,
    ActionType.CHOOSE_COLOR,
    ActionType.SWAP,
    ActionType.ACCEPT,
    ActionType.DRAW,
    ActionType.PASS,
)


def _policy_action(state: GameState, rng: random.Random) -> Action:
    assert state.pending is not None
    actions = legal_actions(state, state.pending.player)
    for kind in _PREFERENCE:
        choices = [a for a in actions if a.type is kind]
        if choices:
            return rng.choice(choices)
    return rng.choice(actions)


def play_transcript(
    variant: str,
    players: Sequence[str] | int,
    seed: int,
    options: Options | None = None,
    max_actions: int = 5000,
) -> str:
    """Play one whole seeded game and write down everything each seat saw: after every
    action, its events, the spectator's view and each player's private part (printed
    again only when it changed, and always for the player who owes the next decision)."""
    names = [f"P{i}" for i in range(players)] if isinstance(players, int) else list(players)
    state, events = new_game(variant, names, options, seed=seed)
    rng = random.Random(f"transcript:{seed}")
    lines = [f"# {variant}, {len(names)} players ({', '.join(names)}), seed {seed}"]
    if options is not None and options != Options():
        lines.append(f"# options: {options}")

    shown: dict[int, str] = {}

    def write(head: str, events: Sequence[Event]) -> None:
        # The public events on the action's own line, each private one on a line of its
        # own, then the table as the spectator sees it, then each player's private part
        # where it changed (the owing player's always).
        public = [render_event(e, names) for e in events_for(events, None)]
        lines.append(f"{head} {' · '.join(public)}" if head else "  " + " · ".join(public))
        lines.extend("    " + render_event(e, names) for e in events if addressee(e) is not None)
        spectator = view(state, None)
        lines.append(f"    = {render_table(spectator)} | {render_seats(spectator)}")
        owing = state.pending.player if state.pending is not None else None
        for seat, name in enumerate(names):
            private = render_private(view(state, seat))
            if private != shown.get(seat) or seat == owing:
                shown[seat] = private
                lines.append(f"    {name}: {private}")

    write("", events)
    count = 0
    while state.pending is not None:
        if count == max_actions:
            lines.append(f"# stopped after {max_actions} actions")
            break
        action = _policy_action(state, rng)
        code = as_seen(action, state.side).code  # UNO Flip's other face stays hidden
        result = apply(state, action)
        assert isinstance(result, Applied), f"{action}: {result}"
        count += 1
        state = result.state
        who = names[action.player] if action.player is not None else "system"
        write(f"{count}. {who} {code}:", result.events)
    return "\n".join(lines) + "\n"
