"""A chat's defaults for /new, and the door /new reads them through (records.py is the
door to the SQL records; ``NoChatSettings`` when there are none)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from services.engine.client import Options


@dataclass(frozen=True, slots=True)
class ChatDefaults:
    """A chat's own defaults for /new (the records service keeps them; RULES.md §2)."""

    variant: str | None = None
    turn_seconds: int | None = None
    rules: Options | None = None


class ChatSettings(Protocol):
    """Where /new reads a chat's defaults from: the one door to lasting chat settings."""

    async def defaults(self, chat_id: int, topic_id: int = 0) -> ChatDefaults: ...


class NoChatSettings:
    """No stored chat settings: every chat plays the variants' own defaults."""

    async def defaults(self, chat_id: int, topic_id: int = 0) -> ChatDefaults:
        return ChatDefaults()
