"""Watching the local Telegram through its live feed (``/control/feed``): the bot's
messages as they are now, every write of a group's table, and when each press and each
posted inline choice happened, all on the local Telegram's clock. A load bench reads the
game from here instead of asking the control API for every chat."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

from harness.players import HAND_HEAD, TABLE_HEAD, is_table, markup_callbacks
from services.presentation.callbacks import Kind

MENTION = re.compile(r"tg://user\?id=(\d+)")
#: How the bot's message of a round's scores and of a game's end begin
#: (services/presentation/screens/scores.py): a move that ends a round is told there.
ROUND_END_HEADS = ("🏁 ", "🏆 ")


@dataclass
class Shown:
    """A bot message as it is now: its raw text (Telegram HTML) and buttons."""

    message_id: int
    text: str
    markup: dict[str, Any] | None


@dataclass
class TableWrite:
    time: float
    text: str


class Feed:
    """Follows ``/control/feed``: the bot's messages as they are now (tables in groups,
    hands in private chats), every write of a table, every post of a round's scores, and
    when each press and each posted inline choice happened, all on the local Telegram's
    clock."""

    def __init__(self, url: str, bot_id: int) -> None:
        self.url = url
        self.bot_id = bot_id
        self.groups: set[int] = set()
        self.chats: dict[int, dict[int, Shown]] = {}  # chat → message id → as shown
        self.latest: dict[int, int] = {}  # chat → the bot's last message id there
        self.table_writes: dict[int, list[TableWrite]] = {}
        self.round_ends: dict[int, list[float]] = {}  # group → times its scores were posted
        self.hand_writes: dict[int, list[float]] = {}  # user → times their hand was written
        self.press_times: dict[tuple[int, str], float] = {}
        self.post_times: dict[tuple[int, int], float] = {}
        self.last_seq = 0
        self.events = 0
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        async with (
            httpx.AsyncClient(timeout=None) as http,
            http.stream("GET", self.url + "/control/feed") as response,
        ):
            self.connected.set()
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    self.events += 1
                    self.on_event(orjson.loads(line[6:]))

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "message":
            message = event["message"]
            chat_id = message["chat"]["id"]
            sender = message.get("from", {}).get("id")
            if sender == self.bot_id:
                self.latest[chat_id] = message["message_id"]
            elif message.get("via_bot"):
                self.post_times[(chat_id, message["message_id"])] = event["time"]
        elif kind == "press":
            self.press_times[(event["user_id"], event["data"])] = event["time"]
        elif kind == "call":
            self.on_call(event["call"])

    def on_call(self, call: dict[str, Any]) -> None:
        self.last_seq = max(self.last_seq, call["seq"])
        if not call.get("ok") or call.get("bot_id") != self.bot_id:
            return
        method = str(call["method"]).lower()
        params = call.get("params") or {}
        chat_id = call.get("chat_id")
        if method not in ("sendmessage", "editmessagetext") or chat_id is None:
            return
        if method == "sendmessage":
            message_id = self.latest.get(chat_id)
        else:
            message_id = int(params.get("message_id", 0))
        if message_id is None:
            return
        text = str(params.get("text", ""))
        self.chats.setdefault(chat_id, {})[message_id] = Shown(message_id, text, _markup(params))
        if chat_id in self.groups and is_table(text):
            self.table_writes.setdefault(chat_id, []).append(TableWrite(call["time"], text))
        elif (
            chat_id in self.groups and method == "sendmessage" and text.startswith(ROUND_END_HEADS)
        ):
            self.round_ends.setdefault(chat_id, []).append(call["time"])
        elif chat_id not in self.groups and text.startswith(HAND_HEAD):
            self.hand_writes.setdefault(chat_id, []).append(call["time"])

    def newest(self, chat_id: int, head: str = "", kind: Kind | None = None) -> Shown | None:
        """The bot's newest message in the chat whose text starts with ``head`` (and which has
        a button of ``kind``)."""
        for message_id in sorted(self.chats.get(chat_id, {}), reverse=True):
            shown = self.chats[chat_id][message_id]
            if not (is_table(shown.text) if head == TABLE_HEAD else shown.text.startswith(head)):
                continue
            if kind is None or any(cb.kind is kind for cb in markup_callbacks(shown.markup)):
                return shown
        return None

    def table(self, chat_id: int) -> Shown | None:
        """The group's live table."""
        return self.newest(chat_id, TABLE_HEAD)

    def hand(self, user_id: int) -> Shown | None:
        """The user's hand message in their private chat with the bot."""
        return self.newest(user_id, HAND_HEAD)


def _markup(params: dict[str, Any]) -> dict[str, Any] | None:
    raw = params.get("reply_markup")
    if isinstance(raw, str):
        raw = json.loads(raw) if raw else None
    return raw if isinstance(raw, dict) else None


def owing_user(table_text: str) -> int | None:
    """The user the table's "▶" line names (who owes the next decision)."""
    for line in table_text.split("\n"):
        if line.startswith("▶"):
            found = MENTION.search(line)
            return int(found.group(1)) if found else None
    return None
