"""RULES.md §3 "Deck" and "Scoring" (UNO Flip): the 112 double-sided cards, the fixed
light/dark pairing, and the points of the side in play."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from services.engine.rules import Applied, EventType, Options, Side, get_variant, new_game
from services.engine.rules.actions import play
from services.engine.rules.cards import DARK_COLORS, LIGHT_COLORS, Card, Kind, card
from services.engine.rules.variants.flip import FLIP_DECK
from tests.helpers.rules import all_cards, of_type, ok, table

NUMBERS = [str(n) for n in range(1, 10)]


def expected_faces(colors: tuple[str, ...], actions: tuple[str, ...], wilds: str) -> Counter[str]:
    faces: Counter[str] = Counter()
    for color in colors:
        for symbol in (*NUMBERS, *actions):
            faces[color + symbol] += 2
    for wild in wilds.split():
        faces[wild] += 4
    return faces


# -- the deck --------------------------------------------------------------------------------


def test_s3_deck_has_112_double_sided_cards() -> None:
    """RULES.md §3 "Deck (112 double-sided)"."""
    assert len(FLIP_DECK) == 112
    assert all(c.dark is not None for c in FLIP_DECK)
    assert get_variant("flip").deck == FLIP_DECK
    assert get_variant("flip").double_sided


def test_s3_deck_light_side_composition() -> None:
    """RULES.md §3: light side, per colour R Y G B two each of 1–9 (no 0) and of +1, R, S,
    F; plus 4 W and 4 W+2."""
    light = Counter(c.light.code for c in FLIP_DECK)
    assert light == expected_faces(("R", "Y", "G", "B"), ("+1", "R", "S", "F"), "W W+2")
    assert not any(c.light.kind is Kind.N0 for c in FLIP_DECK)


def test_s3_deck_dark_side_composition() -> None:
    """RULES.md §3: dark side, per colour P T O V two each of 1–9 and of +5, R, SE, F; plus
    4 W and 4 WDC."""
    dark = Counter(c.dark.code for c in FLIP_DECK if c.dark is not None)
    assert dark == expected_faces(("P", "T", "O", "V"), ("+5", "R", "SE", "F"), "W WDC")


def test_s3_pairing_is_the_documented_bijection() -> None:
    """RULES.md §3 [decision flip-pairing]: one fixed pairing.  The j-th face of light colour i
    (faces listed 1 1 2 2 … 9 9 then the actions) backs the (j + 13) mod 26-th face of dark
    colour i + 1; W backs WDC and W+2 backs W."""
    light_run = [n for n in NUMBERS for _ in (0, 1)] + ["+1", "+1", "R", "R", "S", "S", "F", "F"]
    dark_run = [n for n in NUMBERS for _ in (0, 1)] + ["+5", "+5", "R", "R", "SE", "SE", "F", "F"]
    expected: Counter[str] = Counter()
    for i, light_color in enumerate(LIGHT_COLORS):
        dark_color = DARK_COLORS[(i + 1) % 4]
        for j, symbol in enumerate(light_run):
            expected[f"{light_color}{symbol}/{dark_color}{dark_run[(j + 13) % 26]}"] += 1
    expected["W/WDC"] += 4
    expected["W+2/W"] += 4
    assert Counter(c.code for c in FLIP_DECK) == expected
    # A few cards spelled out, so the pairing reads in the test too.
    for code in ("R1/T7", "R9/T3", "R+1/T3", "RF/T6", "RF/T7", "R6/TF", "BS/P5", "YR/O4"):
        assert card(code) in FLIP_DECK


def test_s3_pairing_is_one_to_one_between_the_two_sides() -> None:
    """Every light face and every dark face is printed exactly as often as the deck lists
    it, so pairing is a bijection of the two sides' card lists (no face used twice)."""
    pairs = Counter((c.light, c.dark) for c in FLIP_DECK)
    lights = Counter(c.light for c in FLIP_DECK)
    darks = Counter(c.dark for c in FLIP_DECK)
    assert sum(pairs.values()) == sum(lights.values()) == sum(darks.values()) == 112
    for (light, dark), count in pairs.items():
        assert count <= min(lights[light], darks[dark])


def test_s3_pairing_no_card_shows_the_same_kind_on_both_sides() -> None:
    """[decision] So the back of a card says little about its front; in particular no F
    backs an F, so an F turned up first turns the game over exactly once."""
    for c in FLIP_DECK:
        assert c.dark is not None
        assert c.light.kind is not c.dark.kind, c
    light_flips = {c.dark.code for c in FLIP_DECK if c.light.kind is Kind.FLIP and c.dark}
    assert {code[1:] for code in light_flips} == {"6", "7"}


@pytest.mark.parametrize("seed", [1, 2, 99])
def test_s3_pairing_is_the_same_in_every_game(seed: int) -> None:
    """RULES.md §3 [decision]: the same bijection in every game, whatever the shuffle."""
    state, _ = new_game("flip", ["A", "B", "C"], seed=seed)
    assert all_cards(state) == Counter(FLIP_DECK)


