"""Random-play properties of the engine, for every variant in the registry and the house-rule
options each offers (STYLE.md "The tests": random-play invariants, serialisation round-trips,
a Hypothesis stateful test).

Properties checked after every action:

- no card is created or lost: hands + draw pile + discard + set-aside == the variant's deck;
- whoever owes a decision has at least one legal action;
- nothing hidden reaches a view: for viewer v, permuting the cards among the *other* hands
  (keeping counts) and shuffling the draw pile leaves ``view(state, v)`` unchanged.  For
  double-sided decks (UNO Flip) the faces the table can see are checked directly — every
  back face shown is exactly the hidden face of that card — and the permutation check runs
  on the rest of the view;
- ``events_for(events, v)`` holds nothing addressed to anyone else, and private events
  (dealt/drawn cards, a challenged hand) are never public; their JSON form passes the same
  door alike (``numbered_events_for``, each at its place in the write);
- ``to_json``/``from_json`` round-trips exactly, through ``json.dumps`` too;
- an illegal action is refused and changes nothing;

and after every game: the same seed and the same actions give the same state.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from services.engine.rules import (
    VARIANTS,
    Action,
    ActionType,
    Applied,
    Event,
    EventType,
    GameState,
    HouseRule,
    Options,
    Rejected,
    apply,
    events_for,
    from_json,
    get_variant,
    legal_actions,
    new_game,
    numbered_events_for,
    to_json,
    view,
)
from services.engine.rules.cards import Card, Side
from tests.helpers.rules import all_cards, deck_of, examples, random_action

VARIANT_NAMES = sorted(VARIANTS)
MAX_STEPS = 160  # actions per example: enough for a round or two, quick enough for CI
PRIVATE_EVENTS = frozenset({EventType.DREW_CARDS, EventType.CHALLENGE_REVEAL})


# -- strategies -------------------------------------------------------------------------------


def offered(variant: str, field_name: str) -> bool:
    """Whether the variant offers the Options field (fields that are no house rule, such
    as the false-catch penalty, are offered everywhere)."""
    if field_name not in {r.value for r in HouseRule}:
        return True
    return HouseRule(field_name) in get_variant(variant).house_rules


def options_for(variant: str) -> st.SearchStrategy[Options]:
    """Every combination of the boolean options the variant offers, and a few target scores
    (low ones make games of several rounds)."""
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for f in dataclasses.fields(Options):
        if f.type in ("bool", bool):
            parts[f.name] = st.booleans() if offered(variant, f.name) else st.just(False)
        elif f.name == "target_score":
            parts[f.name] = st.sampled_from([None, 40, 150])
    return st.fixed_dictionaries(parts).map(lambda kw: Options(**kw))


# -- the checks -------------------------------------------------------------------------------


def assert_cards_conserved(state: GameState) -> None:
    found = all_cards(state)
    deck = deck_of(state)
    assert found == deck, f"created: {found - deck}, lost: {deck - found}"


def assert_owed_decision_is_possible(state: GameState) -> None:
    if state.pending is not None:
        assert legal_actions(state, state.pending.player), f"{state.pending} has no action"


def assert_json_round_trip(state: GameState) -> None:
    data = to_json(state)
    assert from_json(data) == state
    assert from_json(json.loads(json.dumps(data))) == state


def _hidden_face_code(c: Card, side: Side) -> str:
    hidden = c.hidden_face(side)
    return hidden.code if hidden is not None else c.face(side).code


def _permuted(state: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """The same table as ``viewer`` sees it: the other players' cards dealt out again among
    them (same counts) and the draw pile shuffled."""
    others = [i for i in range(len(state.players)) if i != viewer]
    pool = [c for i in others for c in state.players[i].hand]
    rng.shuffle(pool)
    players = list(state.players)
    for i in others:
        size = len(players[i].hand)
        players[i] = dataclasses.replace(players[i], hand=tuple(pool[:size]))
        pool = pool[size:]
    draw_pile = list(state.draw_pile)
    rng.shuffle(draw_pile)
    return dataclasses.replace(state, players=tuple(players), draw_pile=tuple(draw_pile))


def _comparable(v: Any) -> Any:
    """A view without the faces the table sees of double-sided cards (checked apart)."""
    seats = tuple(dataclasses.replace(s, back_faces=None) for s in v.seats)
    return dataclasses.replace(v, seats=seats, draw_pile_back=None)


def assert_views_hide_what_is_hidden(state: GameState, rng: random.Random) -> None:
    double_sided = get_variant(state.variant).double_sided
    viewers: list[int | None] = [*range(len(state.players)), None]
    for viewer in viewers:
        seen = view(state, viewer)
        other = view(_permuted(state, viewer, rng), viewer)
        if double_sided:
            for seat in seen.seats:
                if seat.seat == viewer:
                    assert seat.back_faces is None
                else:
                    expected = tuple(
                        _hidden_face_code(c, state.side) for c in state.players[seat.seat].hand
                    )
                    assert seat.back_faces == expected
            top = _hidden_face_code(state.draw_pile[0], state.side) if state.draw_pile else None
            assert seen.draw_pile_back == top
            for action in seen.legal:
                assert action.card is None or action.card.dark is None
            assert _comparable(seen) == _comparable(other), f"viewer {viewer} sees hidden cards"
        else:
            assert seen == other, f"viewer {viewer} sees hidden cards"
        if viewer is not None:
            assert seen.hand == tuple(c.face(state.side).code for c in state.hand(viewer))


def assert_events_redacted(events: tuple[Event, ...], players: int) -> None:
    for e in events:
        if e.type in PRIVATE_EVENTS:
            assert e.to is not None, f"{e.type} made public"
    as_json = [e.to_json() for e in events]  # the form the event log and the API carry
    for viewer in [*range(players), None]:
        for e in events_for(events, viewer):
            assert e.to is None or e.to == viewer
        # The same door on the JSON form lets the same events through, each at its place.
        seen = numbered_events_for(as_json, viewer)
        assert [e for _, e in seen] == [e.to_json() for e in events_for(events, viewer)]
        assert all(as_json[n] is e for n, e in seen)


def assert_refused_unchanged(state: GameState, action: Action) -> None:
    before = to_json(state)
    result = apply(state, action)
    assert isinstance(result, Rejected), f"{action} should be refused"
    assert to_json(state) == before


# -- the policy -------------------------------------------------------------------------------


def candidate_actions(state: GameState, rng: random.Random) -> list[Action]:
    """A few actions anyone might try now, legal or not (for the refusal check)."""
    n = len(state.players)
    seat = rng.randrange(n)
    some_card = rng.choice(get_variant(state.variant).deck)
    return [
        Action(ActionType.PLAY, seat, card=some_card),
        Action(ActionType.DRAW, seat),
        Action(ActionType.PASS, seat),
        Action(ActionType.CHALLENGE, seat),
        Action(ActionType.ACCEPT, seat),
        Action(ActionType.CALL_UNO, seat),
        Action(ActionType.CATCH, seat, target=rng.randrange(n)),
        Action(ActionType.SWAP, seat, target=rng.randrange(n)),
        Action(ActionType.CHOOSE_COLOR, seat, color=rng.choice(list(state.side.colors))),
    ]


def play_random(
    variant: str, players: int, seed: int, options: Options, rng: random.Random
) -> tuple[GameState, list[Action]]:
    """Play up to MAX_STEPS actions, checking every property after each."""
    state, events = new_game(variant, [f"P{i}" for i in range(players)], options, seed=seed)
    assert_events_redacted(events, players)
    log: list[Action] = []
    for _ in range(MAX_STEPS):
        assert_cards_conserved(state)
        assert_owed_decision_is_possible(state)
        assert_json_round_trip(state)
        assert_views_hide_what_is_hidden(state, rng)
        if state.pending is None:
            break
        for attempt in candidate_actions(state, rng):
            if attempt.player is not None and attempt not in legal_actions(state, attempt.player):
                result = apply(state, attempt)
                if isinstance(result, Applied):
                    # Only a false catch under the false-catch penalty is legal without being
                    # listed (it is a mistake, not an option to offer).
                    assert attempt.type is ActionType.CATCH and options.false_catch_penalty
                else:
                    assert_refused_unchanged(state, attempt)
        action = random_action(state, rng)
        result = apply(state, action)
        assert isinstance(result, Applied), f"{action} refused: {result}"
        assert result.state.version == state.version + 1
        assert_events_redacted(result.events, players)
        log.append(action)
        state = result.state
    return state, log


def replay(variant: str, players: int, seed: int, options: Options, log: list[Action]) -> GameState:
    state, _ = new_game(variant, [f"P{i}" for i in range(players)], options, seed=seed)
    for action in log:
        result = apply(state, action)
        assert isinstance(result, Applied)
        state = result.state
    return state


# -- the tests --------------------------------------------------------------------------------

PROPERTY_SETTINGS = settings(
    max_examples=examples(8),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_random_play_keeps_every_invariant(variant: str) -> None:
    """Random legal play from new_game, across player counts and option combinations."""
    v = get_variant(variant)

    @PROPERTY_SETTINGS
    @given(
        players=st.integers(v.min_players, min(v.max_players, 6)),
        seed=st.integers(0, 2**63 - 1),
        options=options_for(variant),
        policy_seed=st.integers(0, 2**32),
    )
    def check(players: int, seed: int, options: Options, policy_seed: int) -> None:
        # The policy's choices come from their own seed: a whole game of drawn choices is
        # too much data for Hypothesis to shrink usefully.
        final, log = play_random(variant, players, seed, options, random.Random(policy_seed))
        assert replay(variant, players, seed, options, log) == final

    check()


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_random_play_ten_players(variant: str) -> None:
    """The largest tables deal and play too (RULES.md header: 2-10 players)."""
    v = get_variant(variant)
    rng = random.Random(variant)
    final, log = play_random(variant, v.max_players, 7, Options(), rng)
    assert replay(variant, v.max_players, 7, Options(), log) == final


class EngineMachine(RuleBasedStateMachine):
    """Hypothesis drives the engine action by action: the owed player, other players out of
    turn, the service's system actions and random illegal attempts, all interleaved."""

    state: GameState

    @initialize(
        variant=st.sampled_from(VARIANT_NAMES),
        players=st.integers(2, 5),
        seed=st.integers(0, 2**63 - 1),
        data=st.data(),
    )
    def start(self, variant: str, players: int, seed: int, data: st.DataObject) -> None:
        options = data.draw(options_for(variant))
        self.variant = variant
        self.options = options
        self.seed = seed
        self.state, events = new_game(
            variant, [f"P{i}" for i in range(players)], options, seed=seed
        )
        self.log: list[Action] = []
        assert_events_redacted(events, players)

    def _apply(self, action: Action) -> None:
        result = apply(self.state, action)
        assert isinstance(result, Applied), f"{action} refused: {result}"
        assert_events_redacted(result.events, len(self.state.players))
        self.log.append(action)
        self.state = result.state

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def owed_player_acts(self, data: st.DataObject) -> None:
        assert self.state.pending is not None
        actions = legal_actions(self.state, self.state.pending.player)
        self._apply(data.draw(st.sampled_from(actions)))

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def someone_else_acts(self, data: st.DataObject) -> None:
        assert self.state.pending is not None
        seat = data.draw(st.integers(0, len(self.state.players) - 1))
        actions = legal_actions(self.state, seat)
        if seat != self.state.pending.player and actions:
            self._apply(data.draw(st.sampled_from(actions)))

    @precondition(lambda self: self.state.uno_window is not None)
    @rule()
    def uno_window_times_out(self) -> None:
        self._apply(Action(ActionType.CLOSE_UNO_WINDOW))

    @precondition(lambda self: not self.state.is_over)
    @rule(policy_seed=st.integers(0, 2**32))
    def illegal_attempts_change_nothing(self, policy_seed: int) -> None:
        for attempt in candidate_actions(self.state, random.Random(policy_seed)):
            assert attempt.player is not None
            if attempt not in legal_actions(self.state, attempt.player):
                if attempt.type is ActionType.CATCH and self.options.false_catch_penalty:
                    continue
                assert_refused_unchanged(self.state, attempt)

    @rule()
    def look_at_the_table(self) -> None:
        """Always possible, even once the game is over: every view still hides."""
        assert_views_hide_what_is_hidden(self.state, random.Random(self.state.version + 1))

    @invariant()
    def cards_conserved(self) -> None:
        assert_cards_conserved(self.state)

    @invariant()
    def owed_decision_possible(self) -> None:
        assert_owed_decision_is_possible(self.state)

    @invariant()
    def json_round_trips(self) -> None:
        assert_json_round_trip(self.state)

    @invariant()
    def views_hide(self) -> None:
        assert_views_hide_what_is_hidden(self.state, random.Random(self.state.version))

    def teardown(self) -> None:
        if hasattr(self, "log"):
            players = len(self.state.players)
            again = replay(self.variant, players, self.seed, self.options, self.log)
            assert again == self.state


TestEngineMachine = EngineMachine.TestCase
TestEngineMachine.settings = settings(
    max_examples=examples(12),
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
