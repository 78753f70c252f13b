"""RULES.md §3 "What is visible" (UNO Flip): what each player's view and events show.

Every player sees the other side of every opponent's card and of the draw pile's top card,
and nothing else of the hidden sides; a player never sees the hidden side of their own
cards — not in their hand, their action codes, or any event.  Also: flip states survive
``legal_actions``, ``view`` and the JSON round-trip.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from services.engine.rules import (
    Applied,
    Event,
    EventType,
    GameState,
    PendingKind,
    Side,
    apply,
    events_for,
    from_json,
    legal_actions,
    new_game,
    to_json,
    view,
)
from services.engine.rules.actions import challenge, choose_color, draw, play
from services.engine.rules.cards import Color, Kind, parse_face
from tests.helpers.rules import after, ok, table

HANDS = ["RF/T6 G2/V8 B7/P1", "Y3/O+5 B4/P+5", "G7/V1 B9/P2 W+2/W"]


def flip_table(**kw: Any) -> GameState:
    return table(
        HANDS,
        discard="R5/TR Y5/OR G9/V2",
        draw_pile="B1/P7 Y8/O1 G+1/V3",
        variant="flip",
        current=0,
        **kw,
    )


# -- the view --------------------------------------------------------------------------------


def test_s3_visible_opponents_back_faces_and_the_draw_piles_top_back() -> None:
    """RULES.md §3 "What is visible" [digital]: each view shows the opponents' hidden-side
    faces and the draw pile's top hidden-side face; the viewer's own seat shows none."""
    state = flip_table()
    seen = view(state, 0)
    assert seen.side == "light"
    assert seen.hand == ("RF", "G2", "B7")
    assert [s.back_faces for s in seen.seats] == [None, ("O+5", "P+5"), ("V1", "P2", "W")]
    assert seen.draw_pile_back == "P7"
    spectator = view(state, None)
    assert [s.back_faces for s in spectator.seats] == [
        ("T6", "V8", "P1"),
        ("O+5", "P+5"),
        ("V1", "P2", "W"),
    ]
    assert spectator.hand == ()


def test_s3_visible_after_a_flip_the_light_faces_are_the_backs() -> None:
    state = after(flip_table(), play(0, "RF"))
    seen = view(state, 1)
    assert seen.side == "dark"
    assert seen.top == "V2"
    assert seen.hand == ("O+5", "P+5")
    assert [s.back_faces for s in seen.seats] == [("G2", "B7"), None, ("G7", "B9", "W+2")]
    assert seen.draw_pile_back == "G+1"


def test_s3_visible_no_draw_pile_back_when_the_pile_is_empty() -> None:
    state = table(["R1/T7 R2/T8", "G7/V1"], discard="R5/TR", variant="flip", current=0)
    assert view(state, 0).draw_pile_back is None


def test_s3_visible_never_the_hidden_side_of_your_own_cards() -> None:
    """RULES.md §3 "What is visible": hands are held with the side in play toward their
    owner.  Own hand and own action codes name only the face in play; no code in the view
    is written light/dark."""
    state = flip_table()
    for seat in range(3):
        seen = view(state, seat)
        assert seen.seats[seat].back_faces is None
        assert seen.hand == tuple(c.face(Side.LIGHT).code for c in state.hand(seat))
        text = json.dumps(seen.to_json())
        assert "/" not in text
    seen = view(state, 0)
    assert [code for code in seen.legal_codes if code.startswith("p.")] == ["p.RF"]


def test_s3_visible_two_cards_alike_on_the_side_in_play_are_one_choice() -> None:
    """A player cannot tell apart two cards that differ only on their hidden side, so they
    are one choice, and the one-sided code plays the first such card in the hand."""
    state = table(["R1/T7 R1/T8 G2/V8", "G7/V1"], discard="R5/TR", variant="flip", current=0)
    assert view(state, 0).legal_codes.count("p.R1") == 1
    plays = [a for a in legal_actions(state, 0) if a.card is not None]
    assert len(plays) == 1
    after_play = ok(state, play(0, "R1")).state
    assert [c.code for c in after_play.hand(0)] == ["R1/T8", "G2/V8"]


# -- events ------------------------------------------------------------------------------


def test_s3_visible_drawn_cards_are_told_face_in_play_only() -> None:
    """A drawn card joins the hand the same way round: the drawer is told its face in play."""
    result = ok(flip_table(), draw(0))
    drew = [e for e in result.events if e.type is EventType.DREW_CARDS]
    assert [(e.to, e.data["cards"]) for e in drew] == [(0, ["B1"])]
    dark = ok(flip_table(side="dark"), draw(0))
    drew = [e for e in dark.events if e.type is EventType.DREW_CARDS]
    assert [(e.to, e.data["cards"]) for e in drew] == [(0, ["P7"])]


def test_s3_visible_challenge_reveal_and_round_end_show_the_face_in_play() -> None:
    """The challenged hand is shown to the challenger face in play (they see its backs
    anyway); a round's end shows every hand face in play."""
    state = table(
        ["W+2/W R2/T8 G2/V8", "Y3/O+5", "G7/V1"],
        discard="R5/TR",
        draw_pile="B1/P7 Y8/O1",
        variant="flip",
        current=0,
    )
    state = after(state, play(0, "W+2"), choose_color(0, "Y"))
    result = ok(state, challenge(1))
    reveal = [e for e in result.events if e.type is EventType.CHALLENGE_REVEAL]
    assert [(e.to, e.data["cards"]) for e in reveal] == [(1, ["R2", "G2"])]
    assert view(result.state, 1).reveal == ("R2", "G2")
    ended = ok(
        table(
            ["R2/T8", "Y3/O+5", "G7/V1"], discard="R9/T3", variant="flip", side="dark", current=0
        ),
        play(0, "T8"),
    )
    end = next(e for e in ended.events if e.type is EventType.ROUND_ENDED)
    assert end.data["hands"] == [[], ["O+5"], ["V1"]]