# -- scoring ---------------------------------------------------------------------------------

LIGHT_POINTS = {"+1": 10, "R": 20, "S": 20, "F": 20, "W": 40, "W+2": 50}
DARK_POINTS = {"+5": 20, "R": 20, "SE": 30, "F": 20, "W": 40, "WDC": 60}


def face_points(code: str, table_of: dict[str, int]) -> int:
    symbol = code if code.startswith("W") else code[1:]
    return int(symbol) if symbol.isdigit() else table_of[symbol]


@pytest.mark.parametrize("side", [Side.LIGHT, Side.DARK])
def test_s3_scoring_every_card_scores_its_face_in_play(side: Side) -> None:
    """RULES.md §3 "Scoring": numbers face value; +1 10; +5, R, S, F 20; SE 30; W 40;
    W+2 50; WDC 60 — counting the side in play."""
    variant = get_variant("flip")
    points = LIGHT_POINTS if side is Side.LIGHT else DARK_POINTS
    for c in set(FLIP_DECK):
        face = c.face(side)
        rule_points = face.kind.number if face.kind.is_number else variant.rules[face.kind].points
        assert rule_points == face_points(face.code, points), face


# The round is won on each side by seat 0 playing its last card; seat 1 and 2 keep:
LOSING_HANDS = ["Y3/O+5 R4/TR R5/TSE W/WDC RF/T6 RS/T5", "W+2/W R+1/T3"]


def seat_0_goes_out(side: str, **kw: Any) -> Applied:
    """Seat 0 plays its last card (R2/T8) on ``side`` against LOSING_HANDS."""
    state = table(
        ["R2/T8", *LOSING_HANDS], discard="R9/T3", variant="flip", side=side, current=0, **kw
    )
    return ok(state, play(0, "R2" if side == "light" else "T8"))


def test_s3_scoring_round_ended_on_the_light_side_counts_light_faces() -> None:
    """RULES.md §3 "Scoring": the round ends on the light side: light faces score."""
    result = seat_0_goes_out("light", seed=5)
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    light_1 = 3 + 4 + 5 + 40 + 20 + 20  # Y3 R4 R5 W RF RS
    light_2 = 50 + 10  # W+2 R+1
    assert ended["points"] == [0, light_1, light_2]
    assert ended["scores"] == [light_1 + light_2, 0, 0]
    assert ended["hands"][1] == ["Y3", "R4", "R5", "W", "RF", "RS"]


def test_s3_scoring_round_ended_on_the_dark_side_counts_dark_faces() -> None:
    """RULES.md §3 "Scoring": the round ends on the dark side: the same cards score their
    dark faces."""
    result = seat_0_goes_out("dark", seed=5)
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    dark_1 = 20 + 20 + 30 + 60 + 6 + 5  # O+5 TR TSE WDC T6 T5
    dark_2 = 40 + 3  # W T3
    assert ended["points"] == [0, dark_1, dark_2]
    assert ended["scores"] == [dark_1 + dark_2, 0, 0]
    assert ended["hands"][1] == ["O+5", "TR", "TSE", "WDC", "T6", "T5"]


def test_s3_scoring_alternate_scoring_counts_the_side_in_play() -> None:
    """RULES.md §3 "Scoring": alternate scoring as Classic, on the side in play."""
    result = seat_0_goes_out("dark", options=Options(alternate_scoring=True))
    ended = of_type(result.events, EventType.ROUND_ENDED)[0].data
    assert ended["scores"] == [0, 141, 43]


def test_s3_scoring_500_wins_the_game() -> None:
    """RULES.md §3 "Scoring": 500 wins; short of it the next round is dealt."""
    assert get_variant("flip").target_score == 500
    won = seat_0_goes_out("dark", scores=[500 - 184, 0, 0])  # the dark faces score 184
    assert won.state.players[0].score == 500
    assert won.state.winner == 0
    assert of_type(won.events, EventType.GAME_OVER)[0].data["winner"] == 0
    short = seat_0_goes_out("dark", scores=[500 - 185, 0, 0])
    assert short.state.winner is None
    assert short.state.round == 2


def test_s3_scoring_a_new_round_starts_on_the_light_side() -> None:
    """RULES.md §3 "Setup" (seed): every round is dealt light side up."""
    result = seat_0_goes_out("dark")
    assert result.state.round == 2
    assert result.state.side is Side.LIGHT
    assert all_cards(result.state) == Counter(FLIP_DECK)


def test_s3_flip_cards_parse_as_one_physical_card() -> None:
    """RULES.md §1: a Flip card is written light/dark."""
    c = card("R5/TSE")
    assert c == Card(card("R5").light, card("TSE").light)
    assert c.face(Side.LIGHT).code == "R5" and c.face(Side.DARK).code == "TSE"
    assert c.hidden_face(Side.LIGHT) == card("TSE").light
