"""What a front reads of the engine without calling it: the types of the views and the
games it answers (``services.engine.wire.schemas``), the variants' facts and the score a
round gains (the rules library's pure data), and the refusals the client raises.

Pure, so the presentation and a front's words load nothing of HTTP through it; the engine's
client (``services.engine.client``) builds on it and re-exports every name here, so a
caller of the client needs no other import of the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.engine.rules import (
    DEFAULT_VARIANT,
    TITLE_CONTEXT,
    VARIANTS,
    Options,
    UnknownVariant,
    round_gains,
)
from services.engine.wire.schemas import (
    EnginePendingView,
    EngineSeatView,
    EngineView,
    GameInfo,
    PlayerView,
    RematchInfo,
    RemovalInfo,
    SeatInfo,
    UserGames,
    VariantFacts,
)

__all__ = [
    "DEFAULT_VARIANT",
    "TITLE_CONTEXT",
    "BadRequest",
    "Conflict",
    "EngineError",
    "EnginePendingView",
    "EngineSeatView",
    "EngineView",
    "Forbidden",
    "GameInfo",
    "IllegalAction",
    "NotFound",
    "Options",
    "PlayerView",
    "RematchInfo",
    "RemovalInfo",
    "SeatInfo",
    "StaleVersion",
    "Unauthorized",
    "Unavailable",
    "UnknownVariant",
    "UserGames",
    "VariantFacts",
    "default_target_score",
    "offered_house_rules",
    "round_gains",
    "variant_facts",
    "variant_names",
]


#: Every variant the engine plays and its facts, by name, in the rule sheet's order. The
#: fronts read them from the rules library itself (pure data, the same in the engine and in
#: every front), never over HTTP: a front holds no variant fact of its own.
_VARIANT_FACTS: Mapping[str, VariantFacts] = {
    name: VariantFacts.of(variant) for name, variant in VARIANTS.items()
}


def variant_facts(variant: str) -> VariantFacts:
    """The facts of ``variant``. Raises ``UnknownVariant`` (a ``KeyError``)."""
    try:
        return _VARIANT_FACTS[variant]
    except KeyError:
        raise UnknownVariant(variant) from None


def variant_names() -> tuple[str, ...]:
    """Every variant the engine plays, in the rule sheet's order."""
    return tuple(_VARIANT_FACTS)


def offered_house_rules(variant: str) -> tuple[str, ...]:
    """The house rules a chat may switch on for ``variant``, as ``Options`` field names, in
    the rule sheet's order: what the rules library offers it (RULES.md §2 "House rules in
    detail", alternate scoring included), and the false-catch penalty. A game asking for
    another is refused when it is dealt. Raises ``UnknownVariant`` (a ``KeyError``)."""
    return tuple(variant_facts(variant).house_rules)


def default_target_score(variant: str) -> int:
    """The score that wins a game of ``variant`` when the chat sets no target of its own."""
    return variant_facts(variant).target_score


class EngineError(Exception):
    """An answer other than success. ``error`` is the service's stable code."""

    def __init__(self, status: int, error: str, message: str, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {error}: {message}")
        self.status = status
        self.error = error
        self.message = message
        self.body = body


class BadRequest(EngineError):
    """400: the request was malformed (a bug in the caller)."""


class Unauthorized(EngineError):
    """401: missing or wrong service token."""


class Forbidden(EngineError):
    """403: the user has no seat in the game, is out of it (``error == "seat_removed"``,
    ``reason``: ``kicked`` or ``left_group``), or is not the host."""

    @property
    def reason(self) -> str | None:
        value = self.body.get("reason")
        return str(value) if value is not None else None

    @property
    def removed(self) -> str | None:
        """Why the user is out of the game, when that is the refusal."""
        return self.reason if self.error == "seat_removed" else None


class NotFound(EngineError):
    """404: no such game (never existed, or expired), or no live game in the chat."""


class Conflict(EngineError):
    """409: the game is not in a state for this (see ``error``); ``current_version`` and,
    for a chat that already has a game, ``game_id`` come with it."""

    @property
    def current_version(self) -> int | None:
        value = self.body.get("current_version")
        return int(value) if value is not None else None

    @property
    def game_id(self) -> str | None:
        value = self.body.get("game_id")
        return str(value) if value is not None else None


class StaleVersion(Conflict):
    """409 ``stale_version``: the game moved on; nothing was applied."""


class IllegalAction(EngineError):
    """422: the rules refuse the action (``reason`` is the engine's code), or a lobby
    request they cannot honour (unknown variant, too few players)."""

    @property
    def reason(self) -> str | None:
        value = self.body.get("reason")
        return str(value) if value is not None else None


class Unavailable(EngineError):
    """5xx: the service or its Redis is down. A write may have been applied all the same:
    send it again with the same action id, which applies it once or answers the first
    result."""
