"""What /stats, /top and /forgetme show (services/bot/boards.py): the words, the numbers
in the reader's digits, names escaped, and the /top arguments."""

from __future__ import annotations

import pytest

from services.bot import boards
from services.bot.callbacks import Callback, Kind
from services.records.queries import (
    BoardEntry,
    BoardOrder,
    ChatSettings,
    UserStats,
    VariantRecord,
)


def record(variant: str, games: int, wins: int, points: int, rating: float) -> VariantRecord:
    return VariantRecord(variant, games, wins, points, rating, rating + 9, 3.0)


def test_stats_show_the_chat_and_everywhere_per_variant() -> None:
    stats = UserStats(
        7, "Ann", False, False,
        variants=(record("classic", 12, 5, 340, 12.34), record("flip", 2, 0, 10, -3.5)),
        in_chat=(record("classic", 3, 1, 90, 12.34),),
    )  # fmt: skip
    text = boards.stats_text("en", "Ann <3", stats)
    assert "Ann &lt;3" in text
    lines = text.splitlines()
    assert lines.index("In this chat:") < lines.index("Everywhere:")
    assert "Classic: games 3 · wins 1 · points 90 · rating 12.3" in text
    assert "Classic: games 12 · wins 5 · points 340 · rating 12.3" in text
    assert "Flip: games 2 · wins 0 · points 10 · rating -3.5" in text


def test_stats_without_a_record_say_so_in_the_readers_language() -> None:
    assert (
        boards.stats_text("en", "Bo", None) == "No finished games on record for \u2068Bo\u2069 yet."
    )
    persian = boards.stats_text("fa", "Bo", None)
    assert "Bo" in persian and "No finished" not in persian


def test_a_board_by_rating_and_by_wins() -> None:
    entries = [
        BoardEntry(1, 5, "Ann", False, 10, 7, 500, 20.04),
        BoardEntry(2, -1, "Strong AI", True, 4, 1, 30, 3.0),
        BoardEntry(3, 9, None, False, 1, 1, 12, 1.0),
    ]
    text = boards.board_text("en", "flip", BoardOrder.RATING, False, entries)
    assert text.splitlines()[0] == "<b>🏆 Flip — this chat, by rating</b>"
    assert "1. \u2068Ann\u2069 — rating 20 · 10 games" in text
    assert "2. 🤖 \u2068Strong AI\u2069 — rating 3 · 4 games" in text
    assert "3. \u2068(forgotten player)\u2069 — rating 1 · 1 game" in text
    wins = boards.board_text("en", "classic", BoardOrder.WINS, True, entries[:1])
    assert "Classic — everywhere, by wins" in wins
    assert "1. \u2068Ann\u2069 — 7 wins · 10 games" in wins


def test_a_persian_board_has_persian_digits() -> None:
    text = boards.board_text("fa", "classic", BoardOrder.WINS, False, [
        BoardEntry(1, 5, "Ann", False, 12, 7, 500, 20.0),
    ])  # fmt: skip
    assert "۱۲" in text and "۷" in text and "12" not in text


def test_an_empty_board_invites_a_game() -> None:
    text = boards.board_text("en", "minions", BoardOrder.RATING, True, [])
    assert "No one on this board yet" in text


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        ([], ("classic", BoardOrder.RATING, False)),
        (["flip"], ("flip", BoardOrder.RATING, False)),
        (["global"], ("classic", BoardOrder.RATING, True)),
        (["wins", "No-Mercy", "GLOBAL"], ("no_mercy", BoardOrder.WINS, True)),
    ],
)
def test_top_arguments(args: list[str], wanted: tuple[str, BoardOrder, bool]) -> None:
    assert boards.parse_top(args) == wanted


def test_top_refuses_an_unknown_word() -> None:
    with pytest.raises(boards.BadBoardRequest) as caught:
        boards.parse_top(["flip", "banana"])
    assert caught.value.word == "banana"


def test_the_forget_button_names_who_asked() -> None:
    text, markup = boards.forget_question("gu", 1234)
    assert "Are you sure" not in text
    button = markup.inline_keyboard[0][0]
    assert Callback.decode(button.callback_data) == Callback(Kind.FORGET, "", 0, "1234")  # type: ignore[arg-type]


def test_the_settings_panel_ticks_the_current_choices() -> None:
    current = ChatSettings(variant="minions", turn_seconds=30)
    text, markup = boards.settings_message("en", current, 60)
    assert "Default variant: Minions" in text and "Turn time: 30 seconds" in text
    labels = [b.text for row in markup.inline_keyboard for b in row]
    assert "✅ Minions" in labels and "✅ 30 s" in labels and "Classic" in labels
    args = [Callback.decode(b.callback_data).arg for row in markup.inline_keyboard for b in row]  # type: ignore[arg-type]
    assert args == ["v.classic", "v.flip", "v.no_mercy", "v.minecraft", "v.minions"] + [
        f"t.{s}" for s in boards.TURN_CHOICES
    ]
    unset, _ = boards.settings_message("fa", ChatSettings(), 60)
    assert "۶۰" in unset  # the service's own turn time when the chat chose none
