"""A player's hand: what they may pick (``choices``, shared by the private hand and the
inline-mode hand), the line saying what they owe, and the hand in their private chat."""

from __future__ import annotations

from dataclasses import dataclass

from services.engine.views import EngineView, GameInfo
from services.presentation.callbacks import Callback, Kind
from services.presentation.cards import COLOR_SQUARES, by_colour, color_name, face_label
from services.presentation.i18n import gettext, ngettext, rich_gettext
from services.presentation.rich import EMPTY, Rich, as_rich, join
from services.presentation.screens.keyboard import Button, Keyboard, Screen, button, rows
from services.presentation.screens.names import variant_name
from services.presentation.screens.people import person, seat_names
from services.presentation.screens.table import short_name, top_line


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing a player may pick from their hand: a legal action or an inert card."""

    code: str | None  # the engine action code; None for a card that cannot be played now
    label: str
    card: str | None = None  # the face code, for a card


def choices(locale: str | None, game: GameInfo, view: EngineView) -> list[Choice]:
    """Playable cards first (marked), then the other legal actions, then the unplayable
    cards (BOT-UX.md "The hand, in inline mode"); the cards of each part by colour."""
    legal = list(view.legal)
    plays = sorted(
        (code for code in legal if code.startswith("p.")), key=lambda c: by_colour(c[2:])
    )
    playable = {code[2:] for code in plays}
    out: list[Choice] = []
    for code in plays:
        out.append(Choice(code, "▶ " + face_label(locale, code[2:]), code[2:]))
    for code in legal:
        if code.startswith("p."):
            continue
        out.append(Choice(code, action_label(locale, game, view, code)))
    counts: dict[str, int] = {}
    for face in view.hand:
        counts[face] = counts.get(face, 0) + 1
    for face, n in sorted(counts.items(), key=lambda item: by_colour(item[0])):
        if face in playable:
            continue
        label = face_label(locale, face) + (f" ×{n}" if n > 1 else "")
        out.append(Choice(None, label, face))
    return out


def action_label(locale: str | None, game: GameInfo, view: EngineView, code: str) -> str:
    head, _, arg = code.partition(".")
    names = seat_names(game)
    if head == "d":
        return "📥 " + gettext(locale, "Draw")
    if head == "k":
        return "✋ " + gettext(locale, "Keep")
    if head == "c":
        return COLOR_SQUARES.get(arg, arg) + " " + color_name(locale, arg)
    if head == "ch":
        return "⚖️ " + gettext(locale, "Challenge")
    if head == "a":
        amount = view.pending.amount if view.pending else 0
        return "📥 " + gettext(locale, "Take +{n}", n=amount)
    if head == "u":
        return "🔔 " + gettext(locale, "UNO!")
    if head == "x" and arg.isdigit() and int(arg) < len(names):
        return "🫵 " + gettext(locale, "Catch {name}!", name=short_name(bare(names[int(arg)])))
    if head == "s" and arg.isdigit() and int(arg) < len(names):
        return "🔄 " + gettext(locale, "Swap with {name}", name=short_name(bare(names[int(arg)])))
    return code


def why_line(locale: str | None, game: GameInfo, view: EngineView) -> Rich:
    """One line saying what decision the viewer owes, if any."""
    pending = view.pending
    if pending is None or view.viewer is None:
        return EMPTY
    if pending.player != view.viewer:
        current = game.seats[pending.player]
        return rich_gettext(locale, "waiting for {name}", name=person(current))
    source = game.seats[pending.source].name if pending.source is not None else ""
    # A stack is offered only where the rules in force allow one (the variant's own, or the
    # house rule Progressive Draw) and the hand holds a card for it: the engine's legal
    # plays, while a draw is answered, are exactly the stacks.
    stacks = any(code.startswith("p.") for code in view.legal)
    texts = {
        "turn": gettext(locale, "your turn"),
        "play_drawn": gettext(locale, "you drew a card: play it or keep it"),
        "choose_color": gettext(locale, "choose a colour"),
        "respond_to_draw": (
            gettext(
                locale,
                "{name} makes you take +{n}: challenge, stack or take",
                name=source,
                n=pending.amount,
            )
            if pending.challengeable and stacks
            else gettext(
                locale,
                "{name} makes you take +{n}: challenge or take",
                name=source,
                n=pending.amount,
            )
            if pending.challengeable
            else gettext(
                locale,
                "{name} makes you take +{n}: stack or take",
                name=source,
                n=pending.amount,
            )
        ),
        "choose_swap": gettext(locale, "your 7: choose whom to swap hands with"),
        "choose_roulette_color": gettext(locale, "colour roulette: name a colour"),
    }
    return as_rich(texts.get(pending.kind, pending.kind))


def bare(text: Rich) -> str:
    """Text as a button, a title or an alert shows it: its letters, without the isolates
    round its names (such a line is laid out on its own, and shows no styles)."""
    return text.plain.replace("\u2068", "").replace("\u2069", "")


def owes(view: EngineView) -> bool:
    """Whether the viewer owes the decision the game waits for."""
    return view.pending is not None and view.pending.player == view.viewer


def hand_header(locale: str | None, game: GameInfo, chat_title: str) -> str:
    """A private hand's first line: the game and its group."""
    return gettext(
        locale,
        "UNO {variant} in “{chat}”",
        variant=variant_name(locale, game.variant),
        chat=chat_title,
    )


