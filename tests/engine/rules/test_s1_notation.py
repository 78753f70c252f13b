"""RULES.md §1 "Card notation": every card code parses and prints back the same, malformed
codes are refused with a clear error, and action codes round-trip."""

from __future__ import annotations

import pytest

from services.engine.rules import (
    Action,
    ActionType,
    Color,
    Kind,
    NotationError,
    Setup,
    SetupError,
    card,
    cards,
    from_setup,
)
from services.engine.rules.actions import (
    accept,
    call_uno,
    catch,
    challenge,
    choose_color,
    close_uno_window,
    draw,
    frozen_moved,
    keep,
    play,
    swap,
)

COLORS = [c.value for c in Color]
COLORED_SYMBOLS = [k.value for k in Kind if not k.is_wild]
WILD_SYMBOLS = [k.value for k in Kind if k.is_wild]


def test_s1_every_colour_and_symbol_of_the_notation_exists() -> None:
    """RULES.md §1: colours R Y G B and P T O V; symbols 0-9 S R +1 +2 +4 +5 F SE DA and the
    wild faces W W+4 W+2 WDC WR+4 W+6 W+10 WCR W+3 WDF."""
    assert sorted(COLORS) == sorted("RYGBPTOV")
    assert sorted(COLORED_SYMBOLS) == sorted(
        [str(i) for i in range(10)] + ["S", "R", "+1", "+2", "+4", "+5", "F", "SE", "DA"]
    )
    assert sorted(WILD_SYMBOLS) == sorted(
        ["W", "W+4", "W+2", "WDC", "WR+4", "W+6", "W+10", "WCR", "W+3", "WDF"]
    )


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("symbol", COLORED_SYMBOLS)
def test_s1_coloured_face_round_trips(color: str, symbol: str) -> None:
    """RULES.md §1: a coloured face is colour + symbol."""
    code = color + symbol
    c = card(code)
    assert c.code == code
    assert c.light.color == Color(color)
    assert c.light.kind == Kind(symbol)
    assert c.dark is None


@pytest.mark.parametrize("symbol", WILD_SYMBOLS)
def test_s1_wild_face_round_trips(symbol: str) -> None:
    """RULES.md §1: wild faces have no colour."""
    c = card(symbol)
    assert c.code == symbol
    assert c.light.color is None
    assert c.light.kind.is_wild


@pytest.mark.parametrize("code", ["R5/PSE", "Y+1/T+5", "W/WDC", "B9/W+2", "GF/OF", "W+2/VR"])
def test_s1_flip_card_is_light_slash_dark(code: str) -> None:
    """RULES.md §1: a Flip card is ``light/dark``."""
    c = card(code)
    assert c.code == code
    light, dark = code.split("/")
    assert c.light.code == light
    assert c.dark is not None and c.dark.code == dark


@pytest.mark.parametrize("code", ["R7", "G+2", "BR", "YS", "Y+1", "PSE", "T+5", "OF", "GDA", "B+4"])
def test_s1_examples_of_the_rule_sheet_parse(code: str) -> None:
    """RULES.md §1 lists these examples."""
    assert card(code).code == code


def test_s1_card_lists_are_space_separated() -> None:
    """RULES.md §1: set-ups and piles list card codes separated by spaces."""
    assert [c.code for c in cards("R5  G+2 W+4\tR5/PSE")] == ["R5", "G+2", "W+4", "R5/PSE"]


@pytest.mark.parametrize(
    "code",
    [
        "",
        "R",
        "X5",
        "r5",
        "R10",
        "RW",  # a wild has no colour
        "RW+4",
        "W+5",
        "+4",
        "5R",
        "R5/",
        "/R5",
        "R5/PSE/G1",
        "R 5",
        "WILD",
    ],
)
def test_s1_malformed_codes_are_refused(code: str) -> None:
    """RULES.md §1: only the codes it defines are cards; anything else is a NotationError
    (a ValueError) naming the bad code."""
    with pytest.raises(NotationError) as err:
        card(code)
    assert isinstance(err.value, ValueError)


def test_s1_a_bad_code_in_a_setup_is_a_setup_error() -> None:
    """RULES.md §1 notation in set-ups: a bad card is refused with a clear error."""
    with pytest.raises(SetupError, match="Q9"):
        from_setup(Setup(hands=["R5 Q9", "G1"], discard="R1"))


def test_s1_a_setup_with_unknown_fields_is_refused() -> None:
    with pytest.raises(SetupError, match="bogus"):
        Setup.from_dict({"hands": ["R1", "R2"], "bogus": 1})


ACTIONS = [
    play(0, "R5"),
    play(1, "W+4"),
    play(2, "R5/PSE"),
    draw(0),
    keep(3),
    choose_color(0, "G"),
    challenge(1),
    accept(1),
    call_uno(2),
    catch(0, 2),
    swap(1, 3),
    close_uno_window(),
    frozen_moved(3),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_s1_action_codes_round_trip(action: Action) -> None:
    """Action codes (the callback data of the buttons) print and parse back exactly."""
    assert Action.from_code(action.player, action.code) == action
    assert len(action.code.encode()) <= 8


@pytest.mark.parametrize("code", ["zz", "p.Q9", "p.", "c.Q", "c.", "x.a", "x.", "d.1", "u.0"])
def test_s1_malformed_action_codes_are_refused(code: str) -> None:
    with pytest.raises(ValueError):
        Action.from_code(0, code)


def test_s1_action_types_are_the_closed_set() -> None:
    assert {t.value for t in ActionType} == {
        "p",
        "d",
        "k",
        "c",
        "ch",
        "a",
        "u",
        "x",
        "s",
        "close",
        "fm",
    }
