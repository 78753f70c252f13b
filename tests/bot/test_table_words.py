"""What the table, the hands and the lobby say and offer, in words a new player reads
right: the marks of a UNO call and of a catchable hand, when UNO! and Catch! show and how
long, the AI's turns, a stack, a first card's skip, a knock-out, the answers to a draw card,
where a colour is chosen; and that no button's label is cut at Telegram's widths."""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.bot.telegram_html import telegram_html
from services.config import Settings
from services.engine.client import GameInfo
from services.engine.rules import (
    VARIANTS,
    Applied,
    Setup,
    apply,
    from_setup,
    get_variant,
    legal_actions,
    new_game,
)
from services.engine.rules.state import GameState, Options
from services.presentation.callbacks import Callback, Kind
from services.presentation.cards import by_colour
from services.presentation.i18n import gettext
from services.presentation.locales.catalog import LANGUAGES
from services.presentation.locales.rules_text import rules_messages, written_variants
from services.presentation.screens.event_lines import event_lines as isolated_lines
from services.presentation.screens.hand import choices, private_hand
from services.presentation.screens.inline_results import inline_page
from services.presentation.screens.keyboard import Keyboard, callbacks, columns, fits, label_room
from services.presentation.screens.lobby import lobby as lobby_screen
from services.presentation.screens.lobby import variant_keyboard
from services.presentation.screens.table import DEFAULT_UNO_WINDOW_SECONDS
from services.presentation.screens.table import table as table_screen
from tests.helpers.chat_text import plain_text
from tests.helpers.engine_views import engine_view, game_info

NAMES = ["Ana", "Bob", "Cyd"]


def dealt(hands: list[str], **setup: Any) -> GameState:
    state, _ = from_setup(
        Setup(hands=hands, names=NAMES[: len(hands)], draw_pile="G3 G4 G5 G6 G7 G8", **setup)
    )
    return state


def act(state: GameState, seat: int, code: str) -> tuple[GameState, list[dict[str, Any]]]:
    action = next(a for a in legal_actions(state, seat) if a.code == code)
    result = apply(state, action)
    assert isinstance(result, Applied)
    return result.state, [e.to_json() for e in result.events if e.to is None]


def event_lines(language: str, info: GameInfo, events: list[dict[str, Any]]) -> list[str]:
    """The lines as plain text (names without their isolates)."""
    return [plain_text(telegram_html(line)) for line in isolated_lines(language, info, events)]


def shown(state: GameState, info: GameInfo | None = None, language: str = "en") -> Any:
    info = info or game_info(state)
    two_sided = get_variant(state.variant).double_sided
    return table_screen(language, info, engine_view(state, None), [], two_sided=two_sided)


def pressed(keyboard: Keyboard | None) -> set[str]:
    return {b.callback.arg for row in keyboard or () for b in row if b.callback is not None}


# -- UNO! and Catch! (RULES.md §2 "UNO", "The catch window") ---------------------------------


def test_uno_is_not_offered_at_two_cards_with_nothing_to_play() -> None:
    """RULES.md §2 "UNO": with nothing to play there is nothing to call."""
    state = dealt(["G1 B2", "R5 R6 R7"], discard="R9", current=0)
    assert "u" not in {a.code for a in legal_actions(state, 0)}
    assert "u" not in pressed(shown(state).keyboard)


def test_uno_and_catch_show_while_the_window_is_open_and_say_how_long() -> None:
    """RULES.md §2 "The catch window": Catch! stays until the next player acts, for the
    UNO-window time at most; the table says so, with the game's seconds."""
    state = dealt(["R1 R2", "B5 B6 B7"], discard="R9", current=0)
    state, _ = act(state, 0, "p.R1")
    assert state.uno_window == 0
    info = game_info(state).model_copy(update={"uno_window_seconds": 5})
    table = shown(state, info)
    assert {"u", "x.0"} <= pressed(table.keyboard)
    assert "catch them before the next player acts (5 s at most)" in plain_text(
        telegram_html(table.text)
    )
    default = shown(state)
    assert f"({DEFAULT_UNO_WINDOW_SECONDS} s at most)" in telegram_html(default.text)
    state, _ = act(state, 1, "d")
    assert "x.0" not in pressed(shown(state).keyboard)


def test_the_default_uno_window_is_the_services() -> None:
    assert Settings.model_fields["uno_window_seconds"].default == DEFAULT_UNO_WINDOW_SECONDS


