"""An engine refusal in words: the one place a move's, a lobby word's or a press's refusal
(the client's ``EngineError``) becomes what the person is told."""

from __future__ import annotations

from services.engine.views import (
    Conflict,
    EngineError,
    Forbidden,
    IllegalAction,
    NotFound,
    StaleVersion,
)
from services.presentation.i18n import gettext

#: Refusals that mean the press was not a decision its player owes (RULES.md §6).
NOT_OWED = frozenset({"not_your_turn", "wrong_decision"})


def out_of_date(locale: str) -> str:
    return gettext(locale, "This button is out of date.")


def not_answering(locale: str, *, maybe_applied: bool = False) -> str:
    """The engine did not answer: try again if the request never reached it, else (a move
    it took: its store hanging, so a write may land after the answer timed out) that it may
    have been applied and the table will show it. A repeat carries the same action id, so
    it is applied once either way."""
    if maybe_applied:
        return gettext(
            locale,
            "The game server is slow: your move may have been applied, and the table will show it.",
        )
    return gettext(locale, "The game server is not answering. Please try again.")


def out_of_the_game(locale: str, e: EngineError) -> str | None:
    """Why the engine holds the person out of the game (403 ``seat_removed``: kicked, or
    gone from the group), in words; None for any other refusal."""
    if not isinstance(e, Forbidden) or e.removed is None:
        return None
    return kicked_out(locale) if e.removed == "kicked" else left_the_group(locale)


def move_refused(locale: str, e: EngineError) -> str:
    """Why a move (a press, an inline choice) was not applied."""
    removed = out_of_the_game(locale, e)
    if removed is not None:
        return removed
    if isinstance(e, StaleVersion):
        return out_of_date(locale)
    if isinstance(e, Forbidden):
        return not_your_hand(locale)
    if isinstance(e, NotFound):
        return game_is_over(locale)
    if isinstance(e, Conflict):
        return gettext(locale, "This game is not being played right now.")
    reason = e.reason if isinstance(e, IllegalAction) else None
    texts = {
        "not_your_turn": gettext(locale, "It's not your turn."),
        "does_not_match": gettext(locale, "That card doesn't match the pile."),
        "card_not_in_hand": gettext(locale, "You don't hold that card."),
        "must_play_drawn": gettext(locale, "Only the card you just drew can be played."),
        "must_play": gettext(locale, "You have a playable card: play it."),
        "not_stackable": gettext(locale, "That card can't be stacked on this."),
        "cannot_challenge": gettext(locale, "This can't be challenged."),
        "cannot_call_uno": gettext(locale, "You can't call UNO now."),
        "nothing_to_catch": gettext(locale, "There's nobody to catch."),
        "wrong_decision": gettext(locale, "That is not the decision you owe now."),
        "knocked_out": gettext(locale, "You are knocked out of this round."),
        "game_over": gettext(locale, "This game is over."),
    }
    return texts.get(reason or "", gettext(locale, "That is not possible now."))


def seat_refused(locale: str, e: EngineError) -> str:
    """Why a lobby word (join, leave, add an AI, start, end) was not done."""
    removed = out_of_the_game(locale, e)
    if removed is not None:
        return removed
    if isinstance(e, Forbidden):
        return gettext(locale, "You are not in this game.")
    if isinstance(e, NotFound):
        return gettext(locale, "This game is over.")
    if isinstance(e, IllegalAction) and e.error == "cannot_start":
        return gettext(locale, "At least two players are needed to start.")
    if isinstance(e, Conflict):
        if e.error == "game_full":
            return gettext(locale, "Every seat is taken.")
        if e.error == "already_started":
            return gettext(locale, "The game has already started.")
        if e.error in ("game_over", "game_ended"):
            return gettext(locale, "This game is over.")
    return gettext(locale, "That is not possible now.")


def only_host_or_admin(locale: str) -> str:
    return gettext(locale, "Only the host or a chat admin can do that.")


def kicked_out(locale: str) -> str:
    return gettext(locale, "You were removed from this game, so you can't take a seat in it again.")


def left_the_group(locale: str) -> str:
    return gettext(
        locale,
        "You left the group, so the AI plays your seat. Join the group again and send /back "
        "to play.",
    )


def game_is_over(locale: str | None) -> str:
    return gettext(locale, "This game is over.")


def not_your_hand(locale: str | None) -> str:
    """A hand asked for by someone without a seat in its game."""
    return gettext(locale, "Not your hand: you are not playing in this game.")


def left_this_games_group(locale: str | None) -> str:
    """A hand asked for (inline mode, the Mini App) by someone who left the game's group:
    short, as a button's label."""
    return gettext(locale, "You left this game's group")


def not_in_games_group(locale: str | None) -> str:
    """A lobby word or a vote from the Mini App by someone not in the game's group."""
    return gettext(locale, "You are not in this game's group.")


def no_game_in_play(locale: str | None) -> str:
    """Inline mode's button when the person has no game in play: short, as its label."""
    return gettext(locale, "You have no game in play here")


def card_not_playable(locale: str | None) -> str:
    """A press on a card that cannot be played now."""
    return gettext(locale, "You can't play this card now.")


def table_moved_down(locale: str | None) -> str:
    """A press on a table a newer one below replaced."""
    return gettext(locale, "The table moved down.")


def not_your_colour(locale: str | None) -> str:
    """A table's colour button pressed by someone other than the player who chooses."""
    return gettext(locale, "Only the player the table names (▶) chooses the colour.")


def not_on_this_message(locale: str | None) -> str:
    """A press whose button its message does not show (a forged or mixed-up press)."""
    return gettext(locale, "This button is not on this message.")


def slow_down(locale: str | None) -> str:
    """The first refused press of a flood of them."""
    return gettext(locale, "Slow down: too many presses at once.")


def something_went_wrong(locale: str | None) -> str:
    """A press whose handling failed."""
    return gettext(locale, "Something went wrong. Please try again.")
