"""Rendering from the engine's own views: every legal action of every variant has its
button (and its inline result), nothing else does, and all callback data fits."""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.bot.telegram_html import telegram_html
from services.engine.client import GameInfo
from services.engine.rules import (
    VARIANTS,
    Action,
    Applied,
    apply,
    get_variant,
    legal_actions,
    new_game,
)
from services.engine.rules.state import GameState, Options
from services.presentation.callbacks import Callback, Kind
from services.presentation.cards import by_colour
from services.presentation.rich import EMPTY, Rich
from services.presentation.screens.event_lines import (
    MOVE_EVENTS,
    TOLD_WITH_THE_EVENT_BEFORE,
    event_line,
)
from services.presentation.screens.hand import choices, private_hand
from services.presentation.screens.keyboard import Keyboard, callbacks
from services.presentation.screens.lobby import lobby as lobby_screen
from services.presentation.screens.notices import blocked, frozen_penalty
from services.presentation.screens.scores import game_over, round_end
from services.presentation.screens.table import table as table_screen
from tests.helpers.chat_text import plain_text
from tests.helpers.engine_views import engine_view, game_info


def two_sided(info: GameInfo) -> bool:
    """The variant's cards have two sides, as the rules library says."""
    return get_variant(info.variant).double_sided


def buttons(keyboard: Keyboard | None) -> list[Callback]:
    assert keyboard is not None
    return callbacks(keyboard)


def random_states(variant: str, seed: int, moves: int = 400) -> list[GameState]:
    options = Options(seven_o=True, jump_in=True) if variant == "classic" else Options()
    if variant == "classic" and seed % 2:
        options = Options(progressive_draw=True)
    state, _ = new_game(variant, ["Ana", "Bo", "Cy"], options, seed=seed)
    rng = random.Random(seed)
    states = [state]
    for _ in range(moves):
        if state.pending is None:
            break
        actions = [a for p in range(3) for a in legal_actions(state, p)]
        result = apply(state, rng.choice(actions))
        assert isinstance(result, Applied)
        state = result.state
        states.append(state)
    return states


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_legal_action_has_its_button_and_nothing_else(variant: str) -> None:
    seen_kinds: set[str] = set()
    for seed in range(3):
        for state in random_states(variant, seed):
            info = game_info(state)
            for seat in range(3):
                v = engine_view(state, seat)
                hand = private_hand("en", info, v, "Friday UNO")
                pressed = buttons(hand.keyboard) if hand.keyboard is not None else []
                acts = {cb.arg for cb in pressed if cb.kind is Kind.ACT}
                assert acts == set(v.legal)
                assert all(cb.version == state.version for cb in pressed)
                inert = [cb.arg for cb in pressed if cb.kind is Kind.INERT]
                playable = {code[2:] for code in v.legal if code.startswith("p.")}
                assert set(inert) == set(v.hand) - playable
                if v.pending is not None and v.pending.player == seat:
                    seen_kinds.add(v.pending.kind)
                listed = choices("en", info, v)
                assert [c.code for c in listed if c.code] == [
                    *sorted(
                        (c for c in v.legal if c.startswith("p.")), key=lambda c: by_colour(c[2:])
                    ),
                    *[c for c in v.legal if not c.startswith("p.")],
                ]
            spectator = engine_view(state, None)
            if state.pending is not None:
                table = table_screen("en", info, spectator, [], two_sided=two_sided(info))
                assert table.keyboard is not None
                assert "Ana" in telegram_html(table.text)
    assert {"turn", "choose_color"} <= seen_kinds


def test_the_colour_picker_follows_a_wild_on_each_side() -> None:
    from services.engine.rules import Setup, from_setup

    for side, colours in (("light", "RYGB"), ("dark", "PTOV")):
        wild = "W/W" if side == "light" else "W+2/W"
        state, _ = from_setup(
            Setup(
                variant="flip",
                hands=[f"{wild} R1/P2 R4/P5", "R2/T3"],
                discard="R3/O4",
                side=side,
                current=0,
                draw_pile="B1/T1 B2/T2 B3/T3",
            )
        )
        state = apply(state, Action.from_code(0, "p.W")).state  # type: ignore[union-attr]
        v = engine_view(state, 0)
        assert v.pending is not None and v.pending.kind == "choose_color"
        hand = private_hand("en", game_info(state), v, "g")
        assert [cb.arg for cb in buttons(hand.keyboard) if cb.kind is Kind.ACT] == [
            f"c.{c}" for c in colours
        ]


