"""What /stats, /top, /forgetme and /settings show (services/presentation/screens/boards.py
and settings.py), as the bot sends it: the words, the numbers in the reader's digits, names
escaped; and what the bot reads of what people send (services/bot/boards.py): the /top
arguments, the names people type, a /settings choice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from telegram import InlineKeyboardMarkup

from services.bot import boards
from services.bot.keyboards import markup as telegram_markup
from services.bot.telegram_html import telegram_html
from services.engine.client import Options
from services.engine.rules import VARIANTS
from services.presentation.callbacks import Callback, Kind
from services.presentation.screens import boards as board_screens
from services.presentation.screens import settings
from services.presentation.screens.settings import Panel, setting_refused
from services.presentation.typed_names import named_variant
from services.records.queries import (
    BoardEntry,
    BoardOrder,
    ChatSettings,
    UserStats,
    VariantRecord,
)

#: The engine's variants with their spellings, as ``variant_facts`` has them.
SPELLINGS = {name: list(v.spellings) for name, v in VARIANTS.items()}


def stats_text(locale: str, name: str, stats: UserStats | None) -> str:
    return telegram_html(board_screens.stats_text(locale, name, stats))


def board_text(
    locale: str, variant: str, order: BoardOrder, everywhere: bool, entries: list[BoardEntry]
) -> str:
    by_wins = order is BoardOrder.WINS
    return telegram_html(board_screens.board_text(locale, variant, by_wins, everywhere, entries))


def settings_message(
    locale: str,
    current: ChatSettings,
    defaults: settings.ServiceDefaults,
    panel: Panel = Panel.MAIN,
) -> tuple[str, InlineKeyboardMarkup]:
    """The /settings message as the bot sends it: its text, and its keyboard as Telegram's."""
    screen = settings.settings_screen(locale, current, defaults, panel)
    shown = telegram_markup(screen.keyboard)
    assert shown is not None
    return screen.text.plain, shown


def record(variant: str, games: int, wins: int, points: int, rating: float) -> VariantRecord:
    return VariantRecord(variant, games, wins, points, rating, rating + 9, 3.0)


def test_stats_show_the_chat_and_everywhere_per_variant() -> None:
    stats = UserStats(
        7, "Ann", False, False,
        variants=(record("classic", 12, 5, 340, 12.34), record("flip", 2, 0, 10, -3.5)),
        in_chat=(record("classic", 3, 1, 90, 12.34),),
    )  # fmt: skip
    text = stats_text("en", "Ann <3", stats)
    assert "Ann &lt;3" in text
    lines = text.splitlines()
    assert lines.index("In this chat:") < lines.index("Everywhere:")
    assert "Classic: games 3 · wins 1 · points 90 · rating 12.3" in text
    assert "Classic: games 12 · wins 5 · points 340 · rating 12.3" in text
    assert "Flip: games 2 · wins 0 · points 10 · rating -3.5" in text


ENDED_EARLY = "A game ended with /end before anyone won counts for no one."


def test_stats_without_a_record_say_so_in_the_readers_language() -> None:
    """And why games played but ended early are not there (services/records/README.md:
    a game ended early is kept without results)."""
    assert stats_text("en", "Bo", None) == (
        f"No finished games on record for \u2068Bo\u2069 yet.\n{ENDED_EARLY}"
    )
    persian = stats_text("fa", "Bo", None)
    assert "Bo" in persian and "No finished" not in persian


def test_a_board_by_rating_and_by_wins() -> None:
    entries = [
        BoardEntry(1, 5, "Ann", False, 10, 7, 500, 20.04),
        BoardEntry(2, -1, "Strong AI", True, 4, 1, 30, 3.0),
        BoardEntry(3, 9, None, False, 1, 1, 12, 1.0),
    ]
    text = board_text("en", "flip", BoardOrder.RATING, False, entries)
    assert text.splitlines()[0] == "<b>🏆 Flip — this chat, by rating</b>"
    assert "1. \u2068Ann\u2069 — rating 20 · 10 games" in text
    assert "2. 🤖 \u2068Strong AI\u2069 — rating 3 · 4 games" in text
    assert "3. \u2068(forgotten player)\u2069 — rating 1 · 1 game" in text
    wins = board_text("en", "classic", BoardOrder.WINS, True, entries[:1])
    assert "Classic — everywhere, by wins" in wins
    assert "1. \u2068Ann\u2069 — 7 wins · 10 games" in wins


