"""Scripted people playing through the local Telegram as people do: reading the bot's
messages (the table in the group, the hand in the private chat), pressing their buttons,
and choosing a move the way a player who just wants the game to go on does."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.presentation.callbacks import BadCallback, Callback, Kind

#: How the bot's table (in the group) and a hand (in a private chat) begin.
TABLE_HEAD = "🎴 UNO"
HAND_HEAD = "UNO "


def is_table(text: str) -> bool:
    """Whether a group message is the bot's table (or lobby): its head is on its first line,
    or its second after the line naming whose decision it is."""
    return any(line.startswith(TABLE_HEAD) for line in text.split("\n", 2)[:2])


#: The order a scripted player prefers moves in: play, then every other decision, then draw.
MOVE_PREFERENCE = ("p", "c", "s", "a", "d", "k")


def preferred_move(options: list[Callback]) -> Callback | None:
    """The move button a scripted player presses among ``options``, by ``MOVE_PREFERENCE``."""
    acts = [cb for cb in options if cb.kind is Kind.ACT]
    for head in MOVE_PREFERENCE:
        for cb in acts:
            if cb.arg.split(".")[0] == head:
                return cb
    return None


def markup_callbacks(markup: dict[str, Any] | None) -> list[Callback]:
    """The callbacks of an inline keyboard's buttons, in order."""
    out = []
    for row in (markup or {}).get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data:
                out.append(Callback.decode(data))
    return out


def callbacks(message: dict[str, Any]) -> list[Callback]:
    """The callbacks of a message's buttons."""
    return markup_callbacks(message.get("reply_markup"))


def inline_moves(answer: dict[str, Any]) -> dict[Callback, str]:
    """The moves an inline query's answer offers, each with its result's id (results that
    are no move, e.g. the hand's header, are left out)."""
    options = {}
    for result in answer["results"]:
        with contextlib.suppress(BadCallback):
            options[Callback.decode(result["id"])] = result["id"]
    return options


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    markup = message.get("reply_markup") or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


@dataclass
class Seat:
    user: dict[str, Any]

    @property
    def id(self) -> int:
        return int(self.user["id"])


class Players:
    def __init__(
        self, control: Any, token: str, chat_id: int, bot_username: str, bot_id: int
    ) -> None:
        self.bot_id = bot_id
        self.control = control
        self.token = token
        self.chat_id = chat_id
        self.bot_username = bot_username

    # -- the group --------------------------------------------------------------------------

    def bot_messages(self, thread_id: int | None = None) -> list[dict[str, Any]]:
        return [
            plain(m)
            for m in self.control.messages(self.chat_id, thread_id=thread_id)
            if m.get("from", {}).get("username") == self.bot_username and not m.get("deleted")
        ]

    def table(self, thread_id: int | None = None) -> dict[str, Any] | None:
        tables = [m for m in self.bot_messages(thread_id) if is_table(m.get("text", ""))]
        return tables[-1] if tables else None

    # Waits are generous: with Telegram's flood limits on, a group's table may be edited only
    # every few seconds, and a loaded machine stretches that further.
    def wait_table(
        self, what: str, predicate: Any, timeout: float = 60, thread_id: int | None = None
    ) -> dict[str, Any]:
        return self._wait_latest(
            lambda: self.table(thread_id),
            predicate,
            what,
            timeout,
            lambda last: f"the table: {last and last['text']!r}",
        )

    def _wait_latest(
        self,
        latest: Callable[[], dict[str, Any] | None],
        predicate: Any,
        what: str,
        timeout: float,
        shown: Callable[[dict[str, Any] | None], str],
    ) -> dict[str, Any]:
        """The ``latest`` message once ``predicate`` holds for it; a failure shows the last
        one seen (``shown``), which is what tells a stuck game from a slow one."""

        def check() -> dict[str, Any] | None:
            message = latest()
            return message if message is not None and predicate(message) else None

        try:
            found: dict[str, Any] = self.control.wait_until(check, timeout=timeout, what=what)
        except AssertionError as e:
            raise AssertionError(f"{e}; {shown(latest())}") from None
        return found

    def press(
        self,
        user_id: int,
        message: dict[str, Any],
        cb: Callback | str,
        chat_id: int | None = None,
        *,
        forged: bool = False,
    ) -> dict[str, Any]:
        """Press ``cb`` on ``message``. With ``forged``, a modified client's press: ``cb``
        (or any callback data) whatever buttons the message shows."""
        answer: dict[str, Any] = self.control.press_button(
            user_id,
            chat_id if chat_id is not None else message["chat"]["id"],
            message["message_id"],
            cb if isinstance(cb, str) else cb.encode(),
            forged=forged,
        )
        assert answer["answered"], f"the bot did not answer {cb!r}"
        return answer

    def press_hand(
        self, user_id: int, message: dict[str, Any], cb: Callback | str, *, forged: bool = False
    ) -> dict[str, Any]:
        """Press a button of the hand in the user's private chat (named by the bot's id)."""
        return self.press(user_id, message, cb, chat_id=self.bot_id, forged=forged)

    # -- a player's private chat --------------------------------------------------------------

    def hand(self, user_id: int) -> dict[str, Any] | None:
        hands = [
            plain(m)
            for m in self.control.private_messages(user_id, self.token)
            if m.get("from", {}).get("is_bot") and m.get("text", "").startswith(HAND_HEAD)
        ]
        return hands[-1] if hands else None

    def wait_hand(
        self, user_id: int, predicate: Any, what: str, timeout: float = 60
    ) -> dict[str, Any]:
        return self._wait_latest(
            lambda: self.hand(user_id), predicate, what, timeout, lambda last: f"the hand: {last!r}"
        )


def plain(message: dict[str, Any]) -> dict[str, Any]:
    """The message with the bidi isolates around names taken out of its text."""
    text = message.get("text", "").replace("\u2068", "").replace("\u2069", "")
    return {**message, "text": text}


def version_of(message: dict[str, Any]) -> int:
    versions = [
        cb.version for cb in callbacks(message) if cb.kind in (Kind.ACT, Kind.INERT, Kind.HAND)
    ]
    return max(versions) if versions else -1
