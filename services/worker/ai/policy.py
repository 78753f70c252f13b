"""The AI player's interface: a policy sees one player's ``View`` and picks a legal action.

A policy is given exactly what the human in that seat would see (``view(state, seat)``:
their own hand, every other hand as a count and, in UNO Flip, the faces the table sees) and
a random generator of its own.  It never receives the game state, so it cannot read other
hands, the draw pile's order or the game's seed.

Two kinds of decision reach a policy:

- ``choose``: the seat owes the pending decision (``view.pending.player == view.viewer``);
  the answer must be one of ``view.legal``.
- ``react``: somebody else owes the decision, but the seat may still act out of turn (call
  UNO, catch a player who did not, or jump in under that house rule); the answer is one of
  ``view.legal`` or ``None`` to let the moment pass.
"""

from __future__ import annotations

import random
from typing import Protocol

from services.engine.rules import Action, View


class Policy(Protocol):
    """What an AI player is.  A policy from the registry keeps no memory: every decision is
    a function of the view (and the policy's own random generator), so one instance serves
    any number of games, and a stand-in deciding once after a timeout loses nothing."""

    @property
    def name(self) -> str: ...

    def for_game(self) -> Policy:
        """The player for one seat of one game.  It may remember that seat's own earlier
        views in the game, as the human in the seat would (never anything else); a
        memoryless policy returns itself."""
        ...

    def choose(self, view: View, rng: random.Random) -> Action:
        """The action for the decision this seat owes; one of ``view.legal``."""
        ...

    def react(self, view: View, rng: random.Random) -> Action | None:
        """An out-of-turn action (one of ``view.legal``) or ``None`` to do nothing."""
        ...


class IllegalChoice(RuntimeError):
    """A policy answered with an action that is not among the legal ones it was shown."""
