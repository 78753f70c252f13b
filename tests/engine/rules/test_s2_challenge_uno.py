"""RULES.md §2 "Challenge", "UNO" and "Draw pile empty" (Classic)."""

from __future__ import annotations

from services.engine.rules import (
    EventType,
    GameState,
    Options,
    PendingKind,
    Reason,
    events_for,
    legal_actions,
    view,
)
from services.engine.rules.actions import (
    Action,
    ActionType,
    accept,
    call_uno,
    catch,
    challenge,
    choose_color,
    close_uno_window,
    draw,
    play,
)
from tests.helpers.rules import (
    after,
    hand,
    of_type,
    ok,
    pile,
    refused,
    table,
    table_with_events,
    types,
)

DRAW_PILE = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8"

# -- Challenge -----------------------------------------------------------------------------


def test_s2_challenge_guilty_player_of_the_wild_draws_four_challenger_plays_on() -> None:
    """RULES.md §2 "Challenge": guilty (held a card of the colour): the player of the W+4
    draws 4 instead and the challenger takes their turn normally."""
    state = table(["W+4 G1 R2", "B1 B2", "G1 G2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    result = ok(state, challenge(1))
    state = result.state
    assert hand(state, 0) == ["G1", "R2", "Y1", "Y2", "Y3", "Y4"]
    assert hand(state, 1) == ["B1", "B2"]
    assert state.pending is not None
    assert state.pending.kind is PendingKind.TURN and state.pending.player == 1
    assert state.color is not None and state.color.value == "R"  # the chosen colour stands
    assert of_type(result.events, EventType.CHALLENGED)[0].data == {
        "player": 1,
        "target": 0,
        "guilty": True,
    }


def test_s2_challenge_innocent_challenger_draws_six_and_loses_turn() -> None:
    """RULES.md §2 "Challenge": innocent: the challenger draws 6 and loses the turn."""
    state = table(["W+4 B3 R2", "B1 B2", "G1 G2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    result = ok(state, challenge(1))
    state = result.state
    assert hand(state, 0) == ["B3", "R2"]
    assert hand(state, 1) == ["B1", "B2", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
    assert state.pending is not None
    assert state.pending.kind is PendingKind.TURN and state.pending.player == 2
    assert of_type(result.events, EventType.CHALLENGED)[0].data["guilty"] is False
    assert of_type(result.events, EventType.SKIPPED)[0].data == {"player": 1}


def test_s2_challenge_hand_shown_to_the_challenger_only() -> None:
    """RULES.md §2 "Challenge" [digital]: the challenged hand is shown to the challenger only,
    in the challenger's private view and a private event."""
    state = table(["W+4 B3 R2", "B1 B2", "G1 G2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    result = ok(state, challenge(1))
    challenger = view(result.state, 1)
    assert challenger.reveal_of == 0
    assert challenger.reveal == ("B3", "R2")
    for other in (0, 2, None):
        assert view(result.state, other).reveal_of is None
        assert view(result.state, other).reveal == ()
    reveals = of_type(result.events, EventType.CHALLENGE_REVEAL)
    assert [(e.to, e.data["cards"]) for e in reveals] == [(1, ["B3", "R2"])]
    for other in (0, 2, None):
        assert EventType.CHALLENGE_REVEAL not in types(events_for(result.events, other))
    assert EventType.CHALLENGE_REVEAL in types(events_for(result.events, 1))
    # The reveal lasts until the next action.
    later = after(result.state, draw(2))
    assert view(later, 1).reveal == ()


def test_s2_challenge_the_bluff_flag_never_leaves_through_a_view() -> None:
    state = table(["W+4 G1 R2", "B1 B2", "G1 G2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    guilty = after(state, play(0, "W+4"), choose_color(0, "R"))
    state = table(["W+4 B1 R2", "B1 B2", "G1 G2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    innocent = after(state, play(0, "W+4"), choose_color(0, "R"))
    for viewer in (0, 1, 2, None):
        a, b = view(guilty, viewer), view(innocent, viewer)
        assert a.pending == b.pending
        assert "bluff" not in repr(a.to_json())


def test_s2_challenge_only_the_player_hit_may_challenge_and_only_a_wild_draw_four() -> None:
    state = table(["W+4 G1 R2", "B1 B2", "G1 G2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "R"))
    refused(state, challenge(2), Reason.NOT_YOUR_TURN)
    refused(state, accept(2), Reason.NOT_YOUR_TURN)
    refused(state, play(1, "B1"), Reason.NOT_STACKABLE)
    refused(state, draw(1), Reason.WRONG_DECISION)
    turn = table(["R1 R2", "B1 B2"], discard="R5", current=0)
    refused(turn, challenge(0), Reason.WRONG_DECISION)
    refused(turn, accept(0), Reason.WRONG_DECISION)


def test_s2_challenge_not_offered_on_a_draw_two_under_progressive_draw() -> None:
    """Only W+4 can be challenged; a +2 answered under Progressive Draw cannot."""
    state = table(
        ["R+2 R1 R3", "B+2 B2", "G1 G2"],
        discard="R5",
        draw_pile=DRAW_PILE,
        current=0,
        options=Options(progressive_draw=True),
    )
    state = after(state, play(0, "R+2"))
    assert state.pending is not None and state.pending.kind is PendingKind.RESPOND_TO_DRAW
    refused(state, challenge(1), Reason.CANNOT_CHALLENGE)


# -- UNO -------------------------------------------------------------------------------------


def test_s2_uno_call_with_two_cards_before_the_play_no_window() -> None:
    """RULES.md §2 "UNO": calling with two cards before playing the next-to-last card."""
    state = table(["R1 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", current=0)
    result = ok(state, call_uno(0))
    assert of_type(result.events, EventType.UNO_CALLED)[0].data == {"player": 0}
    assert result.state.pending is not None and result.state.pending.player == 0
    result = ok(result.state, play(0, "R1"))
    assert result.state.uno_window is None
    assert EventType.UNO_WINDOW_OPENED not in types(result.events)
    refused(result.state, catch(1, 0), Reason.NOTHING_TO_CATCH)
    assert view(result.state, 1).seats[0].declared_uno


def test_s2_uno_not_called_opens_the_window_and_a_catch_costs_two() -> None:
    """RULES.md §2 "UNO": going down to one card without calling opens the catch window; a
    catch while it is open costs the caught player 2 cards."""
    state = table(["R1 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", draw_pile="Y1 Y2 Y3", current=0)
    result = ok(state, play(0, "R1"))
    state = result.state
    assert state.uno_window == 0
    assert of_type(result.events, EventType.UNO_WINDOW_OPENED)[0].data == {"player": 0}
    for seat in (1, 2):
        assert "x.0" in view(state, seat).legal_codes
    assert "u" in view(state, 0).legal_codes
    result = ok(state, catch(2, 0))  # any player may catch, not only the next one
    state = result.state
    assert hand(state, 0) == ["R2", "Y1", "Y2"]
    assert state.uno_window is None
    assert of_type(result.events, EventType.CAUGHT)[0].data == {"player": 2, "target": 0}
    assert state.pending is not None and state.pending.player == 1  # the turn is unchanged
    refused(state, catch(1, 0), Reason.NOTHING_TO_CATCH)


def test_s2_uno_call_with_one_card_while_the_window_is_open() -> None:
    """RULES.md §2 "UNO" [digital]: the player holding 1 card may still call while the window
    is open; then there is nothing to catch."""
    state = table(["R1 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", current=0)
    state = after(state, play(0, "R1"))
    refused(state, call_uno(1), Reason.CANNOT_CALL_UNO)
    result = ok(state, call_uno(0))
    assert result.state.uno_window is None
    assert result.state.players[0].declared_uno
    assert result.state.pending is not None and result.state.pending.player == 1
    refused(result.state, catch(1, 0), Reason.NOTHING_TO_CATCH)
    refused(result.state, call_uno(0), Reason.CANNOT_CALL_UNO)


def test_s2_uno_window_closes_when_the_next_player_acts() -> None:
    """RULES.md §2 "UNO": the window closes when another player acts (here by drawing)."""
    state = table(["R1 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", draw_pile="Y9", current=0)
    state = after(state, play(0, "R1"))
    result = ok(state, draw(1))
    assert result.state.uno_window is None
    assert of_type(result.events, EventType.UNO_WINDOW_CLOSED)[0].data == {"player": 0}
    assert types(result.events)[0] is EventType.UNO_WINDOW_CLOSED
    refused(result.state, catch(2, 0), Reason.NOTHING_TO_CATCH)
    assert hand(result.state, 0) == ["R2"]


def test_s2_uno_window_stays_open_while_the_player_chooses_a_colour() -> None:
    """RULES.md §2 "House rules in detail" [decision uno-window-swap]: the window is open
    from the play until another player acts, so a player who goes down to one card with a
    wild can be caught while still choosing its colour."""
    state = table(["W R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", draw_pile="Y1 Y2", current=0)
    state = after(state, play(0, "W"))
    assert state.uno_window == 0
    state = after(state, choose_color(0, "B"))
    assert state.uno_window == 0
    state = after(state, catch(1, 0))
    assert hand(state, 0) == ["R2", "Y1", "Y2"]
    assert state.pending is not None and state.pending.player == 1


def test_s2_uno_window_closed_by_the_system_action() -> None:
    """RULES.md §2 "The catch window" [decision uno-window-time]: the window closes when
    another player acts or when the chat's UNO-window time runs out, whichever is first;
    the service reports the time running out with the system action ``close``, which
    changes nothing else (the decision owed stays owed)."""
    state = table(["R1 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", current=0)
    state = after(state, play(0, "R1"))
    refused(state, Action(ActionType.CLOSE_UNO_WINDOW, 1), Reason.SYSTEM_ONLY)
    result = ok(state, close_uno_window())
    assert result.state.uno_window is None
    assert types(result.events) == [EventType.UNO_WINDOW_CLOSED]
    assert result.state.pending == state.pending
    refused(result.state, close_uno_window(), Reason.NOTHING_TO_CLOSE)
    refused(result.state, catch(1, 0), Reason.NOTHING_TO_CATCH)


def test_s2_uno_catch_with_nothing_to_catch_does_nothing() -> None:
    """RULES.md §2 "UNO": a catch when there is nothing to catch does nothing (refused)."""
    state = table(["R1 R2", "B1 B2 B3", "G1"], discard="R5", current=0)
    refused(state, catch(1, 2), Reason.NOTHING_TO_CATCH)
    refused(state, catch(1, 0), Reason.NOTHING_TO_CATCH)
    refused(state, catch(1, 1), Reason.BAD_TARGET)
    refused(state, catch(1, 7), Reason.BAD_TARGET)


def test_s2_uno_false_catch_penalty_option_costs_the_catcher_two() -> None:
    """RULES.md §2 "UNO" (house option): a catch with nothing to catch costs the catcher 2."""
    state = table(
        ["R1 R2", "B1 B2 B3", "G1"],
        discard="R5",
        draw_pile="Y1 Y2 Y3",
        current=0,
        options=Options(false_catch_penalty=True),
    )
    result = ok(state, catch(1, 2))
    assert hand(result.state, 1) == ["B1", "B2", "B3", "Y1", "Y2"]
    assert hand(result.state, 2) == ["G1"]
    assert of_type(result.events, EventType.FALSE_CATCH)[0].data == {"player": 1, "target": 2}
    assert result.state.pending == state.pending
    refused(state, catch(1, 1), Reason.BAD_TARGET)


def test_s2_uno_call_refused_with_three_cards_or_out_of_turn() -> None:
    state = table(["R1 R2 R3", "B1 B2", "G1 G2"], discard="R5", current=0)
    refused(state, call_uno(0), Reason.CANNOT_CALL_UNO)
    refused(state, call_uno(1), Reason.CANNOT_CALL_UNO)


def test_s2_uno_is_offered_at_two_cards_only_with_a_card_to_play() -> None:
    """RULES.md §2 "UNO" [decision uno-call-needs-a-play]: UNO is called with the
    next-to-last card, so a player holding two cards may call only while one of them can
    be played: with nothing playable there is no call to make (they must draw); once a
    playable card is drawn the call is theirs again, with three cards no longer."""
    stuck = table(["R1 R2", "B1 B2 B3"], discard="G5", draw_pile="Y1 G7", current=0)
    assert call_uno(0) not in legal_actions(stuck, 0)
    refused(stuck, call_uno(0), Reason.CANNOT_CALL_UNO)
    drew_unplayable = after(stuck, draw(0))  # Y1: nothing to play, the turn passes
    assert call_uno(0) not in legal_actions(drew_unplayable, 0)
    playable = table(["R1 G2", "B1 B2 B3"], discard="G5", current=0)
    assert call_uno(0) in legal_actions(playable, 0)
    three_cards = table(["G1 G2 G3", "B1 B2 B3"], discard="G5", current=0)
    assert call_uno(0) not in legal_actions(three_cards, 0)


def test_s2_uno_call_with_a_drawn_card_to_play() -> None:
    """RULES.md §2 "UNO": a player who drew down to two cards with the drawn card playable
    may call before playing it."""
    state = table(["R1", "B1 B2 B3"], discard="G5", draw_pile="G7 Y1", current=0)
    state = after(state, draw(0))
    assert state.pending is not None and state.pending.kind is PendingKind.PLAY_DRAWN
    assert call_uno(0) in legal_actions(state, 0)


def test_s2_uno_called_then_drawing_loses_the_call() -> None:
    """A call covers the hand it was made for; drawing makes a new hand."""
    state = table(["R1 G2", "B1 B2 B3"], discard="G5", draw_pile="Y1 Y2", current=0)
    state = after(state, call_uno(0), draw(0))
    assert not state.players[0].declared_uno


def test_s2_uno_caught_after_a_draw_two_as_next_to_last_card() -> None:
    """The window stays open while the victim of a +2 draws (they did not act)."""
    state = table(
        ["R+2 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", draw_pile="Y1 Y2 Y3 Y4", current=0
    )
    state = after(state, play(0, "R+2"))
    assert state.uno_window == 0
    state = after(state, catch(2, 0))
    assert hand(state, 0) == ["R2", "Y3", "Y4"]


def test_s2_uno_window_and_forced_draws_accepting_a_wild_draw_four_leaves_it_open() -> None:
    """RULES.md §2 "The UNO window and forced draws" [decision uno-window-forced-draw]: a W+4
    accepted is no action of its victim's, so the window of the player who went down to one card
    without calling stays open; the next player to act (here the one after the victim) closes
    it."""
    state = table(["W+4 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "G"))
    assert state.uno_window == 0
    result = ok(state, accept(1))
    assert EventType.UNO_WINDOW_CLOSED not in types(result.events)
    assert result.state.uno_window == 0
    for seat in (1, 2):
        assert "x.0" in view(result.state, seat).legal_codes
    caught = after(result.state, catch(1, 0))  # the victim themselves may catch
    assert hand(caught, 0) == ["R2", "Y5", "Y6"]
    result = ok(result.state, play(2, "G1"))
    assert result.state.uno_window is None
    assert of_type(result.events, EventType.UNO_WINDOW_CLOSED)[0].data == {"player": 0}


def test_s2_uno_window_and_forced_draws_challenging_is_an_action_and_closes_it() -> None:
    """RULES.md §2 "The UNO window and forced draws" [decision uno-window-forced-draw]: a
    challenge is the victim's own action, so it closes the window."""
    state = table(["W+4 R2", "B1 B2 B3", "G1 G2 G3"], discard="R5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "G"))
    result = ok(state, challenge(1))
    assert result.state.uno_window is None
    assert types(result.events)[0] is EventType.UNO_WINDOW_CLOSED


def test_s2_uno_window_and_forced_draws_taking_a_stack_leaves_it_open() -> None:
    """RULES.md §2 "The UNO window and forced draws" [decision uno-window-forced-draw]: a stack
    taken (Progressive Draw) is a forced draw too: the last stacker, down to one card without
    calling, can still be caught after the victim takes the total."""
    state = table(
        ["R+2 R1 R3", "B+2 B1", "G+2 G2 G3"],
        discard="R5",
        draw_pile=DRAW_PILE,
        current=0,
        options=Options(progressive_draw=True),
    )
    state = after(state, play(0, "R+2"), play(1, "B+2"))
    assert state.uno_window == 1
    result = ok(state, accept(2))
    assert hand(result.state, 2) == ["G+2", "G2", "G3", "Y1", "Y2", "Y3", "Y4"]
    assert result.state.uno_window == 1
    state = after(result.state, catch(0, 1))
    assert hand(state, 1) == ["B1", "Y5", "Y6"]


def test_s2_uno_window_and_forced_draws_stack_taken_in_no_mercy() -> None:
    """RULES.md §2 "The UNO window and forced draws" with §4 "Stacking": in No Mercy too,
    taking a stack leaves the last stacker's window open.
    [decision uno-window-forced-draw]"""
    state = table(
        ["R+2 R1 R3", "B+4 B1", "G+4 G2 G3"],
        discard="R5",
        draw_pile=DRAW_PILE,
        current=0,
        variant="no_mercy",
    )
    state = after(state, play(0, "R+2"), play(1, "B+4"))
    assert state.uno_window == 1
    state = after(state, accept(2))
    assert state.uno_window == 1
    assert "x.1" in view(state, 0).legal_codes


# -- Draw pile empty -------------------------------------------------------------------------


def test_s2_draw_pile_empty_reshuffle_keeps_the_top_discard() -> None:
    """RULES.md §2 "Draw pile empty": keep the top discard; shuffle the rest into a new
    draw pile."""
    state = table(["G1 G2", "B1 B2"], discard="R5 Y6 B7 Y8 G9", current=0)
    result = ok(state, draw(0))
    state = result.state
    assert pile(state.discard) == ["R5"]
    assert len(state.draw_pile) == 3
    drawn = hand(state, 0)[-1]
    assert sorted([*pile(state.draw_pile), drawn]) == ["B7", "G9", "Y6", "Y8"]
    assert of_type(result.events, EventType.RESHUFFLED)[0].data == {"size": 4}


def _reshuffle_table(seed: int) -> GameState:
    return table(["G1 G2", "B1 B2"], discard="R5 Y6 B7 Y8 G9 G3", current=0, seed=seed)


def test_s2_draw_pile_empty_reshuffle_follows_the_seed() -> None:
    orders = {tuple(pile(after(_reshuffle_table(seed), draw(0)).draw_pile)) for seed in range(20)}
    assert len(orders) > 1


def test_s2_draw_pile_empty_mid_draw_reshuffles_and_goes_on() -> None:
    state = table(["R+2 R1 R3", "B1 B2", "G1 G2"], discard="R5 Y6 Y7", draw_pile="Y1", current=0)
    state = after(state, play(0, "R+2"))
    assert len(hand(state, 1)) == 4
    assert hand(state, 1)[2] == "Y1"
    assert pile(state.discard) == ["R+2"]


def test_s2_draw_pile_empty_nothing_to_reshuffle_draw_stops_short() -> None:
    """RULES.md §2 "Draw pile empty" and "Nothing left to draw" [decision draw-stops-short]
    [decision nothing-to-draw]: if there is nothing to reshuffle, the draw simply stops short;
    the turn passes."""
    state = table(["G1 G2", "B1 B2", "Y1 Y2"], discard="R5", current=0)
    result = ok(state, draw(0))
    assert hand(result.state, 0) == ["G1", "G2"]
    assert of_type(result.events, EventType.DRAW_STOPPED_SHORT)[0].data == {"player": 0}
    assert EventType.DREW not in types(result.events)
    assert result.state.pending is not None and result.state.pending.player == 1


def test_s2_draw_pile_empty_penalty_stops_short_and_still_loses_turn() -> None:
    """[decision] A +2 with one card left to draw gives that one; the victim still loses
    the turn (here the +2 turned up first, so nothing lies under it to reshuffle)."""
    state, events = table_with_events(["R1 R3", "B1 B2", "G1 G2"], draw_pile="G+2 Y1")
    assert hand(state, 1) == ["B1", "B2", "Y1"]
    assert state.pending is not None and state.pending.player == 2
    assert of_type(events, EventType.DREW)[0].data == {"player": 1, "count": 1}
    assert EventType.DRAW_STOPPED_SHORT in types(events)


def test_s2_challenge_two_players_innocent_wild_player_plays_again() -> None:
    """RULES.md §2 "Challenge" with two players: the innocent W+4 player plays again after
    the challenger draws 6 and loses the turn."""
    state = table(["W+4 B3 R2", "B1 B2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "R"), challenge(1))
    assert len(hand(state, 1)) == 8
    assert state.pending is not None and state.pending.player == 0


def test_s2_challenge_two_players_guilty_challenger_plays() -> None:
    state = table(["W+4 G3 R2", "B1 B2"], discard="G5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "W+4"), choose_color(0, "R"), challenge(1))
    assert len(hand(state, 0)) == 6
    assert state.pending is not None and state.pending.player == 1


def test_s2_actions_two_players_draw_two_plays_again() -> None:
    """RULES.md §2 "Actions": +2 with two players: the other draws 2 and loses the turn."""
    state = table(["R+2 R1 R3", "B1 B2"], discard="R5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "R+2"))
    assert hand(state, 1) == ["B1", "B2", "Y1", "Y2"]
    assert state.pending is not None and state.pending.player == 0


def test_s2_uno_two_players_window_stays_open_until_the_caught_player_moves_on() -> None:
    """With two players a +2 played as the next-to-last card comes back to its player; the
    victim drew without acting, so they may still catch."""
    state = table(["R+2 R1", "B1 B2"], discard="R5", draw_pile=DRAW_PILE, current=0)
    state = after(state, play(0, "R+2"))
    assert state.uno_window == 0
    assert "x.0" in view(state, 1).legal_codes
    state = after(state, catch(1, 0))
    assert hand(state, 0) == ["R1", "Y3", "Y4"]
