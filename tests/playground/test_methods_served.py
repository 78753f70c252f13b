"""Every Bot API method the bot's code calls is one the local Telegram serves.

The bot is written with python-telegram-bot: its ``Bot`` names each method in snake case
(``send_message``) beside Telegram's own name (``sendMessage``), and objects carry
shortcuts (``message.reply_text`` is sendMessage). The test reads services/bot/ for both.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import telegram

from playground.bot_api import METHODS

BOT_CODE = Path(__file__).resolve().parents[2] / "services" / "bot"

#: python-telegram-bot shortcuts on Message, CallbackQuery and InlineQuery.
SHORTCUTS = {
    "reply_text": ["sendMessage"],
    "reply_html": ["sendMessage"],
    "reply_markdown_v2": ["sendMessage"],
    "edit_text": ["editMessageText"],
    "edit_message_text": ["editMessageText"],
    "edit_reply_markup": ["editMessageReplyMarkup"],
    "edit_message_reply_markup": ["editMessageReplyMarkup"],
    "delete": ["deleteMessage"],
    "pin": ["pinChatMessage"],
    "unpin": ["unpinChatMessage"],
    "answer": ["answerCallbackQuery", "answerInlineQuery"],
}


def api_names() -> dict[str, str]:
    """python-telegram-bot's snake-case method names -> Telegram's names."""
    names: dict[str, str] = {}
    members = dict(inspect.getmembers(telegram.Bot, inspect.iscoroutinefunction))
    for camel, fn in members.items():
        if camel != camel.lower():
            for snake, other in members.items():
                if other is fn and snake == snake.lower():
                    names[snake] = camel
    return names


def methods_called(code: str, names: dict[str, str]) -> set[str]:
    called: set[str] = set()
    for name in re.findall(r"\.([a-z_][a-z0-9_]*)\(", code):
        if name in names:
            called.add(names[name])
        called.update(SHORTCUTS.get(name, []))
    return called


def test_the_mapping_knows_python_telegram_bot() -> None:
    names = api_names()
    assert names["send_message"] == "sendMessage"
    assert names["answer_callback_query"] == "answerCallbackQuery"
    assert methods_called("await query.answer('x'); await bot.get_chat_member(c, u)", names) == {
        "answerCallbackQuery",
        "answerInlineQuery",
        "getChatMember",
    }


def test_every_method_the_bot_calls_is_served() -> None:
    names = api_names()
    called: set[str] = set()
    for path in sorted(BOT_CODE.rglob("*.py")):
        called |= methods_called(path.read_text(encoding="utf-8"), names)
    missing = sorted(m for m in called if m.lower() not in METHODS)
    assert missing == [], f"the bot calls Bot API methods the local Telegram lacks: {missing}"