def test_a_call_and_a_catchable_hand_are_marked_apart() -> None:
    called = dealt(["R1 R2", "B5 B6 B7"], discard="R9", current=0)
    called, _ = act(called, 0, "u")
    called, _ = act(called, 0, "p.R1")
    seats = plain_text(telegram_html(shown(called).text).splitlines()[3])
    assert "Ana 1 🔔" in seats and "⚠️" not in seats
    silent = dealt(["R1 R2", "B5 B6 B7"], discard="R9", current=0)
    silent, _ = act(silent, 0, "p.R1")
    seats = plain_text(telegram_html(shown(silent).text).splitlines()[3])
    assert "Ana 1 ⚠️" in seats and "🔔" not in seats


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", written_variants("en"))
def test_rules_say_catch_stays_until_the_next_player_acts(language: str, variant: str) -> None:
    """/rules says of the window what RULES.md §2 "The catch window" says the table says."""
    said = {
        "en": "until the next player acts, for the chat's UNO-window time at most",
        "fa": "تا وقتی بازیکن بعدی کاری نکرده",
        "gu": "આગલો ખેલાડી કંઈ કરે ત્યાં સુધી",
    }[language]
    assert said in plain_text("\n".join(m.plain for m in rules_messages(language, variant)))


# -- the last moves' lines ---------------------------------------------------------------


def test_the_ais_turns_say_why_it_plays() -> None:
    info = game_info(dealt(["R1 R2", "B5 B6"]))
    late = {"type": "stand_in", "seat": 1, "timed_out": True}
    away = {"type": "stand_in", "seat": 1, "timed_out": False}
    old = {"type": "stand_in", "seat": 1}
    assert event_lines("en", info, [late]) == ["💤 Bob is out of time; AI plays for them"]
    assert event_lines("en", info, [away]) == ["🤖 AI plays for Bob"]
    assert event_lines("en", info, [old]) == event_lines("en", info, [late])


def test_a_stack_is_one_line() -> None:
    options = Options(progressive_draw=True)
    state = dealt(["R+2 R1 R3", "Y+2 B6 B7"], discard="R9", current=0, options=options)
    state, first = act(state, 0, "p.R+2")
    state, second = act(state, 1, "p.Y+2")
    lines = event_lines("en", game_info(state), first + second)
    assert lines[:2] == ["Ana played 🟥 +2", "Bob stacked 🟨 +2 on +2"]


def test_a_first_card_skip_says_who_is_skipped() -> None:
    state = dealt(["R1 R2", "B5 B6", "G1 G2"], discard="RS", dealer=0)
    events = [
        {"type": "first_card", "card": "RS"},
        {"type": "skipped", "player": 1},
    ]
    assert event_lines("en", game_info(state), events) == ["the first card skips Bob"]
    assert event_lines("en", game_info(state), [{"type": "skipped", "player": 1}]) == []


def test_a_mercy_knock_out_is_told() -> None:
    """RULES.md §5 (No Mercy): 25 cards or more knock a player out."""
    state = dealt(["R1 R2", "B5 B6", "G1 G2"], variant="no_mercy")
    line = event_lines("en", game_info(state), [{"type": "knocked_out", "player": 2}])
    assert line == ["☠ Cyd holds 25 cards or more: knocked out by the mercy rule"]


# -- what is owed, in words ------------------------------------------------------------------


def test_a_draw_four_in_classic_offers_take_or_challenge_only() -> None:
    """RULES.md §2 "Challenge": Classic answers a Wild +4 with a challenge, not a stack."""
    state = dealt(["W+4 R1 R3", "Y+2 B6 B7"], discard="R9", current=0)
    state, _ = act(state, 0, "p.W+4")
    state, _ = act(state, 0, "c.G")
    owing = telegram_html(shown(state).text).splitlines()[0]  # the owing line comes first
    assert "take +4 or challenge it" in owing and "answer" not in owing and "stack" not in owing


def test_a_no_mercy_draw_offers_the_stack() -> None:
    state = dealt(["R+2 R1 R3", "Y+2 B6 B7"], discard="R9", current=0, variant="no_mercy")
    state, _ = act(state, 0, "p.R+2")
    owing = telegram_html(shown(state).text).splitlines()[0]  # the owing line comes first
    assert "take +2 or stack on it" in owing


