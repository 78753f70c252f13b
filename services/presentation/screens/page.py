"""The Mini App page's own words, in the viewer's language: what it says before a table
arrives (connecting, refused, busy), around it (the seats' marks, the piles' and the hand's
names for screen readers, the turn, the sound switch), and its digits, so the page's
scripts keep no words at all (the table's own words are the chat's screens)."""

from __future__ import annotations

from services.engine.views import EngineView
from services.presentation.i18n import gettext, number
from services.presentation.locales.bidi import RTL_LANGUAGES
from services.presentation.locales.glossary import card_count


def page_words(locale: str) -> dict[str, str]:
    """What the page says of its own, in the viewer's language: before a table arrives
    (connecting, refused, busy), around it (the seats' marks, the piles' and the hand's
    names for screen readers, the turn, the sound switch), and its digits (the bot's: Persian
    its own, Gujarati and English Latin ones), so the page's scripts keep no words at all."""
    return {
        "lang": locale,
        "dir": "rtl" if locale in RTL_LANGUAGES else "ltr",
        "digits": "".join(number(locale, d) for d in range(10)),
        "connecting": gettext(locale, "Connecting…"),
        "reconnecting": gettext(locale, "Reconnecting…"),
        "no_game": gettext(locale, "No game to show."),
        "refused": gettext(locale, "Not allowed"),
        "stale": gettext(locale, "The game moved on"),
        "illegal": gettext(locale, "Not allowed now"),
        "slow": gettext(locale, "Slow down: too many presses at once."),
        "busy_person": gettext(locale, "Too many tables open: close one."),
        "busy_game": gettext(locale, "Too many are watching this table: wait a little."),
        "lobby": gettext(locale, "Waiting for the game to start"),
        "over": gettext(locale, "Game over"),
        "spectator": gettext(locale, "Watching"),
        "your_turn": gettext(locale, "Your turn"),
        # a template: the page puts the seat's name in place of {name}
        "turn": gettext(locale, "{name} to play", name="{name}"),
        "ai": gettext(locale, "AI"),
        "away": gettext(locale, "away"),
        "frozen": gettext(locale, "frozen"),
        "knocked_out": gettext(locale, "knocked out"),
        "table": gettext(locale, "Table"),
        "hand": gettext(locale, "Your hand"),
        "draw_pile": gettext(locale, "Draw pile"),
        "discard_pile": gettext(locale, "Discard pile"),
        "moves": gettext(locale, "Last moves"),
        "sounds_on": gettext(locale, "Sounds on"),
        "sounds_off": gettext(locale, "Sounds off"),
        "clockwise": gettext(locale, "clockwise"),
        "anticlockwise": gettext(locale, "anticlockwise"),
        # the lobby's and the end's buttons, the chat lobby's own words
        "join": "✋ " + gettext(locale, "Join"),
        "leave": "🚪 " + gettext(locale, "Leave"),
        "ai.strong": "🤖 " + gettext(locale, "Add AI"),
        "ai.random": "🎲 " + gettext(locale, "Add easy AI"),
        "ai.hard": "🧠 " + gettext(locale, "Add hard AI"),
        "start": "▶️ " + gettext(locale, "Start"),
        "invite": "📨 " + gettext(locale, "Invite"),
        "rematch": "🔁 " + gettext(locale, "Rematch"),
        "replay": "🎞 " + gettext(locale, "Replay"),
    }


def seat_counts(locale: str, view: EngineView) -> dict[str, str]:
    """How many cards each seat holds, as words (``1 card``, ``۳ کارت``), by seat number
    (a JSON object's keys are strings)."""
    return {str(seat.seat): str(card_count(locale, seat.cards)) for seat in view.seats}
