"""Every message the bot sends or edits takes one path (``services/bot/outbox.py``), the
flood budget's: no other module of the bot calls Telegram's sending or editing methods (or
their shortcuts on a message or a press) itself."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "services" / "bot"
SEND_PATH = BOT / "outbox.py"
#: Bot API calls that put, change or remove a message in a chat, and PTB's shortcuts for
#: them on ``Message`` and ``CallbackQuery``.
SENDING = {
    "send_message",
    "edit_message_text",
    "edit_message_reply_markup",
    "delete_message",
    "delete_messages",
    "copy_message",
    "forward_message",
    "reply_text",
    "reply_html",
    "reply_markdown",
    "reply_markdown_v2",
}


def sends_in(source: str) -> list[tuple[int, str]]:
    """Each (line, method) where ``source`` calls one of ``SENDING``."""
    return sorted(
        (node.lineno, node.func.attr)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in SENDING
    )


def test_only_the_send_path_sends() -> None:
    modules = sorted(BOT.rglob("*.py"))
    assert SEND_PATH in modules and BOT / "lobby.py" in modules
    assert sends_in(SEND_PATH.read_text(encoding="utf-8")) != []  # the walk sees them
    found = {
        f"{p.name}:{line}": method
        for p in modules
        if p != SEND_PATH
        for line, method in sends_in(p.read_text(encoding="utf-8"))
    }
    assert found == {}


def test_a_send_is_found() -> None:
    source = (
        "async def f(message, query, context):\n"
        "    await message.reply_text('hi')\n"
        "    await context.bot.send_message(1, 'hi')\n"
        "    await query.edit_message_text('hi')\n"
        "    await outbox.reply(message, 'hi')\n"
    )
    assert sends_in(source) == [(2, "reply_text"), (3, "send_message"), (4, "edit_message_text")]