def test_a_persian_board_has_persian_digits() -> None:
    text = board_text("fa", "classic", BoardOrder.WINS, False, [
        BoardEntry(1, 5, "Ann", False, 12, 7, 500, 20.0),
    ])  # fmt: skip
    assert "۱۲" in text and "۷" in text and "12" not in text


def test_an_empty_board_invites_a_game() -> None:
    text = board_text("en", "minions", BoardOrder.RATING, True, [])
    assert "No one on this board yet" in text
    assert text.endswith(ENDED_EARLY)


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        ([], (None, BoardOrder.RATING, False)),
        (["flip"], ("flip", BoardOrder.RATING, False)),
        (["global"], (None, BoardOrder.RATING, True)),
        (["no", "mercy", "wins"], ("no_mercy", BoardOrder.WINS, False)),
        (["ماین", "کرفت"], ("minecraft", BoardOrder.RATING, False)),
        (["wins", "No-Mercy", "GLOBAL"], ("no_mercy", BoardOrder.WINS, True)),
    ],
)
def test_top_arguments(args: list[str], wanted: tuple[str | None, BoardOrder, bool]) -> None:
    assert boards.parse_top(args, SPELLINGS) == wanted


@pytest.mark.parametrize(
    ("typed", "variant"),
    [
        ("no mercy", "no_mercy"),
        ("nomercy", "no_mercy"),
        ("mercy", "no_mercy"),  # the variant's own spellings (rules/variants/no_mercy.py)
        ("No-Mercy", "no_mercy"),
        ("UNO No Mercy", "no_mercy"),
        ("بی رحم", "no_mercy"),
        ("اونو بی‌رحم", "no_mercy"),
        ("નો મર્સી", "no_mercy"),
        ("ماینکرفت", "minecraft"),
        ("માઇનક્રાફ્ટ", "minecraft"),
        ("فلیپ", "flip"),
        ("યુનો ફ્લિપ", "flip"),
        ("مینیون", "minions"),
        ("classic", "classic"),
        ("کلاسیک", "classic"),
        ("banana", None),
        ("uno", None),
    ],
)
def test_variants_answer_to_the_names_people_type(typed: str, variant: str | None) -> None:
    assert named_variant(typed, SPELLINGS) == variant


def test_top_refuses_an_unknown_word() -> None:
    with pytest.raises(boards.BadBoardRequest) as caught:
        boards.parse_top(["flip", "banana"], SPELLINGS)
    assert caught.value.word == "banana"


def test_the_forget_button_names_who_asked() -> None:
    question = board_screens.forget_question("gu", 1234)
    assert "Are you sure" not in question.text.plain
    markup = telegram_markup(question.keyboard)
    assert markup is not None
    button = markup.inline_keyboard[0][0]
    assert Callback.decode(button.callback_data) == Callback(Kind.FORGET, "", 0, "1234")  # type: ignore[arg-type]


DEFAULTS = settings.ServiceDefaults(
    turn_seconds=60, uno_window_seconds=8, variants=tuple(SPELLINGS)
)


def args_of(markup: Any) -> list[str]:
    return [Callback.decode(b.callback_data).arg for row in markup.inline_keyboard for b in row]


def labels_of(markup: Any) -> list[str]:
    return [b.text for row in markup.inline_keyboard for b in row]