def test_a_colour_to_choose_says_where() -> None:
    state = dealt(["W R1 R3", "Y+2 B6 B7"], discard="R9", current=0)
    state, _ = act(state, 0, "p.W")
    table = shown(state)
    owing = telegram_html(table.text).splitlines()[0]  # the owing line comes first
    assert "to choose a colour with the buttons below" in owing
    # The buttons below: the side's four colours, on the table itself.
    assert [cb.arg for cb in callbacks(table.keyboard) if cb.arg.startswith("c.")] == [
        "c.R", "c.Y", "c.G", "c.B"
    ]  # fmt: skip


def test_the_hand_is_by_colour() -> None:
    """The inline hand and the private hand list the same choices, each part by colour."""
    state = dealt(["W B1 R4 G2 R2 Y7", "B5 B6"], discard="R9", current=0)
    listed = choices("en", game_info(state), engine_view(state, 0))
    cards = [c.card for c in listed if c.card is not None]
    plays = [c.card for c in listed if c.code is not None and c.card is not None]
    rest = [c.card for c in listed if c.code is None]
    assert plays == sorted(plays, key=lambda c: by_colour(c or "")) == ["R2", "R4", "W"]
    assert rest == ["Y7", "G2", "B1"] and len(cards) == 6


# -- button widths -------------------------------------------------------------------------


def test_the_width_model_matches_what_a_phone_cuts() -> None:
    """Four cards to a row show "▶ 🟥 7" and cut "▶ 🌈 +4"; three to a row cut
    "⭐ Classic" (the observations the model is fitted to)."""
    assert fits("▶ 🟥 7", 4) and not fits("▶ 🌈 +4", 4)
    assert not fits("⭐ Classic", 3)
    assert columns("✉️ x") == 4 and label_room(1) == 30


def every_keyboard(language: str) -> list[Keyboard]:
    boards: list[Keyboard] = []
    for variant in sorted(VARIANTS):
        state, _ = new_game(variant, NAMES, Options(), seed=3)
        boards.append(variant_keyboard(language, sorted(VARIANTS), "c", variant))
        lobby = lobby_screen(language, game_info(state, "lobby")).keyboard
        assert lobby is not None
        boards.append(lobby)
        rng = random.Random(3)
        for _ in range(250):
            if state.pending is None:
                break
            info = game_info(state)
            for seat in range(3):
                hand = private_hand(language, info, engine_view(state, seat), "Friday UNO")
                if hand.keyboard is not None:
                    boards.append(hand.keyboard)
            table = shown(state, info, language).keyboard
            if table is not None:
                boards.append(table)
            actions = [a for p in range(3) for a in legal_actions(state, p)]
            result = apply(state, rng.choice(actions))
            assert isinstance(result, Applied)
            state = result.state
    return boards


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_button_label_is_cut(language: str) -> None:
    """Every label of the lobby, /new's question, the table and the private hands shows
    whole on its row (``fits``), in every language; rows stay within Telegram's 8."""
    seen: set[str] = set()
    for keyboard in every_keyboard(language):
        for row in keyboard:
            assert 1 <= len(row) <= 8
            for b in row:
                assert fits(b.text, len(row)), (b.text, len(row), columns(b.text))
                seen.add(b.text)
    assert any(t.startswith("▶ 🌈") for t in seen)
    assert any(t.startswith("⭐ ") for t in seen)


def test_a_long_name_is_shortened_on_its_button() -> None:
    state = dealt(["R1 R2", "B5 B6 B7"], discard="R9", current=0)
    state, _ = act(state, 0, "p.R1")
    info = game_info(state)
    seats = [s.model_copy(update={"name": "Bartholomew-Alexander"}) for s in info.seats]
    table = shown(state, info.model_copy(update={"seats": seats}))
    labels = [b.text for row in table.keyboard or () for b in row if b.callback]
    catch = next(t for t in labels if t.startswith("Catch"))
    assert catch == gettext("en", "Catch {name}!", name="Bartholomew-A…")
    assert all(
        b.callback.kind is not Kind.INERT for row in table.keyboard or () for b in row if b.callback
    )


def test_the_direction_mark_turns_with_the_play() -> None:
    """RULES.md §2 "Actions": a reverse turns the direction of play, and the table's mark
    with it (↻ clockwise, ↺ anticlockwise)."""
    state = dealt(["RR R1 R2", "B5 B6 B7", "G1 G2 G3"], discard="R9", current=0)
    head = next(line for line in telegram_html(shown(state).text).splitlines() if "round" in line)
    assert "↻ clockwise" in head and "↺" not in head
    state, _ = act(state, 0, "p.RR")
    head = next(line for line in telegram_html(shown(state).text).splitlines() if "round" in line)
    assert "↺ anticlockwise" in head and "↻" not in head