CODE = re.compile(r"^(W\S*|[RYGBPTOV](\d|\+\d|S|R|F|SE|DA))$")


def face_codes(value: object) -> list[str]:
    """Every string in an event's data that reads as a card face code."""
    if isinstance(value, str):
        return [value] if CODE.match(value) else []
    if isinstance(value, dict):
        return [code for v in value.values() for code in face_codes(v)]
    if isinstance(value, list | tuple):
        return [code for v in value for code in face_codes(v)]
    return []


def side_of(code: str) -> Side | None:
    """The side a face code belongs to (None for W, which both sides have)."""
    face = parse_face(code)
    if face.color is not None:
        return Side.LIGHT if face.color in Side.LIGHT.colors else Side.DARK
    if face.kind is Kind.WILD_DRAW2:
        return Side.LIGHT
    if face.kind is Kind.WILD_DRAW_COLOR:
        return Side.DARK
    return None


def check_events_name_the_side_in_play(events: tuple[Event, ...], side: Side) -> Side:
    """Walk the events in order (a FLIPPED event changes the side in play, a new round
    starts light): every card code in them belongs to the side in play then."""
    for event in events:
        if event.type is EventType.ROUND_STARTED:
            side = Side.LIGHT
        if event.type is EventType.FLIPPED:
            side = Side.DARK if event.data["side"] == "dark" else Side.LIGHT
        assert "/" not in json.dumps(event.to_json()), event
        for code in face_codes(event.data):
            assert side_of(code) in (None, side), (event, side)
    return side


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_s3_visible_random_games_never_leak_a_hidden_side(seed: int) -> None:
    """Random play: no event and no view ever writes a card light/dark or names a face of
    the side not in play (except the opponents' backs and the draw pile's top back, which
    are exactly the hidden faces of those cards).  Flip states survive ``to_json`` /
    ``from_json`` and every decision owed has a legal action."""
    rng = random.Random(seed)
    state, events = new_game("flip", ["A", "B", "C"], seed=seed)
    side = check_events_name_the_side_in_play(events, Side.LIGHT)
    flips = 0
    for _ in range(400):
        if state.pending is None:
            break
        assert from_json(json.loads(json.dumps(to_json(state)))) == state
        player = state.pending.player
        actions = legal_actions(state, player)
        assert actions
        for viewer in (*range(3), None):
            seen = view(state, viewer)
            assert "/" not in json.dumps(seen.to_json())
            for seat in seen.seats:
                if seat.seat == viewer:
                    assert seat.back_faces is None
                    continue
                hidden = tuple(
                    c.face(Side.DARK if state.side is Side.LIGHT else Side.LIGHT).code
                    for c in state.hand(seat.seat)
                )
                assert seat.back_faces == hidden
            for code in seen.hand:
                assert side_of(code) in (None, state.side)
            plays = [code[2:] for code in seen.legal_codes if code.startswith("p.")]
            for code in [*plays, seen.top]:
                assert side_of(code) in (None, state.side)
        result = apply(state, rng.choice(actions))
        assert isinstance(result, Applied)
        flips += sum(e.type is EventType.FLIPPED for e in result.events)
        side = check_events_name_the_side_in_play(result.events, side)
        assert side is result.state.side
        for viewer in (*range(3), None):
            for event in events_for(result.events, viewer):
                assert event.to in (None, viewer)
        state = result.state
    assert flips > 0


def test_s3_json_round_trip_of_a_flip_awaiting_its_colour() -> None:
    """A dark state owing the F player's colour choice survives the JSON round-trip."""
    state = table(
        HANDS,
        discard="R5/TR Y5/OR W+2/W",
        draw_pile="B1/P7 Y8/O1",
        variant="flip",
        current=0,
    )
    state = after(state, play(0, "RF"))
    assert state.pending is not None and state.pending.kind is PendingKind.CHOOSE_COLOR
    again = from_json(json.loads(json.dumps(to_json(state))))
    assert again == state
    assert again.side is Side.DARK
    assert legal_actions(again, 0) == legal_actions(state, 0)
    assert view(again, 1) == view(state, 1)
    chosen = after(again, choose_color(0, "T"))
    assert chosen.color is Color.TEAL
