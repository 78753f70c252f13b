"""``legal_actions`` and ``apply``: who may do what now, and what doing it changes.

``apply`` never raises for a bad action: it returns ``Rejected`` with a stable reason code
and the state is untouched (it is immutable; a new one is built only for a legal action).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from .actions import SYSTEM_ACTIONS, Action, ActionType
from .cards import Card, Color, Kind, Side, face_matches
from .effects import resolve_challenge, stack_answers, swap_hands, take_draw
from .events import Event, EventType
from .round import finish_round
from .state import AfterColor, GameState, Pending, PendingKind
from .table import Table
from .variant import DrawPolicy
from .variants import get_variant
from .variants.minions import breaks_freeze


class Reason(StrEnum):
    """Why an action was refused.  Stable: clients and translations key on these."""

    GAME_OVER = "game_over"
    NOT_A_PLAYER = "not_a_player"
    KNOCKED_OUT = "knocked_out"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_DECISION = "wrong_decision"  # not what the decision owed now asks for
    CARD_NOT_IN_HAND = "card_not_in_hand"
    DOES_NOT_MATCH = "does_not_match"
    MUST_PLAY_DRAWN = "must_play_drawn"  # only the card just drawn may be played
    MUST_PLAY = "must_play"  # a playable card must be played (No Mercy)
    NOT_STACKABLE = "not_stackable"
    CANNOT_CHALLENGE = "cannot_challenge"
    BAD_COLOR = "bad_color"
    BAD_TARGET = "bad_target"
    CANNOT_CALL_UNO = "cannot_call_uno"
    NOTHING_TO_CATCH = "nothing_to_catch"
    NOTHING_TO_CLOSE = "nothing_to_close"
    NOT_FROZEN = "not_frozen"
    SYSTEM_ONLY = "system_only"


@dataclass(frozen=True, slots=True)
class Rejected:
    reason: Reason
    message: str


class Applied(NamedTuple):
    state: GameState
    events: tuple[Event, ...]


# -- what may be done ------------------------------------------------------------------------


def _matching(
    hand: tuple[Card, ...], side: Side, color: Color | None, top_kind: Kind
) -> list[Card]:
    """The cards of ``hand`` that ``face_matches`` allows, in hand order."""
    if side is Side.LIGHT:
        # On the light side every card shows its light face: the test inlined, as it runs
        # for every card of every hand on every turn.
        return [
            c
            for c in hand
            if (face := c.light).color is None or face.color == color or face.kind == top_kind
        ]
    return [c for c in hand if face_matches(c.face(side), color, top_kind)]


def _distinct(state: GameState, cards: list[Card]) -> list[Card]:
    """One entry per distinguishable card.  A Flip player cannot see their own cards'
    other faces, so two cards that differ only there are one choice for them."""
    if len(cards) < 2:
        return cards
    if all(c.dark is None for c in cards):
        return list(dict.fromkeys(cards))  # one-sided cards: equal cards are one choice
    seen: set[object] = set()
    out = []
    for c in cards:
        key = c.face(state.side) if c.dark is not None else c
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


# Actions are immutable values, so each one a seat can be offered is made once and handed
# out again: ``legal_actions`` runs for every decision of every game.  The keys are bounded
# by the seats times the distinct cards and colours.
_PLAIN_ACTIONS: dict[tuple[ActionType, int], Action] = {}
_PLAY_ACTIONS: dict[tuple[int, Card], Action] = {}
_COLOR_ACTIONS: dict[tuple[int, Color], Action] = {}
_TARGET_ACTIONS: dict[tuple[ActionType, int, int], Action] = {}


def _plain(type: ActionType, player: int) -> Action:
    action = _PLAIN_ACTIONS.get((type, player))
    if action is None:
        action = _PLAIN_ACTIONS[type, player] = Action(type, player)
    return action


def _plays(player: int, cards: list[Card]) -> list[Action]:
    out = []
    for c in cards:
        action = _PLAY_ACTIONS.get((player, c))
        if action is None:
            action = _PLAY_ACTIONS[player, c] = Action(ActionType.PLAY, player, card=c)
        out.append(action)
    return out


def _color_choice(player: int, color: Color) -> Action:
    action = _COLOR_ACTIONS.get((player, color))
    if action is None:
        action = _COLOR_ACTIONS[player, color] = Action(
            ActionType.CHOOSE_COLOR, player, color=color
        )
    return action


def _targeted(type: ActionType, player: int, target: int) -> Action:
    action = _TARGET_ACTIONS.get((type, player, target))
    if action is None:
        action = _TARGET_ACTIONS[type, player, target] = Action(type, player, target=target)
    return action


# The answers of ``legal_actions`` for the state last asked about, by seat.  ``apply``
# validates an action against the very list its caller (the bot, an AI player, the service)
# has usually just asked for, and AI players ask for every seat of one state in turn; states
# are immutable and the entry keeps its state alive, so an identity match is the same answer.
# State and answers sit in one tuple, read and replaced in one step, so concurrent callers
# never pair one state with another's answers.
_last_legal: tuple[GameState, dict[int, tuple[Action, ...]]] | None = None


def legal_actions(state: GameState, player: int) -> tuple[Action, ...]:
    """Everything ``player`` may do now, in a stable order (the bot's buttons, the AI's
    choices and ``apply``'s validation all come from here)."""
    global _last_legal
    last = _last_legal
    if last is not None and last[0] is state:
        answers = last[1]
        actions = answers.get(player)
        if actions is None:
            actions = answers[player] = _legal_actions(state, player)
        return actions
    actions = _legal_actions(state, player)
    _last_legal = (state, {player: actions})
    return actions


def _legal_actions(state: GameState, player: int) -> tuple[Action, ...]:
    pending = state.pending
    if pending is None or not 0 <= player < len(state.players):
        return ()
    me = state.players[player]
    if me.knocked_out:
        return ()
    variant = get_variant(state.variant)
    hand = me.hand
    out: list[Action] = []
    if pending.player == player:
        match pending.kind:
            case PendingKind.TURN:
                side = state.side
                top_kind = state.discard[0].face(side).kind
                plays = _distinct(state, _matching(hand, side, state.color, top_kind))
                out = _plays(player, plays)
                if not (variant.draw_only_when_stuck and plays):
                    out.append(_plain(ActionType.DRAW, player))
                # UNO is called with the next-to-last card, so only by a player who has one
                # to play now (RULES.md §2 "UNO") [decision uno-call-needs-a-play].
                if len(hand) == 2 and plays and not me.declared_uno:
                    out.append(_plain(ActionType.CALL_UNO, player))
            case PendingKind.PLAY_DRAWN:
                assert pending.drawn is not None
                out = _plays(player, [pending.drawn])
                if not pending.must_play:
                    out.append(_plain(ActionType.PASS, player))
                if len(hand) == 2 and not me.declared_uno:
                    out.append(_plain(ActionType.CALL_UNO, player))
            case PendingKind.CHOOSE_COLOR | PendingKind.CHOOSE_ROULETTE_COLOR:
                out = [_color_choice(player, c) for c in state.side.colors]
            case PendingKind.RESPOND_TO_DRAW:
                assert pending.card_kind is not None
                out.append(_plain(ActionType.ACCEPT, player))
                if pending.challengeable:
                    out.append(_plain(ActionType.CHALLENGE, player))
                answers = stack_answers(variant, state.options, state.side, hand, pending.card_kind)
                out += _plays(player, _distinct(state, answers))
            case PendingKind.CHOOSE_SWAP:
                out = [
                    _targeted(ActionType.SWAP, player, seat)
                    for seat, p in enumerate(state.players)
                    if seat != player and not p.knocked_out
                ]
    elif state.options.jump_in and pending.kind is PendingKind.TURN:
        # Jump-In (RULES.md §2 "House rules") only while a turn is owed, never into a drawn
        # card, a colour, a draw-card answer or a swap still owed [decision jump-in-limits].
        top = state.top.face(state.side)
        if top.color is not None and top.color == state.color:
            jumps = [c for c in hand if c.face(state.side) == top]
            out += _plays(player, _distinct(state, jumps))
    window = state.uno_window
    received = me.received_one_card and len(hand) == 1 and not me.declared_uno
    if window == player or (received and pending.then is not AfterColor.FINAL_DRAW):
        # The uncalled player while the window is open (a 7's player too, while the swap is
        # owed [decision uno-window-seven-choice]), and the holder of a one-card hand a swap
        # or rotation gave them, who can't be caught for it [decision uno-call-received-hand].
        call = _plain(ActionType.CALL_UNO, player)
        if call not in out:
            out.append(call)
    if window is not None and window != player:
        out.append(_targeted(ActionType.CATCH, player, window))
    return tuple(out)


# -- doing it --------------------------------------------------------------------------------


# Actions of another player that leave the UNO window open: a catch is what the window is
# for, and taking a draw the rules force (a W+4 accepted, a stack taken) is no action of the
# victim's (RULES.md §2 "The UNO window and forced draws") [decision uno-window-forced-draw].
_LEAVE_UNO_WINDOW_OPEN = frozenset({ActionType.CATCH, ActionType.ACCEPT})


def apply(state: GameState, action: Action, next_seed: int | None = None) -> Applied | Rejected:
    """Apply one action; a new state and what happened, or why not (state untouched).

    ``next_seed`` is the seed of the next round's shuffle, used only if this action ends a
    round and deals the next one (the service draws a fresh one for every action: each
    round's deal is independent of every other, see ``rules/commitment.py``); without it
    the next round goes on from the current seed."""
    if state.pending is None:
        return Rejected(Reason.GAME_OVER, "the game is over")
    variant = get_variant(state.variant)
    if action.type in SYSTEM_ACTIONS:
        refusal = _check_system(state, action)
    else:
        action = _resolve_card(state, action)
        refusal = _check_player(state, action)
    if refusal is not None:
        return refusal
    # Minions (RULES.md §6): a frozen player's move that is not a decision they owe (a
    # catch, an UNO call, a jump-in) still happens, then costs the 4 cards
    # [decision frozen-call-or-catch].
    costs_frozen = breaks_freeze(state, action)
    t = Table(state, variant)
    t.next_seed = next_seed
    if (
        t.uno_window is not None
        and action.player is not None
        and action.player != t.uno_window
        and action.type not in _LEAVE_UNO_WINDOW_OPEN
    ):
        # The catch window closes when another player acts (RULES.md §2 "UNO").
        t.close_uno_window()
    _HANDLERS[action.type](t, action)
    if costs_frozen and not t.round_over:
        assert action.player is not None
        _frozen_penalty(t, action.player)
    if t.round_over:
        finish_round(t)
    return Applied(t.freeze(), tuple(t.events))


def _resolve_card(state: GameState, action: Action) -> Action:
    """In UNO Flip a player names a card by the face they see; pick the first such card
    in their hand (they cannot tell such cards apart). Right after a draw only the card
    drawn may be played (RULES.md §2 "Turn"), so there the face names that card, even when
    an older card in the hand shows the same face."""
    c = action.card
    if c is None or c.dark is not None or action.player is None:
        return action
    if not 0 <= action.player < len(state.players):
        return action
    pending = state.pending
    if (
        pending is not None
        and pending.kind is PendingKind.PLAY_DRAWN
        and pending.player == action.player
        and pending.drawn is not None
        and pending.drawn.dark is not None
        and pending.drawn.face(state.side) == c.light
    ):
        return replace(action, card=pending.drawn)
    for held in state.players[action.player].hand:
        if held.dark is not None and held.face(state.side) == c.light:
            return replace(action, card=held)
    return action


def _check_system(state: GameState, action: Action) -> Rejected | None:
    if action.player is not None:
        return Rejected(Reason.SYSTEM_ONLY, "only the service takes this action")
    if action.type is ActionType.CLOSE_UNO_WINDOW:
        if state.uno_window is None:
            return Rejected(Reason.NOTHING_TO_CLOSE, "no UNO window is open")
        return None
    target = action.target
    if target is None or not 0 <= target < len(state.players):
        return Rejected(Reason.BAD_TARGET, "no such player in this game")
    if not state.players[target].frozen:
        return Rejected(Reason.NOT_FROZEN, "that player is not frozen")
    return None


def _check_player(state: GameState, action: Action) -> Rejected | None:
    player = action.player
    if player is None or not 0 <= player < len(state.players):
        return Rejected(Reason.NOT_A_PLAYER, "no such player in this game")
    if state.players[player].knocked_out:
        return Rejected(Reason.KNOCKED_OUT, "you are out of this round")
    if action in legal_actions(state, player):
        return None
    return _diagnose(state, action, player)


def _diagnose(state: GameState, action: Action, player: int) -> Rejected | None:
    """Why a player's action is not legal now (or None: it is, as a costly false catch)."""
    pending = state.pending
    assert pending is not None
    if pending.then is AfterColor.FINAL_DRAW:
        # The round is over but for the colour of its last card, so nothing else may be
        # done meanwhile, not even a costly false catch [decision final-draw-colour].
        if pending.player != player:
            return Rejected(
                Reason.NOT_YOUR_TURN, "the round is over: only its last card's colour is owed"
            )
        return Rejected(Reason.WRONG_DECISION, f"now you must {_DECISION_WORDS[pending.kind]}")
    hand = state.players[player].hand
    t = action.type
    n = len(state.players)
    if t is ActionType.CATCH:
        target = action.target
        if target is None or not 0 <= target < n or target == player:
            return Rejected(Reason.BAD_TARGET, "you can't catch that player")
        if state.options.false_catch_penalty:
            return None
        return Rejected(Reason.NOTHING_TO_CATCH, "there is nobody to catch")
    if t is ActionType.CALL_UNO:
        return Rejected(
            Reason.CANNOT_CALL_UNO,
            "UNO is called on your turn with two cards and one of them to play, or with one",
        )
    if pending.player != player:
        if t is ActionType.PLAY and state.options.jump_in and pending.kind is PendingKind.TURN:
            if action.card not in hand:
                return Rejected(Reason.CARD_NOT_IN_HAND, "you don't hold that card")
            return Rejected(Reason.DOES_NOT_MATCH, "only an identical card can jump in")
        return Rejected(Reason.NOT_YOUR_TURN, "it is not your turn")
    kind = pending.kind
    if t is ActionType.PLAY and kind in (
        PendingKind.TURN,
        PendingKind.PLAY_DRAWN,
        PendingKind.RESPOND_TO_DRAW,
    ):
        if action.card not in hand:
            return Rejected(Reason.CARD_NOT_IN_HAND, "you don't hold that card")
        if kind is PendingKind.PLAY_DRAWN:
            return Rejected(Reason.MUST_PLAY_DRAWN, "only the card you drew may be played now")
        if kind is PendingKind.RESPOND_TO_DRAW:
            return Rejected(Reason.NOT_STACKABLE, "that card can't be stacked on this one")
        return Rejected(Reason.DOES_NOT_MATCH, "that card doesn't match the top card")
    if t is ActionType.DRAW and kind is PendingKind.TURN:
        return Rejected(Reason.MUST_PLAY, "you hold a playable card and must play")
    if t is ActionType.PASS and kind is PendingKind.PLAY_DRAWN:
        return Rejected(Reason.MUST_PLAY, "the drawn card must be played")
    if t is ActionType.CHOOSE_COLOR and kind in (
        PendingKind.CHOOSE_COLOR,
        PendingKind.CHOOSE_ROULETTE_COLOR,
    ):
        return Rejected(Reason.BAD_COLOR, "that colour is not on this side of the cards")
    if t is ActionType.SWAP and kind is PendingKind.CHOOSE_SWAP:
        return Rejected(Reason.BAD_TARGET, "you can't swap with that player")
    if t is ActionType.CHALLENGE and kind is PendingKind.RESPOND_TO_DRAW:
        return Rejected(Reason.CANNOT_CHALLENGE, "this card can't be challenged")
    return Rejected(Reason.WRONG_DECISION, f"now you must {_DECISION_WORDS[kind]}")


_DECISION_WORDS = {
    PendingKind.TURN: "play a card or draw",
    PendingKind.PLAY_DRAWN: "play the drawn card or keep it",
    PendingKind.CHOOSE_COLOR: "choose a colour",
    PendingKind.RESPOND_TO_DRAW: "take the cards, challenge or stack",
    PendingKind.CHOOSE_SWAP: "choose whom to swap hands with",
    PendingKind.CHOOSE_ROULETTE_COLOR: "name a colour for the roulette",
}


# -- the handlers ----------------------------------------------------------------------------


def _play(t: Table, a: Action) -> None:
    player, c = a.player, a.card
    assert player is not None and c is not None
    pending = t.pending
    assert pending is not None
    t.stack_carry = 0
    if pending.kind is PendingKind.RESPOND_TO_DRAW:
        t.stack_carry = pending.amount
        t.emit(EventType.STACKED, player=player, total=pending.amount)
    t.current = player  # a Jump-In moves the turn to the jumper
    face = c.face(t.side)
    rule = t.variant.rule(face.kind, t.options)
    t.bluffed = rule.challengeable and t.holds_color(player, t.color)
    t.remove_from_hand(player, c)
    t.discard.insert(0, c)
    if face.color is not None:
        t.color = face.color
    t.emit(EventType.PLAYED, player=player, card=face.code)
    left = len(t.hands[player])
    if left == 0:
        if rule.color_decides_draw:
            # A final Flip WDC: the player who went out still names the colour, since the
            # next player draws until it; the round ends once it is named (RULES.md §2
            # "End of a round") [decision final-draw-colour].
            t.color = None
            t.pending = Pending(PendingKind.CHOOSE_COLOR, player, then=AfterColor.FINAL_DRAW)
            return
        t.round_winner = player
    elif left == 1 and not t.declared[player]:
        t.uno_window = player
        t.emit(EventType.UNO_WINDOW_OPENED, player=player)
    if t.round_over:
        # Only a draw card still acts after the last card, and only as a draw: no
        # challenge, stack or jump-in, and no colour asked for (RULES.md §2 "End of a
        # round") [decision final-draw-card].
        if face.kind.draw_amount or rule.penalty is not None:
            rule.effect(t, player, c)
        return
    if rule.chooses_color:
        t.color = None
        t.pending = Pending(
            PendingKind.CHOOSE_COLOR, player, amount=t.stack_carry, bluffed=t.bluffed
        )
        return
    rule.effect(t, player, c)


def _draw(t: Table, a: Action) -> None:
    player = a.player
    assert player is not None
    until_playable = (
        t.variant.draw_policy is DrawPolicy.UNTIL_PLAYABLE or t.options.draw_until_playable
    )
    # Draw-until-playable house rule: the playable card that ends the draw may be played
    # or kept, as Classic's one drawn card (unless the variant says it must be played)
    # [decision draw-until-playable-drawn-card].  A knock-out while drawing on one's own
    # turn is credited to nobody (no cause) [decision knockout-credit].
    if until_playable:
        drawn = t.draw_while(player, lambda d: not d or not t.matches(d[-1]))
    else:
        drawn = t.draw(player, 1)
    if drawn and t.matches(drawn[-1]) and not t.knocked_out[player] and not t.round_over:
        t.pending = Pending(
            PendingKind.PLAY_DRAWN, player, drawn=drawn[-1], must_play=t.variant.must_play_drawn
        )
        return
    # Nothing drawn (no card left anywhere), or nothing playable: the turn passes, as
    # after any draw [decision nothing-to-draw].
    if not t.round_over:
        t.next_turn(player)


def _keep(t: Table, a: Action) -> None:
    assert a.player is not None
    t.emit(EventType.KEPT, player=a.player)
    t.next_turn(a.player)


def _choose_color(t: Table, a: Action) -> None:
    player, color = a.player, a.color
    assert player is not None and color is not None and t.pending is not None
    pending = t.pending
    t.color = color
    t.emit(EventType.COLOR_CHOSEN, player=player, color=color.value)
    if pending.kind is PendingKind.CHOOSE_ROULETTE_COLOR:
        rule = t.rule_of(t.discard[0])
        assert rule.answer is not None
        rule.answer(t, player, t.discard[0])
        return
    match pending.then:
        case AfterColor.EFFECT:
            t.stack_carry = pending.amount
            t.bluffed = pending.bluffed
            t.rule_of(t.discard[0]).effect(t, player, t.discard[0])
        case AfterColor.OWN_TURN:
            t.start_turn(player)
        case AfterColor.NEXT_TURN:
            t.next_turn(player)
        case AfterColor.FINAL_DRAW:
            # The colour of a final WDC is named: its draw settles the score, and the
            # round is over (``apply`` then scores it).
            t.round_winner = player
            t.rule_of(t.discard[0]).effect(t, player, t.discard[0])


def _challenge(t: Table, a: Action) -> None:
    assert a.player is not None and t.pending is not None
    resolve_challenge(t, a.player, t.pending)


def _accept(t: Table, a: Action) -> None:
    pending = t.pending
    assert a.player is not None and pending is not None and pending.card_kind is not None
    take_draw(t, a.player, pending.card_kind, pending.amount, cause=pending.source)


def _call_uno(t: Table, a: Action) -> None:
    player = a.player
    assert player is not None
    t.declared[player] = True
    t.received_one_card[player] = False
    t.emit(EventType.UNO_CALLED, player=player)
    if t.uno_window == player:
        t.uno_window = None


def _catch(t: Table, a: Action) -> None:
    player, target = a.player, a.target
    assert player is not None and target is not None
    if t.uno_window == target:
        t.uno_window = None
        t.emit(EventType.CAUGHT, player=player, target=target)
        t.draw(target, 2, cause=player)
    else:
        t.emit(EventType.FALSE_CATCH, player=player, target=target)
        t.draw(player, 2)
    _after_out_of_turn_draw(t)


def _after_out_of_turn_draw(t: Table) -> None:
    """A player who owed the decision may have been knocked out by an out-of-turn draw
    (No Mercy): the turn then passes on."""
    pending = t.pending
    if pending is not None and t.knocked_out[pending.player] and not t.round_over:
        after = t.next_seat(pending.player)
        if t.color is None:
            # They owed a colour (their wild's, or a roulette's) and are out before
            # naming it: the wild does nothing more, and the next player names the colour
            # and plays, as with a wild turned up first [decision knocked-out-owing-colour].
            t.current = after
            t.pending = Pending(PendingKind.CHOOSE_COLOR, after, then=AfterColor.OWN_TURN)
            return
        t.start_turn(after)


def _swap(t: Table, a: Action) -> None:
    assert a.player is not None and a.target is not None
    swap_hands(t, a.player, a.target)


def _close(t: Table, a: Action) -> None:
    # The chat's UNO-window time ran out before another player acted (RULES.md §2 "The
    # catch window") [decision uno-window-time].
    t.close_uno_window()


def _frozen_moved(t: Table, a: Action) -> None:
    """The service saw a frozen player move (a message, a press the rules refused)."""
    assert a.target is not None
    _frozen_penalty(t, a.target)


def _frozen_penalty(t: Table, seat: int) -> None:
    """Minions' Dumb Fu (RULES.md §6): moving while frozen costs 4 cards, once."""
    t.frozen_turns[seat] = None
    t.emit(EventType.FROZEN_PENALTY, player=seat)
    t.draw(seat, 4)
    _after_out_of_turn_draw(t)


_HANDLERS = {
    ActionType.PLAY: _play,
    ActionType.DRAW: _draw,
    ActionType.PASS: _keep,
    ActionType.CHOOSE_COLOR: _choose_color,
    ActionType.CHALLENGE: _challenge,
    ActionType.ACCEPT: _accept,
    ActionType.CALL_UNO: _call_uno,
    ActionType.CATCH: _catch,
    ActionType.SWAP: _swap,
    ActionType.CLOSE_UNO_WINDOW: _close,
    ActionType.FROZEN_MOVED: _frozen_moved,
}


def owed_by(state: GameState) -> int | None:
    """The seat that owes the next decision (None once the game is over)."""
    return None if state.pending is None else state.pending.player