def _why(state: GameState, seat: int) -> str:
    """The line of the seat's private hand saying what they owe."""
    hand = private_hand("en", game_info(state), engine_view(state, seat), "Friday UNO")
    return plain_text(telegram_html(hand.text).splitlines()[2])


def test_a_draw_four_asks_for_the_answers_the_rules_in_force_allow() -> None:
    """RULES.md §2 "Challenge": Classic answers a Wild +4 with a challenge or by taking it,
    never a stack; with the house rule Progressive Draw (§2 "House rules in detail") a W+4
    stacks on a W+4; No Mercy (§4 "Stacking") stacks and has no challenge."""
    state = dealt(["W+4 R1 R3", "Y+2 B6 B7"], discard="R9", current=0)
    state, _ = act(state, 0, "p.W+4")
    state, _ = act(state, 0, "c.G")
    assert _why(state, 1) == "Ana makes you take +4: challenge or take"
    progressive = Options(progressive_draw=True)
    state = dealt(["W+4 R1 R3", "W+4 B6 B7"], discard="R9", current=0, options=progressive)
    state, _ = act(state, 0, "p.W+4")
    state, _ = act(state, 0, "c.G")
    assert _why(state, 1) == "Ana makes you take +4: challenge, stack or take"
    state = dealt(["R+2 R1 R3", "Y+2 B6 B7"], discard="R9", current=0, variant="no_mercy")
    state, _ = act(state, 0, "p.R+2")
    assert _why(state, 1) == "Ana makes you take +2: stack or take"


# -- the inline hand's posts (BOT-UX.md "The hand, in inline mode") ---------------------------


def test_a_card_that_cannot_be_played_posts_why_not_a_bare_card() -> None:
    """Telegram posts whatever inline result is chosen: a card that can't be played now
    posts that, and why, so the group sees nothing that looks like a play; the result's
    description tells the player why before they choose it."""
    state = dealt(["R5 B9 W+4", "G7 G8 Y2"], discard="R3", current=0)
    info = game_info(state)
    page = inline_page("en", info, engine_view(state, 0), 0, group_locale="en")
    inert = [r for r in page.results if Callback.decode(r.id).kind is Kind.INERT]
    assert [plain_text(telegram_html(r.text)) for r in inert] == [
        "🟦 9 can't be played now: it doesn't match the pile"
    ]
    assert inert[0].description == "can't be played now: it doesn't match the pile"
    # Out of turn: every card is inert, and says whose turn it is.
    waiting = inline_page("en", info, engine_view(state, 1), 0, group_locale="en")
    assert {plain_text(telegram_html(r.text)).split(": ")[1] for r in waiting.results} == {
        "it is Ana's turn"
    }
    # Answering a draw card: the draw comes first.
    state, _ = act(state, 0, "p.W+4")
    state, _ = act(state, 0, "c.G")
    answering = inline_page("en", game_info(state), engine_view(state, 1), 0, group_locale="en")
    inert = [r for r in answering.results if Callback.decode(r.id).kind is Kind.INERT]
    assert inert and all(
        plain_text(telegram_html(r.text)).endswith(
            "can't be played now: the +4 has to be answered first"
        )
        for r in inert
    )


def test_what_an_inline_choice_posts_speaks_the_groups_language() -> None:
    """A Persian player in an English group: their list is in Persian, what it posts in
    the group (an action's name, a card that can't be played, the 🃏 My cards button) in
    English."""
    state = dealt(["R5 B9", "G7 G8 Y2"], discard="R3", current=0)
    page = inline_page("fa", game_info(state), engine_view(state, 0), 0, group_locale="en")
    by_arg = {Callback.decode(r.id).arg.split(".")[0]: r for r in page.results}
    assert by_arg["d"].text.plain == "📥 Draw" and by_arg["d"].title == "📥 " + gettext(
        "fa", "Draw"
    )
    assert plain_text(telegram_html(by_arg["B9"].text)).startswith("🟦 9 can't be played now")
    assert by_arg["B9"].description == gettext(
        "fa", "can't be played now: {why}", why=gettext("fa", "it doesn't match the pile")
    )
    for result in page.results:
        assert [b.text for row in result.keyboard for b in row] == ["🃏 My cards"]
