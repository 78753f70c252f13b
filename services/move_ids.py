"""What every Telegram front of the game agrees on about a person's move: the engine's
idempotency key, and the check of a game id a person sent.

The bot's chat (its buttons and its inline hand) and the Mini App move for the same people
in the same games; a move made in both for one decision must be applied once, so both build
its key here. Neither front imports the other: they are deployed apart.
"""

from __future__ import annotations

import re

#: The engine's game id pattern (services/engine/routes GAME_ID_PATTERN): every game id a
#: person sent (callback data, an inline query, a deep link, a Mini App's start parameter)
#: is checked against it before it goes near an engine URL, so no path-shaped id
#: ("../../v1/…") reaches one.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_game_id(text: str) -> bool:
    return GAME_ID.fullmatch(text) is not None


def action_id(user_id: int, version: int, code: str) -> str:
    """The engine's idempotency key for a player's move: the same press, the same inline
    choice (its ``chosen_inline_result`` and its posted message), the same tap in the Mini
    App and every retry after a fault carry the same id, so the engine applies the move
    once."""
    return f"tg:{user_id}:{version}:{code}"
