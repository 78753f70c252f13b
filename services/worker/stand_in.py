"""The stand-in: from a player's view (as the engine sends it) to the one action it takes.

RULES.md §7 "Timing in a chat": when a decision's deadline passes, an AI stand-in makes that
decision for the player; AI seats (filled at the lobby) decide through the same path. The
stand-in sees only what that player would see (the engine's player view) and answers with
an action code from the view's ``legal`` list.

[decision] A stand-in makes exactly one move per deadline: a move that settles the decision
owed (a play, a draw, a keep, an accept, a challenge, a colour, a swap target). Calling UNO
and catching do not settle it, and the engine counts a stand-in move on a fresh turn as a
missed deadline, so a stand-in that called UNO and then played would count one timeout as
two. (What the turn owes after a settling move, a drawn card or a colour, the engine
gives the stand-in at once and counts no further miss: RULES.md §7.)
Those codes are therefore hidden from the policy. A player who was away when they came down
to one card can be caught like anyone else who forgets to call (RULES.md §2 "UNO"): the rule
sheet's penalty for not calling, not a second penalty for the timeout.

The AI policies live in ``services.worker.ai``; they are imported lazily, by name, so the
worker starts even while one is missing, and falls back to the first settling action.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, TypeVar

from services.engine.rules import (
    Action,
    ActionType,
    Options,
    PendingKind,
    PendingView,
    SeatView,
    View,
)

log = logging.getLogger(__name__)

#: Codes that never settle an owed decision (see the module docstring).
_NOT_SETTLING = frozenset({ActionType.CALL_UNO, ActionType.CATCH})
_NOT_SETTLING_HEADS = frozenset(t.value for t in _NOT_SETTLING)

Chooser = Callable[[View, random.Random], Action]
_T = TypeVar("_T")

#: Names the lobby gives AI seats that the policy registry spells differently.
_POLICY_ALIASES = {"first-legal": "first"}


class BadView(ValueError):
    """The engine sent a view the stand-in cannot read."""


def view_from_json(data: Mapping[str, Any]) -> View:
    """Rebuild a ``View`` from its JSON form (``View.to_json``: ``legal`` as action codes).

    Built from the dataclasses' own fields, so a field the engine adds to the view travels
    without a change here; JSON lists become the tuples the view holds."""
    try:
        viewer = data["viewer"]
        pending_data = data.get("pending")
        pending = (
            _dataclass_from(
                PendingView, {**pending_data, "kind": PendingKind(pending_data["kind"])}
            )
            if pending_data
            else None
        )
        seats = tuple(_dataclass_from(SeatView, seat) for seat in data["seats"])
        legal = tuple(Action.from_code(viewer, str(code)) for code in data["legal"])
        options = _dataclass_from(Options, data.get("options") or {})
        special = {"pending": pending, "seats": seats, "legal": legal, "options": options}
        return _dataclass_from(View, {**data, **special})
    except (KeyError, TypeError, ValueError) as exc:
        raise BadView(f"unreadable player view: {exc!r}") from exc


def _dataclass_from(cls: type[_T], data: Mapping[str, Any]) -> _T:
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in known}
    return cls(**values)


def settling(legal: Sequence[Action]) -> tuple[Action, ...]:
    """The legal actions that settle the owed decision (all of them if none does)."""
    kept = tuple(a for a in legal if a.type not in _NOT_SETTLING)
    return kept or tuple(legal)


def first_settling_code(legal_codes: Sequence[str]) -> str:
    """The fallback answer: the first legal code that settles the decision."""
    for code in legal_codes:
        if code.partition(".")[0] not in _NOT_SETTLING_HEADS:
            return code
    if not legal_codes:
        raise BadView("the view offers no legal action")
    return legal_codes[0]


def load_chooser(policy_name: str) -> Chooser | None:
    """The ``choose`` of the named AI policy, or ``None`` when there is no such policy."""
    # Imported here: the worker starts (and keeps firing timers with the fallback) even
    # when the policies cannot be imported.
    try:
        from services.worker.ai import UnknownPolicy, get_policy
    except ImportError:
        log.exception("the AI policies cannot be imported; the stand-in plays the first move")
        return None
    try:
        return get_policy(_POLICY_ALIASES.get(policy_name, policy_name)).choose
    except UnknownPolicy:
        log.warning("AI policy %r is unknown; the stand-in plays the first legal move", policy_name)
        return None


def seeded_rng(seed_text: str) -> random.Random:
    """A generator fixed by ``seed_text`` (the action id): a redelivered timer that gets
    the same view makes the same choice."""
    return random.Random(int.from_bytes(hashlib.sha256(seed_text.encode()).digest()[:8], "big"))


def choose_action(
    view_json: Mapping[str, Any], *, policy_name: str, seed_text: str, settle_only: bool = True
) -> str:
    """The action code sent for the decision this view's player owes.

    ``settle_only`` (a stand-in for a human): choose among the settling actions only. An AI
    seat (``settle_only=False``) plays as itself and may call UNO as a move of its own."""
    legal_codes = [str(code) for code in view_json.get("legal", ())]
    fallback = first_settling_code(legal_codes)
    chooser = load_chooser(policy_name)
    if chooser is None:
        return fallback
    view = view_from_json(view_json)
    # The policy decides among the settling actions only (see the module docstring).
    narrowed = _with_legal(view, settling(view.legal)) if settle_only else view
    try:
        action = chooser(narrowed, seeded_rng(seed_text))
    except Exception:
        log.exception("AI policy %r failed; the stand-in plays the first legal move", policy_name)
        return fallback
    if action not in narrowed.legal:
        log.error(
            "AI policy %r chose %s, not a legal move; using %s", policy_name, action, fallback
        )
        return fallback
    return action.code


def _with_legal(view: View, legal: tuple[Action, ...]) -> View:
    return replace(view, legal=legal)