def test_the_settings_panel_sums_up_and_opens_each_setting() -> None:
    current = ChatSettings(
        variant="minions",
        turn_seconds=30,
        uno_window_seconds=15,
        rules=Options(jump_in=True, seven_o=True, alternate_scoring=True, target_score=300),
    )
    text, markup = settings_message("en", current, DEFAULTS)
    assert text.splitlines()[1:] == [
        "Default variant: Minions",
        "House rules: Seven-O, Jump-In",
        "Turn time: 30 seconds",
        "UNO window: 15 seconds",
        "Scoring: alternate (each counts their own hand, lowest wins)",
        "Target: 300 points",
        "Stand-in for a player out of time: strong AI",
    ]
    assert args_of(markup) == ["p.v", "p.h", "p.t", "p.u", "p.s", "p.a"]
    unset, _ = settings_message("fa", ChatSettings(), DEFAULTS)
    assert "۶۰" in unset and "۸" in unset and "۵۰۰" in unset  # the service's and variant's own


def test_each_settings_panel_ticks_the_current_choices() -> None:
    current = ChatSettings(variant="minions", turn_seconds=30, rules=Options(jump_in=True))
    _, variants = settings_message("en", current, DEFAULTS, Panel.VARIANT)
    assert "✅ Minions" in labels_of(variants) and "Classic" in labels_of(variants)
    assert args_of(variants) == [f"v.{v}" for v in VARIANTS] + ["p.m"]
    _, turns = settings_message("en", current, DEFAULTS, Panel.TURN)
    assert "✅ 30 s" in labels_of(turns)
    assert args_of(turns) == [f"t.{s}" for s in settings.TURN_CHOICES] + ["p.m"]
    _, windows = settings_message("en", current, DEFAULTS, Panel.UNO_WINDOW)
    assert "✅ 8 s" in labels_of(windows)  # the service's own when the chat chose none
    assert args_of(windows) == [f"u.{s}" for s in settings.UNO_WINDOW_CHOICES] + ["p.m"]
    _, scoring = settings_message("en", current, DEFAULTS, Panel.SCORING)
    assert labels_of(scoring)[:2] == ["✅ Standard", "Alternate"]
    assert "✅ The variant's own" in labels_of(scoring)
    assert args_of(scoring) == [
        "s.std",
        "s.alt",
        *(f"g.{t}" for t in settings.TARGET_CHOICES),
        "p.m",
    ]
    _, stand_in = settings_message("en", current, DEFAULTS, Panel.STAND_IN)
    assert labels_of(stand_in) == ["✅ strong AI", "hard AI", "« Back"]  # strong unless chosen
    hard = replace(current, stand_in="hard")
    text, stand_in = settings_message("en", hard, DEFAULTS, Panel.STAND_IN)
    assert labels_of(stand_in)[:2] == ["strong AI", "✅ hard AI"]
    assert "Stand-in for a player out of time: hard AI" in text
    assert args_of(stand_in) == ["a.strong", "a.hard", "p.m"]


def test_the_house_rules_panel_offers_what_the_variant_offers() -> None:
    """RULES.md §2 "House rules in detail": Flip has no Seven-O, No Mercy only Jump-In."""
    classic = ChatSettings(rules=Options(seven_o=True))
    text, markup = settings_message("en", classic, DEFAULTS, Panel.HOUSE_RULES)
    assert "House rules for Classic" in text
    assert args_of(markup) == [
        "h.progressive_draw",
        "h.seven_o",
        "h.jump_in",
        "h.draw_until_playable",
        "h.false_catch_penalty",
        "p.m",
    ]
    assert labels_of(markup)[1] == "✅ Seven-O" and labels_of(markup)[0] == "▫️ Progressive Draw"
    flip = replace(classic, variant="flip")
    text, markup = settings_message("en", flip, DEFAULTS, Panel.HOUSE_RULES)
    assert "h.seven_o" not in args_of(markup) and "House rules: none" in text
    no_mercy = replace(classic, variant="no_mercy")
    _, markup = settings_message("en", no_mercy, DEFAULTS, Panel.HOUSE_RULES)
    assert args_of(markup) == ["h.jump_in", "h.false_catch_penalty", "p.m"]
    _, scoring = settings_message("en", no_mercy, DEFAULTS, Panel.SCORING)
    assert "s.alt" not in args_of(scoring)


