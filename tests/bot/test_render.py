"""Rendering from the engine's own views: every legal action of every variant has its
button (and its inline result), nothing else does, and all callback data fits."""

from __future__ import annotations

import random

import pytest
from engine_views import engine_view, game_info
from telegram import InlineKeyboardMarkup

from services.bot import render
from services.bot.callbacks import Callback, Kind
from services.engine.rules import VARIANTS, Action, Applied, apply, legal_actions, new_game
from services.engine.rules.state import GameState, Options


def buttons(markup: InlineKeyboardMarkup | None) -> list[Callback]:
    assert markup is not None
    return [
        Callback.decode(b.callback_data)  # type: ignore[arg-type]
        for row in markup.inline_keyboard
        for b in row
        if b.callback_data is not None
    ]


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
                hand = render.private_hand("en", info, v, "Friday UNO")
                pressed = buttons(hand.markup) if hand.markup is not None else []
                acts = {cb.arg for cb in pressed if cb.kind is Kind.ACT}
                assert acts == set(v.legal)
                assert all(cb.version == state.version for cb in pressed)
                inert = [cb.arg for cb in pressed if cb.kind is Kind.INERT]
                playable = {code[2:] for code in v.legal if code.startswith("p.")}
                assert set(inert) == set(v.hand) - playable
                if v.pending is not None and v.pending.player == seat:
                    seen_kinds.add(v.pending.kind)
                choices = render.choices("en", info, v)
                assert [c.code for c in choices if c.code] == [
                    *[c for c in v.legal if c.startswith("p.")],
                    *[c for c in v.legal if not c.startswith("p.")],
                ]
            spectator = engine_view(state, None)
            if state.pending is not None:
                table = render.table("en", info, spectator, [], bot_username="uno_bot")
                assert table.markup is not None
                assert "Ana" in table.text
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
        hand = render.private_hand("en", game_info(state), v, "g")
        assert [cb.arg for cb in buttons(hand.markup) if cb.kind is Kind.ACT] == [
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
    before = render.table("en", info, engine_view(state, None), [], bot_username="b")
    assert {cb.arg for cb in buttons(before.markup)} == {""}  # "Private hand" only
    state = apply(state, Action.from_code(0, "p.W+4")).state  # type: ignore[union-attr]
    state = apply(state, Action.from_code(0, "c.G")).state  # type: ignore[union-attr]
    after = render.table("en", info, engine_view(state, None), [], bot_username="b")
    assert {cb.arg for cb in buttons(after.markup) if cb.kind is Kind.ACT} == {"a", "ch"}
    assert "+4" in after.text


def test_names_are_escaped_and_isolated() -> None:
    state, _ = new_game("classic", ["<b>x</b>", "עברית"], seed=1)
    info = game_info(state)
    table = render.table("en", info, engine_view(state, None), [], bot_username="b")
    assert "<b>x</b>" not in table.text and "&lt;b&gt;x&lt;/b&gt;" in table.text
    assert "\u2068עברית\u2069" in table.text


def test_the_lobby_shows_the_chats_settings_in_force() -> None:
    state, _ = new_game("classic", ["Ana", "Bo"], seed=1)
    plain = game_info(state, "lobby")
    assert "House rules" not in render.lobby("en", plain).text
    info = plain.model_copy(
        update={
            "rules": {"jump_in": True, "seven_o": True, "target_score": 200},
            "uno_window_seconds": 4,
        }
    )
    lines = render.lobby("en", info).text.splitlines()
    assert lines[2:4] == [
        "House rules: Seven-O, Jump-In",
        "Target: 200 points · UNO window: 4 seconds",
    ]
    persian = render.lobby("fa", info).text
    assert "House rules" not in persian and "؛ " in persian and "۲۰۰" in persian


def test_lobby_lists_players_and_buttons() -> None:
    state, _ = new_game("classic", ["Ana", "Bo"], seed=1)
    info = game_info(state, "lobby")
    lobby = render.lobby("en", info)
    assert "Ana" in lobby.text and "Bo" in lobby.text
    assert {cb.arg for cb in buttons(lobby.markup)} == {
        "join",
        "leave",
        "ai.strong",
        "ai.random",
        "start",
        "rules",
    }