def test_table_offers_challenge_and_take_only_while_owed() -> None:
    from services.engine.rules import Setup, from_setup

    state, _ = from_setup(
        Setup(
            hands=["W+4 R1 R2", "B1 B2 B3"],
            discard="R3",
            draw_pile="G1 G2 G3 G4 G5 G6",
            current=0,
        )
    )
    info = game_info(state)
    before = table_screen("en", info, engine_view(state, None), [], two_sided=two_sided(info))
    assert {cb.arg for cb in buttons(before.keyboard)} == {""}  # "Private hand" only
    state = apply(state, Action.from_code(0, "p.W+4")).state  # type: ignore[union-attr]
    state = apply(state, Action.from_code(0, "c.G")).state  # type: ignore[union-attr]
    after = table_screen("en", info, engine_view(state, None), [], two_sided=two_sided(info))
    assert {cb.arg for cb in buttons(after.keyboard) if cb.kind is Kind.ACT} == {"a", "ch"}
    assert "+4" in telegram_html(after.text)


def test_names_are_escaped_and_isolated() -> None:
    state, _ = new_game("classic", ["<b>x</b>", "עברית"], seed=1)
    info = game_info(state)
    table = table_screen("en", info, engine_view(state, None), [], two_sided=two_sided(info))
    sent = telegram_html(table.text)
    assert "<b>x</b>" not in sent and "&lt;b&gt;x&lt;/b&gt;" in sent
    assert "\u2068עברית\u2069" in sent


def test_the_lobby_shows_the_chats_settings_in_force() -> None:
    state, _ = new_game("classic", ["Ana", "Bo"], seed=1)
    plain = game_info(state, "lobby")
    assert "House rules" not in telegram_html(lobby_screen("en", plain).text)
    info = plain.model_copy(
        update={
            "rules": {"jump_in": True, "seven_o": True, "target_score": 200},
            "uno_window_seconds": 4,
        }
    )
    lines = telegram_html(lobby_screen("en", info).text).splitlines()
    assert lines[2:4] == [
        "House rules: Seven-O, Jump-In",
        "Turn: 60 seconds · Target: 200 points · UNO window: 4 seconds",
    ]
    persian = telegram_html(lobby_screen("fa", info).text)
    assert "House rules" not in persian and "؛ " in persian and "۲۰۰" in persian


def test_lobby_lists_players_and_buttons() -> None:
    state, _ = new_game("classic", ["Ana", "Bo"], seed=1)
    info = game_info(state, "lobby")
    lobby = lobby_screen("en", info)
    assert "Ana" in telegram_html(lobby.text) and "Bo" in telegram_html(lobby.text)
    assert {cb.arg for cb in buttons(lobby.keyboard)} == {
        "join",
        "leave",
        "ai.strong",
        "ai.random",
        "ai.hard",
        "start",
        "rules",
    }


def test_the_lobby_names_each_ai_seats_level() -> None:
    """Each AI seat says how strong it plays (the lobby's three Add AI buttons), so the
    players know which seat is the hard one; and the Add AI buttons carry the lobby's
    version (one pressed on an older lobby is refused: lobby.py)."""
    state, _ = new_game("classic", ["Ana", "AI 1", "AI 2", "AI 3"], seed=1)
    info = game_info(state, "lobby")
    levels = [None, "strong", "random", "hard"]
    seats = [
        s.model_copy(update={"ai": level, "user_id": None if level else s.user_id})
        for s, level in zip(info.seats, levels, strict=True)
    ]
    lobby = lobby_screen("en", info.model_copy(update={"seats": seats, "version": 7}))
    lines = [plain_text(line) for line in telegram_html(lobby.text).splitlines()]
    assert [line for line in lines if line.startswith(("• ", "🤖 "))] == [
        "• Ana",
        "🤖 AI 1 · strong AI",
        "🤖 AI 2 · easy AI",
        "🤖 AI 3 · hard AI",
    ]
    versions = {cb.arg: cb.version for cb in buttons(lobby.keyboard)}
    assert versions == {
        "join": 0,
        "leave": 0,
        "ai.strong": 7,
        "ai.random": 7,
        "ai.hard": 7,
        "start": 0,
        "rules": 0,
    }


