"""The callback data of the bot's buttons and the ids of its inline results.

One compact text form, ``kind|game|version|argument`` (at most 64 bytes, Telegram's limit
for both): the game's 12-character id, the state version the button was drawn at, and an
engine action code (``p.R5``, ``c.G``, ``x.2`` ...) or a lobby word. A press whose version is
not the game's current one is out of date; nothing is guessed from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

MAX_BYTES = 64


class Kind(StrEnum):
    ACT = "a"  # a move: the argument is an engine action code
    LOBBY = "l"  # join, leave, ai.<level>, start, rules
    VARIANT = "v"  # /new's variant keyboard: the argument is the variant (no game yet)
    HAND = "h"  # show or refresh my hand in the private chat
    INERT = "n"  # a card that cannot be played now: answered, nothing changes
    SETTINGS = "s"  # /settings: ``p.<panel>`` or a choice, ``h.jump_in``, ``u.8`` (no game)
    FORGET = "f"  # /forgetme's confirmation: the argument is the user who asked (no game)


_FIELD = re.compile(r"^[A-Za-z0-9_\-.+/]*$")


class BadCallback(ValueError):
    """Data the bot did not write (an old format, a forged press)."""


@dataclass(frozen=True, slots=True)
class Callback:
    kind: Kind
    game_id: str
    version: int
    arg: str = ""

    def encode(self) -> str:
        text = f"{self.kind.value}|{self.game_id}|{self.version}|{self.arg}"
        if len(text.encode()) > MAX_BYTES:
            raise ValueError(f"callback data over {MAX_BYTES} bytes: {text!r}")
        return text

    @staticmethod
    def decode(data: str | None) -> Callback:
        if not data or len(data.encode()) > MAX_BYTES:
            raise BadCallback(data)
        parts = data.split("|")
        if len(parts) != 4:
            raise BadCallback(data)
        kind, game_id, version, arg = parts
        try:
            parsed_kind = Kind(kind)
        except ValueError:
            raise BadCallback(data) from None
        if not version.isdigit() or not _FIELD.match(game_id) or not _FIELD.match(arg):
            raise BadCallback(data)
        return Callback(parsed_kind, game_id, int(version), arg)


#: The order a scripted player (the end-to-end tests, the load bench) prefers moves in: play,
#: then every other decision, then draw.
MOVE_PREFERENCE = ("p", "c", "s", "a", "d", "k")


def preferred_move(options: list[Callback]) -> Callback | None:
    """The move button a scripted player presses among ``options``, by ``MOVE_PREFERENCE``."""
    acts = [cb for cb in options if cb.kind is Kind.ACT]
    for head in MOVE_PREFERENCE:
        for cb in acts:
            if cb.arg.split(".")[0] == head:
                return cb
    return None


def action_id(user_id: int, version: int, code: str) -> str:
    """The engine's idempotency key for a player's move: the same press, the same inline
    choice (its ``chosen_inline_result`` and its posted message) and every retry after a
    fault carry the same id, so the engine applies the move once."""
    return f"tg:{user_id}:{version}:{code}"
