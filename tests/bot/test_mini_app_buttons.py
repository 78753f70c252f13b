"""The buttons that open the Mini App: the group's table links to it directly (Telegram
refuses ``web_app`` buttons in groups), the private hand opens its page as a ``web_app``;
both on the game shown, in the reader's language, and neither without a configured app."""

from __future__ import annotations

from typing import Any

import pytest

from playground.bot_api import check_button
from playground.errors import BotApiError
from services.bot.keyboards import markup
from services.engine.rules import Setup, from_setup
from services.presentation.rich import as_rich
from services.presentation.screens.hand import private_hand
from services.presentation.screens.keyboard import Screen
from services.presentation.screens.mini_app import MiniApp, with_mini_app
from services.presentation.screens.table import table
from tests.helpers.engine_views import engine_view, game_info

APP = MiniApp.of("https://uno.example/app/", "uno_bot", "table")


def dealt() -> Any:
    state, _ = from_setup(
        Setup(hands=["R1 R2 G5", "B1 B2 B3"], discard="R3", draw_pile="G1 G2 G3", current=0)
    )
    return state


def last_button(screen: Screen) -> dict[str, Any]:
    shown = markup(screen.keyboard)
    assert shown is not None
    button: dict[str, Any] = shown.to_dict()["inline_keyboard"][-1][0]
    return button


def test_the_groups_table_links_to_the_app_on_its_game() -> None:
    state = dealt()
    info = game_info(state)
    shown = table("en", info, engine_view(state, None), [], two_sided=False)
    opened = with_mini_app(shown, "en", APP, info.game_id, in_group=True)
    button = last_button(opened)
    assert button == {
        "text": "🎴 Open table",
        "url": f"https://t.me/uno_bot/table?startapp={info.game_id}",
    }
    check_button(button, private=False)  # the local Telegram takes it in a group
    assert opened.keyboard is not None and shown.keyboard is not None
    assert opened.keyboard[:-1] == shown.keyboard  # the table's own buttons unchanged


def test_the_private_hand_opens_the_apps_page_on_its_game() -> None:
    state = dealt()
    info = game_info(state)
    shown = private_hand("fa", info, engine_view(state, 0), "UNO night")
    button = last_button(with_mini_app(shown, "fa", APP, info.game_id, in_group=False))
    assert button["web_app"] == {"url": f"https://uno.example/app/?game={info.game_id}"}
    assert button["text"] == "🎴 باز کردن میز"
    check_button(button, private=True)
    with pytest.raises(BotApiError, match="BUTTON_TYPE_INVALID"):
        check_button(button, private=False)  # why the group's table gets a link instead


def test_no_app_configured_no_button_and_none_on_a_screen_without_buttons() -> None:
    assert MiniApp.of("", "uno_bot", "table") is None
    state = dealt()
    info = game_info(state)
    shown = private_hand("gu", info, engine_view(state, 0), "UNO night")
    assert with_mini_app(shown, "gu", None, info.game_id, in_group=False) == shown
    bare = Screen(as_rich("The game is over"), None)
    assert with_mini_app(bare, "en", APP, info.game_id, in_group=True) == bare


def test_a_page_address_with_a_query_keeps_it() -> None:
    app = MiniApp.of("https://uno.example/app?x=1", "uno_bot", "table")
    assert app is not None and app.page_of("g1") == "https://uno.example/app?x=1&game=g1"