def _round_ended(setup: Any, code: str) -> tuple[GameInfo, dict[str, Any]]:
    """The engine's own ``round_ended`` event for the first player going out with ``code``."""
    from services.engine.rules import from_setup

    state, _ = from_setup(setup)
    result = apply(state, Action.from_code(0, code))
    assert isinstance(result, Applied)
    event = next(e.to_json() for e in result.events if e.type == "round_ended")
    info = game_info(state)
    if setup.options.alternate_scoring:
        info = info.model_copy(update={"rules": {"alternate_scoring": True}})
    return info, event


def _scored(text: Rich) -> list[str]:
    return [plain_text(line).strip() for line in telegram_html(text).splitlines()[1:]]


def test_the_round_winner_scores_the_other_hands() -> None:
    """RULES.md §2 "Scoring": the player who went out scores the points left in every
    other hand; the score message says so. Also alternate scoring (§2 "Scoring": each
    player adds their own hand), No Mercy (§4 "Scoring": knock-outs scored when they
    happened, the round adds the other hands) and Flip (§3 "Scoring": the hands count on
    the side in play)."""
    from services.engine.rules import Setup

    pile = "G1 G3 G4 G5 G6 G7 G8 G9"
    hands = ["R1", "B5 W+4", "G2 Y7"]  # 5 + 50 and 2 + 7 left: the winner scores 64
    info, event = _round_ended(Setup(hands=hands, discard="R3", current=0, draw_pile=pile), "p.R1")
    assert event["points"] == [0, 55, 9]  # each seat's own hand, as the engine tells it
    assert _scored(round_end("en", info, event)) == ["P0: 64  (+64)", "P1: 0", "P2: 0"]
    assert "(+۶۴)" in round_end("fa", info, event).plain

    # Alternate scoring: every player adds their own hand.
    alternate = Setup(
        hands=hands,
        discard="R3",
        current=0,
        draw_pile=pile,
        options=Options(alternate_scoring=True),
    )
    info, event = _round_ended(alternate, "p.R1")
    assert _scored(round_end("en", info, event)) == [
        "P0: 0  (+0)",
        "P1: 55  (+55)",
        "P2: 9  (+9)",
    ]

    # No Mercy: knock-out points were scored when they happened (250 here, from an earlier
    # round); the round's scoring adds the other hands only, and says so.
    no_mercy = Setup(
        variant="no_mercy",
        hands=["R1", "B5 R2", "G2 Y7"],
        discard="R3",
        current=0,
        draw_pile=pile,
        scores=[250, 0, 0],
    )
    info, event = _round_ended(no_mercy, "p.R1")
    assert _scored(round_end("en", info, event)) == [
        "P0: 266  (+16 for the cards left in the other hands)",
        "P1: 0",
        "P2: 0",
    ]

    # Flip: the hands count on the side in play (dark: T3 + O9 and V7 + a skip-everyone).
    flip = Setup(
        variant="flip",
        side="dark",
        hands=["R1/P2", "B5/T3 R2/O9", "G2/V7 Y7/TS"],
        discard="R3/P4",
        current=0,
        draw_pile="G1/T1 G3/T2 G4/T3 G5/T4",
    )
    info, event = _round_ended(flip, "p.P2")
    assert _scored(round_end("en", info, event)) == ["P0: 39  (+39)", "P1: 0", "P2: 0"]


