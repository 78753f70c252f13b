"""The UNO rules engine: a pure library (no I/O, no clock, no global randomness).

The public surface::

    new_game(variant, players, options, seed) -> (state, events)
    from_setup(Setup(...)) -> (state, events)      # a table in RULES.md §1 notation
    legal_actions(state, player) -> actions
    apply(state, action, next_seed) -> Applied(state, events) | Rejected(reason, message)
    deal_commitment(seed) -> hex                     # what the table shows of a round's seed
    view(state, viewer) -> View                      # the only way a hand leaves
    events_for(events, viewer) -> events             # the only way a private event leaves
    to_json(state) / from_json(data)
"""

from .actions import Action, ActionType
from .cards import Card, Color, Face, Kind, NotationError, Side, card, cards
from .commitment import deal_commitment
from .engine import Applied, Reason, Rejected, apply, legal_actions, owed_by
from .events import Event, EventType
from .round import round_gains
from .serialize import from_json, options_to_json, to_json
from .setup import Setup, SetupError, check_options, from_setup, new_game
from .state import GameState, Options, Pending, PendingKind
from .variant import TITLE_CONTEXT, HouseRule, Variant, VariantWords
from .variants import DEFAULT_VARIANT, VARIANTS, UnknownVariant, get_variant
from .view import (
    PendingView,
    SeatView,
    View,
    addressee,
    events_for,
    numbered_events_for,
    view,
)

__all__ = [
    "DEFAULT_VARIANT",
    "TITLE_CONTEXT",
    "VARIANTS",
    "Action",
    "ActionType",
    "Applied",
    "Card",
    "Color",
    "Event",
    "EventType",
    "Face",
    "GameState",
    "HouseRule",
    "Kind",
    "NotationError",
    "Options",
    "Pending",
    "PendingKind",
    "PendingView",
    "Reason",
    "Rejected",
    "SeatView",
    "Setup",
    "SetupError",
    "Side",
    "UnknownVariant",
    "Variant",
    "VariantWords",
    "View",
    "addressee",
    "apply",
    "card",
    "cards",
    "check_options",
    "deal_commitment",
    "events_for",
    "from_json",
    "from_setup",
    "get_variant",
    "legal_actions",
    "new_game",
    "numbered_events_for",
    "options_to_json",
    "owed_by",
    "round_gains",
    "to_json",
    "view",
]
