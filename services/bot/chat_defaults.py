"""A chat's defaults for /new, and the door /new reads them through (records.py is the
door to the SQL records; ``NoChatSettings`` when there are none)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Protocol

from services.engine.client import Options, offered_house_rules


@dataclass(frozen=True, slots=True)
class ChatDefaults:
    """A chat's own defaults for /new (the records service keeps them; RULES.md §2).
    ``None``: the service's own."""

    variant: str | None = None
    turn_seconds: int | None = None
    uno_window_seconds: int | None = None
    rules: Options | None = None
    #: The language of the games' messages: a forum topic's own (``/language`` there),
    #: else the chat's.
    language: str | None = None

    def rules_for(self, variant: str) -> Options:
        """The chat's house rules that ``variant`` offers, the target score kept.

        [decision] A chat keeps one set of house rules, chosen in /settings for its default
        variant; a game of another variant takes those of them that variant offers, so
        picking No Mercy at /new never asks for Seven-O, which the engine would refuse."""
        rules = self.rules or Options()
        offered = set(offered_house_rules(variant))
        switches = {
            f.name: False
            for f in fields(Options)
            if isinstance(getattr(rules, f.name), bool) and f.name not in offered
        }
        return replace(rules, **switches)


class ChatSettings(Protocol):
    """Where /new reads a chat's defaults from: the one door to lasting chat settings."""

    async def defaults(self, chat_id: int, topic_id: int = 0) -> ChatDefaults: ...


class NoChatSettings:
    """No stored chat settings: every chat plays the variants' own defaults."""

    async def defaults(self, chat_id: int, topic_id: int = 0) -> ChatDefaults:
        return ChatDefaults()