def test_a_settings_choice_changes_one_setting() -> None:
    current = ChatSettings(variant="classic", rules=Options(target_score=300))

    def choose(locale: str, current: ChatSettings, arg: str) -> ChatSettings:
        return boards.chosen_settings(current, arg, list(SPELLINGS))

    assert choose("en", current, "v.flip").variant == "flip"
    assert choose("en", current, "h.jump_in").rules.jump_in
    assert not choose("en", choose("en", current, "h.jump_in"), "h.jump_in").rules.jump_in
    assert choose("en", current, "t.120").turn_seconds == 120
    assert choose("en", current, "u.4").uno_window_seconds == 4
    assert choose("en", current, "s.alt").rules.alternate_scoring
    assert not choose("en", current, "s.std").rules.alternate_scoring
    assert choose("en", current, "g.1000").rules.target_score == 1000
    assert choose("en", current, "g.0").rules.target_score is None
    assert choose("en", current, "g.0").rules == Options()
    assert choose("en", current, "a.hard").stand_in == "hard"
    assert choose("en", current, "a.hard") == replace(current, stand_in="hard")


NOT_A_CHOICE = "That is not one of the choices."


@pytest.mark.parametrize(
    ("variant", "arg", "answer"),
    [
        ("classic", "t.7", NOT_A_CHOICE),
        ("classic", "u.61", NOT_A_CHOICE),
        ("classic", "u.999999999999999", NOT_A_CHOICE),
        ("classic", "g.-5", NOT_A_CHOICE),
        ("classic", "g.250", NOT_A_CHOICE),
        ("classic", "v.poker", NOT_A_CHOICE),
        ("classic", "h.cheating", NOT_A_CHOICE),
        ("classic", "h.alternate_scoring", NOT_A_CHOICE),
        ("classic", "x.1", NOT_A_CHOICE),
        ("classic", "a.random", NOT_A_CHOICE),
        ("flip", "h.seven_o", "Seven-O is not played in Flip."),
        ("no_mercy", "s.alt", "No Mercy has no alternate scoring."),
    ],
)
def test_a_forged_settings_choice_is_refused(variant: str, arg: str, answer: str) -> None:
    """A choice the settings never offer is refused in words; so is a house rule the
    variant does not offer (RULES.md §2 "House rules in detail": Flip has no Seven-O, No
    Mercy no alternate scoring)."""
    with pytest.raises(boards.BadSetting) as refused:
        boards.chosen_settings(ChatSettings(variant=variant), arg, list(SPELLINGS))
    why = refused.value
    assert setting_refused("en", why.why, why.variant, why.rule) == answer


def test_every_settings_button_fits_telegrams_callback_data() -> None:
    for variant in VARIANTS:
        for panel in Panel:
            _, markup = settings_message("en", ChatSettings(variant=variant), DEFAULTS, panel)
            for arg in args_of(markup):
                assert boards.panel_of(arg) is not None
    assert boards.panel_of("p.zz") is None and boards.panel_of("q.1") is None


def test_new_games_take_the_house_rules_their_variant_offers() -> None:
    """RULES.md §2 "House rules in detail": a chat's house rules, set for its default
    variant, go to a game of another variant only where it offers them (the engine refuses
    the others when dealing)."""
    chosen = Options(seven_o=True, jump_in=True, alternate_scoring=True, target_score=200)
    defaults = ChatSettings(rules=chosen)
    assert boards.rules_for(defaults, "classic") == chosen
    assert boards.rules_for(defaults, "flip") == replace(chosen, seven_o=False)
    assert boards.rules_for(defaults, "no_mercy") == Options(jump_in=True, target_score=200)
    assert boards.rules_for(ChatSettings(), "minions") == Options()
