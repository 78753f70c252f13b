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

from services.move_ids import is_game_id

MAX_BYTES = 64


class Kind(StrEnum):
    ACT = "a"  # a move: the argument is an engine action code
    LOBBY = "l"  # join, leave, ai.<level>, start, rules
    VARIANT = "v"  # /new's variant keyboard: the argument is the variant (no game yet)
    HAND = "h"  # show or refresh my hand in the private chat
    INERT = "n"  # a card that cannot be played now: answered, nothing changes
    SETTINGS = "s"  # /settings: ``p.<panel>`` or a choice, ``h.jump_in``, ``u.8`` (no game)
    FORGET = "f"  # /forgetme's confirmation: the argument is the user who asked (no game)
    LANGUAGE = "g"  # /language's buttons: the argument is the language (no game)
    REMATCH = "r"  # a finished game's rematch vote: ``yes`` or ``no``


_FIELD = re.compile(r"^[A-Za-z0-9_\-.+/]*$")

#: Versions are the engine's counters, far below 10**15; longer digits are made up.
_VERSION_DIGITS = 15


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
        """The callback written by ``encode``; BadCallback for anything else (another
        format, a game id that is not one, a version of more digits than any, a move without
        its code, text that is not UTF-8: a lone surrogate from a webhook's JSON)."""
        if not data or not data.isascii() or len(data) > MAX_BYTES:
            raise BadCallback(data)
        parts = data.split("|")
        if len(parts) != 4:
            raise BadCallback(data)
        kind, game_id, version, arg = parts
        try:
            parsed_kind = Kind(kind)
        except ValueError:
            raise BadCallback(data) from None
        if (
            not version.isdigit()
            or len(version) > _VERSION_DIGITS
            or (game_id and not is_game_id(game_id))
            or not _FIELD.match(arg)
            or (parsed_kind is Kind.ACT and not arg)
        ):
            raise BadCallback(data)
        return Callback(parsed_kind, game_id, int(version), arg)
