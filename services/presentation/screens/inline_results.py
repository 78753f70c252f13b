"""The hand in inline mode: one page of results (playable cards first, then the other
legal actions, then the cards that cannot be played now), what a chosen result posts in
the group, and that message once the engine refused the choice."""

from __future__ import annotations

from dataclasses import dataclass

from services.engine.views import EngineView, GameInfo
from services.presentation.callbacks import Callback, Kind
from services.presentation.cards import face_label
from services.presentation.i18n import gettext, language, rich_gettext
from services.presentation.locales.bidi import with_direction
from services.presentation.locales.glossary import UnknownCard, face_name
from services.presentation.rich import Rich, as_rich
from services.presentation.screens.hand import Choice, bare, choices, why_line
from services.presentation.screens.keyboard import Keyboard, Screen
from services.presentation.screens.people import person
from services.presentation.screens.table import my_cards_keyboard

#: Results per page of the inline answer.
INLINE_PAGE = 50


@dataclass(frozen=True, slots=True)
class InlineResult:
    """One result: its id (the move's callback data), its title and description, the text it
    posts in the group and that message's keyboard."""

    id: str
    title: str
    description: str
    text: Rich
    keyboard: Keyboard


@dataclass(frozen=True, slots=True)
class InlinePage:
    results: list[InlineResult]
    next_offset: str  # "" on the last page


def inline_page(
    locale: str, game: GameInfo, view: EngineView, offset: int, *, group_locale: str
) -> InlinePage:
    """The page of the hand's choices from ``offset`` on: what the player reads before
    choosing (titles, descriptions) in ``locale``, their own; what a choice posts in the
    group, and its button, in ``group_locale``, the group's (group messages speak the
    chat's language)."""
    every = choices(locale, game, view)
    posted = choices(group_locale, game, view)  # the same choices, in the same order
    page = range(offset, min(offset + INLINE_PAGE, len(every)))
    results = []
    for n in page:
        choice = every[n]
        kind = Kind.ACT if choice.code is not None else Kind.INERT
        arg = choice.code if choice.code is not None else f"{choice.card}.{n}"
        results.append(
            InlineResult(
                id=Callback(kind, game.game_id, view.version, arg or "").encode(),
                title=titled(locale, choice, game.variant, view.side),
                description=(
                    bare(
                        rich_gettext(
                            locale,
                            "can't be played now: {why}",
                            why=unplayable(locale, game, view),
                        )
                    )
                    if choice.code is None
                    else bare(why_line(locale, game, view))
                ),
                text=posted_text(group_locale, posted[n], game, view),
                # A keyboard makes the posted card an inline message the bot can edit
                # (Telegram gives its inline_message_id only then): a choice refused says so
                # there. The button opens the hand again, for whoever plays next.
                keyboard=my_cards_keyboard(group_locale, game.game_id),
            )
        )
    more = offset + INLINE_PAGE < len(every)
    return InlinePage(results, str(offset + INLINE_PAGE) if more else "")


def posted_text(locale: str, choice: Choice, game: GameInfo, view: EngineView) -> Rich:
    """What an inline choice posts in the group as the player's message: the card as it is
    played, the action's name, or for a card that cannot be played, that and why (Telegram
    posts whatever result is chosen, so it says plainly that nothing was played)."""
    if choice.code is None:
        said = rich_gettext(
            locale,
            "{card} can't be played now: {why}",
            card=face_label(locale, choice.card or ""),
            why=unplayable(locale, game, view),
        )
        return with_direction(language(locale), said)
    if choice.card is not None:
        return as_rich(face_label(locale, choice.card))
    return as_rich(choice.label)


def unplayable(locale: str, game: GameInfo, view: EngineView) -> Rich:
    """Why a card of the viewer's hand cannot be played now (the engine lists no play of
    it), from the decision the game waits for."""
    pending = view.pending
    if pending is None:
        return rich_gettext(locale, "the round is over")
    if pending.player != view.viewer:
        if 0 <= pending.player < len(game.seats):
            return rich_gettext(
                locale, "it is {name}'s turn", name=person(game.seats[pending.player])
            )
        return rich_gettext(locale, "a choice has to be made first")
    if pending.kind == "turn":
        return rich_gettext(locale, "it doesn't match the pile")
    if pending.kind == "play_drawn":
        return rich_gettext(locale, "only the card just drawn can be played")
    if pending.kind == "respond_to_draw":
        return rich_gettext(locale, "the +{n} has to be answered first", n=pending.amount)
    return rich_gettext(locale, "a choice has to be made first")


def inline_text(locale: str, cb: Callback) -> str:
    """The posted text of the inline choice ``cb`` (a card's face for a play, else 🃏)."""
    head, _, card = cb.arg.partition(".")
    if head == "p" and card:
        try:
            return face_label(locale, card)
        except (KeyError, ValueError):
            pass
    return "🃏"


def did_not_count(locale: str, cb: Callback, why: str) -> Screen:
    """A posted inline choice the engine refused, edited to say so and why."""
    text = gettext(locale, "Did not count: {why}", why=why)
    return Screen(
        as_rich(f"{inline_text(locale, cb)}\n{text}"), my_cards_keyboard(locale, cb.game_id)
    )


def titled(locale: str, choice: Choice, variant: str, side: str | None) -> str:
    """An inline result's title: the card's symbols, then its name in the rule sheets' words
    ("▶ 🟥 ⊘ · پَرش قرمز")."""
    if choice.card is None:
        return choice.label
    try:
        name = face_name(language(locale), choice.card, variant, side or "light")
    except UnknownCard:
        return choice.label
    return f"{choice.label} · {name}"