def test_a_knock_out_and_the_round_say_what_each_seat_scores() -> None:
    """RULES.md §4 "Scoring": a knock-out scores 250 at once for whoever caused it, and
    the table's line says so; the round's result says what each gain is for: the cards
    left in the other hands (the winner's), and the knock-outs of the round."""
    from services.engine.rules import Setup, from_setup

    state, _ = from_setup(
        Setup(
            variant="no_mercy",
            hands=["R+4 Y1 Y2 R9", " ".join(["G1"] * 22), "R5 R6 R8", "R3 R4"],
            discard="R5",
            current=0,
            draw_pile=" ".join(["Y0"] * 10),
        )
    )
    result = apply(state, Action.from_code(0, "p.R+4"))
    assert isinstance(result, Applied)
    info = game_info(result.state)
    knocked = next(e.to_json() for e in result.events if e.type == "knocked_out")
    assert plain_text(telegram_html(event_line("en", info, knocked) or EMPTY)) == (
        "☠ P1 holds 25 cards or more: knocked out by the mercy rule; P0 scores 250"
    )
    state = result.state
    for seat, code in ((2, "p.R5"), (3, "p.R3"), (0, "p.R9"), (2, "p.R6")):
        moved = apply(state, Action.from_code(seat, code))
        assert isinstance(moved, Applied)
        state = moved.state
    result = apply(state, Action.from_code(3, "p.R4"))
    assert isinstance(result, Applied)
    ended = next(e.to_json() for e in result.events if e.type == "round_ended")
    assert _scored(round_end("en", info, ended)) == [
        "P0: 250  (+250 for knock-outs)",
        "P1: 0",
        "P2: 0",
        "P3: 11  (+11 for the cards left in the other hands)",
    ]
    # A winner who knocked someone out gains for both.
    two = Setup(
        variant="no_mercy",
        hands=["R+4 Y1 Y2 R9", " ".join(["G1"] * 22)],
        discard="R5",
        current=0,
        draw_pile=" ".join(["Y0"] * 10),
    )
    info, ended = _round_ended(two, "p.R+4")
    assert _scored(round_end("en", info, ended)) == [
        "P0: 250  (+0 for the cards left in the other hands, +250 for knock-outs)",
        "P1: 0",
    ]


def _isolated_once(shown: Rich | str, names: list[str]) -> None:
    text = telegram_html(shown)
    assert "\u2068\u2068" not in text and "\u2069\u2069" not in text, text
    for name in names:
        if name in text:
            assert f"\u2068{name}\u2069" in text, (name, text)


def test_every_name_is_isolated_once() -> None:
    """A name is isolated where it is made (``person``); a message it fills in, in
    any language, must not isolate it again."""
    from services.engine.rules import Setup, from_setup

    names = ["Ana", "مریم", "Bo"]
    state, _ = from_setup(
        Setup(
            hands=["W+4 R1 R2", "B1 B2 B3", "G1 G2"],
            names=names,
            discard="R3",
            draw_pile="G3 G4 G5 G6 G7 G8",
            current=0,
        )
    )
    info = game_info(state)
    seats = [{"player": 0, "target": 1, "seat": 2}, {"player": 1, "target": 2, "seat": 0}]
    for language in ("en", "fa", "gu"):
        lines = [
            line
            for kind in sorted(MOVE_EVENTS - TOLD_WITH_THE_EVENT_BEFORE)
            for who in seats
            for line in [
                event_line(
                    language,
                    info,
                    {"type": kind, **who, "card": "R5", "count": 2, "color": "R", "total": 4},
                )
            ]
            if line
        ]
        assert len(lines) == 2 * len(MOVE_EVENTS - TOLD_WITH_THE_EVENT_BEFORE)
        for line in lines:
            _isolated_once(line, names)
        table = table_screen(
            language, info, engine_view(state, None), lines, two_sided=two_sided(info)
        )
        _isolated_once(telegram_html(table.text), names)
        hand = private_hand(language, info, engine_view(state, 1), "Friday UNO")
        _isolated_once(telegram_html(hand.text), names)
        _isolated_once(telegram_html(lobby_screen(language, game_info(state, "lobby")).text), names)
        _isolated_once(blocked(language, info.seats[1]), names)
        event = {"round": 1, "winner": 1, "points": [5, 0, 3], "scores": [0, 8, 0]}
        _isolated_once(round_end(language, info, event), names)
        _isolated_once(game_over(language, info, {"winner": 1, "scores": [0, 8, 0]}), names)
        _isolated_once(frozen_penalty(language, info, {"player": 2}), names)