def private_hand_text(
    locale: str | None, game: GameInfo, view: EngineView, chat_title: str
) -> Rich:
    """The hand's words, headed with its group."""
    lines: list[Rich | str] = [hand_header(locale, game, chat_title)]
    if owes(view):
        # The table's state only where a decision is owed: the others' hands change only
        # with their cards, which spares a private message per player per turn.
        lines.append(top_line(locale, view))
        lines.append(why_line(locale, game, view))
    reveal = (view.model_extra or {}).get("reveal") or []
    reveal_of = (view.model_extra or {}).get("reveal_of")
    if reveal and reveal_of is not None:
        cards = " ".join(face_label(locale, str(c)) for c in reveal)
        lines.append(
            rich_gettext(
                locale,
                "{name}'s hand: {cards}",
                name=person(game.seats[int(reveal_of)]),
                cards=cards,
            )
        )
    lines.append(ngettext(locale, "you hold {n} card", "you hold {n} cards", len(view.hand)))
    return join("\n", lines)


def hand_keyboard(locale: str | None, game: GameInfo, view: EngineView) -> Keyboard | None:
    """The hand's cards (four to a row; those that cannot be played now marked ·), then its
    other choices (three to a row); None when there is nothing to press."""
    g, v = game.game_id, view.version
    card_buttons: list[Button] = []
    action_buttons: list[Button] = []
    for choice in choices(locale, game, view):
        if choice.code is None:
            card_buttons.append(
                button("· " + choice.label, Callback(Kind.INERT, g, v, choice.card or ""))
            )
        elif choice.card is not None:
            card_buttons.append(button(choice.label, Callback(Kind.ACT, g, v, choice.code)))
        else:
            action_buttons.append(button(choice.label, Callback(Kind.ACT, g, v, choice.code)))
    laid_out = rows(card_buttons, 4) + rows(action_buttons, 3)
    return tuple(laid_out) if laid_out else None


def private_hand(locale: str | None, game: GameInfo, view: EngineView, chat_title: str) -> Screen:
    """The hand in the player's private chat, headed with its group, edited in place."""
    return Screen(
        private_hand_text(locale, game, view, chat_title), hand_keyboard(locale, game, view)
    )


def game_over_hand(locale: str | None, game: GameInfo, chat_title: str) -> Screen:
    """What a private hand becomes once its game is over or ended: its group, and that."""
    return Screen(
        as_rich(
            hand_header(locale, game, chat_title) + "\n" + gettext(locale, "This game is over.")
        ),
        None,
    )


def hand_in_private_chat(locale: str | None) -> str:
    """✉️ Private hand pressed: the hand is posted (or refreshed) in the private chat."""
    return gettext(locale, "Your hand is in our private chat.")
