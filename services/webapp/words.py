"""The table's words for one viewer, in the language the bot speaks to them: the chat's own
screens (``services.presentation.screens``: the event lines, the hand's decision labels, the round's
scores) and card names (``services.presentation.locales.glossary``: the variants' themed names), so
the page and the chat say the same thing the same way and the page keeps no words of its
own for the game.

The screens give rich text (``services.presentation.rich``); the page shows each as its
plain text, so any look a screen gives (a mention) is left out. The Unicode isolates round
names and values stay: they keep a Persian line in order on the page as in the chat.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from services.engine.client import EngineView, GameInfo, variant_facts
from services.language_preferences import LanguagePreferences
from services.presentation.cards import color_name, face_label
from services.presentation.i18n import language
from services.presentation.locales.glossary import UnknownCard, face_name
from services.presentation.screens.event_lines import event_lines
from services.presentation.screens.hand import action_label, owes, why_line
from services.presentation.screens.lobby import ai_level_name, lobby_text, settings_lines
from services.presentation.screens.names import variant_name
from services.presentation.screens.notices import notice
from services.presentation.screens.page import seat_counts
from services.presentation.screens.refusals import kicked_out, left_the_group, left_this_games_group
from services.presentation.screens.rematch import votes_text
from services.presentation.screens.scores import round_end
from services.presentation.screens.table import (
    catch_line,
    fingerprint_line,
    owing_text,
    table_text,
)

#: Languages written right to left.
RTL = frozenset({"fa"})


async def viewer_language(redis: Redis, user_id: int, app_language: str | None) -> str:
    """The language the bot speaks to this person (services/bot/context.py ``locale_of``):
    their /language choice, else their Telegram app's, else English."""
    try:
        return language(
            await LanguagePreferences(redis).person(user_id, fallback=app_language or "")
        )
    except RedisError:
        return language(app_language)  # as the bot would use between two updates


def out_of_game_words(locale: str, reason: str) -> str:
    """Why the viewer is out of the game (the engine's ``removed`` reason: ``kicked``, or
    ``left_group``), or no longer sees it (``not_in_chat``: a spectator gone from the
    group), as the chat tells them."""
    if reason == "kicked":
        return kicked_out(locale)
    if reason == "left_group":
        return left_the_group(locale)
    return left_this_games_group(locale)


def _card_names(locale: str, variant: str, codes: set[str]) -> dict[str, dict[str, str]]:
    """Each face's full name (the variant's own, e.g. Minions' Wild Banana) and its chat
    label (``🟥 5``)."""
    return {code: _card_words(locale, code, variant) for code in codes}


def card_names(locale: str, variant: str, codes: set[str]) -> dict[str, dict[str, str]]:
    """Each of ``codes``' words (``_card_names``), for a page that shows more faces than a
    live view (a replay shows every hand)."""
    return _card_names(locale, variant, codes)


@lru_cache(maxsize=8192)
def _card_words(locale: str, code: str, variant: str) -> dict[str, str]:
    try:
        name: str = face_name(locale, code, variant)
    except UnknownCard:
        name = code
    return {"name": str(name), "label": face_label(locale, code)}


def with_moves(
    fixed: dict[str, Any], locale: str, game: GameInfo, events: list[dict[str, Any]]
) -> dict[str, Any]:
    """``fixed`` (``view_words``: shared by every viewer of the seat, left as it is) with
    the words of the moves in ``events``: their lines, the cards they name, a round's
    result."""
    happened = [e["event"] for e in events if isinstance(e.get("event"), dict)]
    words = dict(fixed)
    words["lines"] = [line.plain for line in event_lines(locale, game, happened)]
    words["results"] = [
        {
            "round": e.get("round"),
            "text": round_end(locale, game, e).plain if kind == "round_ended" else "",
        }
        for e in happened
        if (kind := e.get("type")) == "round_ended"
    ]
    named = {str(e["card"]) for e in happened if isinstance(e.get("card"), str)}
    if "cards" in fixed and not named <= fixed["cards"].keys():
        words["cards"] = {**fixed["cards"], **_card_names(locale, game.variant, named)}
    return words


def view_words(locale: str, game: GameInfo, view: EngineView | None) -> dict[str, Any]:
    """The words of one view, whatever moves led to it: the language and its direction,
    the variant, and (for a view) the chat table's own lines less the last moves (the page
    shows those as a log) — its head (variant, round, Flip's side, direction), the pile,
    the seats, the catch window, the draw pile (and its top card's back, in Flip) — each
    card the view shows, each decision's label and the decision the viewer owes; once the
    game is over or ended, its end as the chat tells it (``game_over``: the winner, or that
    it was ended, and every seat's score)."""
    words: dict[str, Any] = {
        "lang": locale,
        "dir": "rtl" if locale in RTL else "ltr",
        "variant": variant_name(locale, game.variant),
    }
    if view is None:
        if game.status == "lobby":
            words["lobby"] = lobby_words(locale, game)
        return words
    two_sided = variant_facts(game.variant).two_sided
    lines = table_text(locale, game, view, (), two_sided=two_sided).plain.split("\n")
    owing = owing_text(locale, game, view)
    words["head"] = lines[1 if owing else 0]
    words["owing"] = owing.plain
    words["catch"] = catch_line(locale, game, view).plain
    words["pile"] = lines[-1]
    words["fingerprint"] = fingerprint_line(locale, view).plain
    words["cards"] = _card_names(locale, game.variant, _faces(view))
    words["colour"] = color_name(locale, view.color) if view.color else ""
    words["actions"] = {
        code: action_label(locale, game, view, code)
        for code in view.legal
        if not code.startswith("p.")
    }
    words["why"] = why_line(locale, game, view).plain if owes(view) else ""
    words["counts"] = seat_counts(locale, view)
    end = _the_end(locale, game, view)
    if end:
        words["game_over"] = end
        votes = votes_text(locale, game)  # who has voted for a rematch, as the chat says it
        words["rematch"] = votes.plain if votes is not None else ""
    return words


def lobby_words(locale: str, game: GameInfo) -> dict[str, Any]:
    """A lobby's words, the chat lobby's own: its head (the variant, waiting), the host,
    the house rules and times it plays with (``settings_lines``), each AI seat's level, and
    its foot (how many are in, who starts)."""
    lines = lobby_text(locale, game).plain.split("\n")
    return {
        "title": lines[0],
        "host": lines[1],
        "settings": settings_lines(locale, game),
        "levels": {str(s.seat): ai_level_name(locale, s.ai) for s in game.seats if s.ai},
        "foot": lines[-1],
    }


def _the_end(locale: str, game: GameInfo, view: EngineView) -> str:
    """The game's end from its state, whichever write brought it (a viewer opening the
    table afterwards reads it too): the chat's own message of it, with every seat's score."""
    scores = [seat.score for seat in view.seats]
    winner = game.winner if game.winner is not None else view.winner
    if game.status == "over" or winner is not None:
        return notice(locale, game, {"type": "game_over", "winner": winner, "scores": scores}).plain
    if game.status == "ended":
        return notice(locale, game, {"type": "game_ended"}, scores=scores).plain
    return ""


def _faces(view: EngineView) -> set[str]:
    """Each face the view shows: the pile's top, the hand, Flip's backs, a reveal."""
    codes: set[str] = {view.top, *view.hand}
    extra = view.model_extra or {}
    if extra.get("draw_pile_back"):
        codes.add(str(extra["draw_pile_back"]))
    for seat in view.seats:
        codes.update(seat.back_faces or ())
    codes.update(str(c) for c in extra.get("reveal") or ())
    return codes
