"""The group's table: one message, edited in place, and the buttons it offers (UNO!,
Catch, Take, Challenge, and the ways to one's hand)."""

from __future__ import annotations

from collections.abc import Sequence

from services.engine.views import EngineView, GameInfo, variant_facts
from services.presentation.callbacks import Callback, Kind
from services.presentation.cards import (
    COLOR_SQUARES,
    DARK_COLORS,
    LIGHT_COLORS,
    color_name,
    face_label,
)
from services.presentation.i18n import gettext, number, rich_gettext
from services.presentation.rich import EMPTY, Rich, as_rich, join
from services.presentation.screens.keyboard import Button, Keyboard, Screen, button, rows
from services.presentation.screens.names import variant_name
from services.presentation.screens.people import person

#: The UNO window when the chat set none: the service's default (``Settings.uno_window_seconds``
#: in services/config.py, which the screens cannot reach; a test holds the two equal).
DEFAULT_UNO_WINDOW_SECONDS = 8


def top_line(locale: str | None, view: EngineView) -> str:
    top = face_label(locale, view.top)
    colour = COLOR_SQUARES.get(view.color or "", "…")
    return gettext(locale, "on the pile: {card}   colour: {color}", card=top, color=colour)


#: How many hex digits of a round's commitment the table shows: enough that no two rounds
#: anyone compares share one by chance (32 bits), short enough for one glance.
FINGERPRINT_DIGITS = 8


def commitment_fingerprint(view: EngineView) -> str:
    """The first digits of the round's commitment to its shuffle (RULES.md §2 "Checking a
    deal": the SHA-256 of its seed, never the seed); "" before a deal."""
    return view.deal_commitment[:FINGERPRINT_DIGITS]


def fingerprint_line(locale: str | None, view: EngineView) -> Rich:
    """The line that shows the round's fingerprint; empty before a deal."""
    fingerprint = commitment_fingerprint(view)
    if not fingerprint:
        return Rich()
    return "🔒 " + rich_gettext(locale, "deal fingerprint {code}", code=fingerprint)


def seat_line(locale: str | None, game: GameInfo, view: EngineView) -> Rich:

    parts = []
    for seat_view in view.seats:
        info = game.seats[seat_view.seat] if seat_view.seat < len(game.seats) else None
        name = person(info) if info else as_rich(seat_view.name)
        text = ("🤖 " if info and info.ai else "") + name + f" {number(locale, seat_view.cards)}"
        # Two marks apart: a call made, and a one-card hand that can still be caught.
        if seat_view.declared_uno:
            text += " 🔔"
        elif view.uno_window == seat_view.seat:
            text += " ⚠️"
        if seat_view.knocked_out:
            text += " ☠"
        if seat_view.frozen:
            text += " 🧊"
        if info and (info.away or info.left):
            text += " 💤"
        if game.status != "lobby" and seat_view.score:
            text += f" ({number(locale, seat_view.score)})"
        parts.append(text)
    return "   " + join(" · ", parts)


def owing_text(locale: str | None, game: GameInfo, view: EngineView) -> Rich:
    pending = view.pending
    if pending is None:
        return EMPTY
    who = person(game.seats[pending.player], mention=True)
    kinds = {
        "turn": gettext(locale, "to play"),
        "play_drawn": gettext(locale, "play or keep the drawn card"),
        "choose_color": gettext(locale, "to choose a colour with the buttons below"),
        "respond_to_draw": answers_text(locale, pending.amount, game, view),
        "choose_swap": gettext(locale, "to choose whom to swap hands with"),
        "choose_roulette_color": gettext(locale, "to name a colour for the roulette"),
    }
    seconds = gettext(locale, "{seconds}s", seconds=game.turn_seconds)
    return "▶ " + who + f" · {kinds.get(pending.kind, pending.kind)} · ⏱ {seconds}"


def answers_text(locale: str | None, amount: int, game: GameInfo, view: EngineView) -> str:
    """What a player made to take a draw may do, as the variant's rules have it: take it,
    stack on it (where the rules or a house rule let one), challenge it (a Wild +4)."""
    pending = view.pending
    stacks = stacking(game, view)
    if pending is not None and pending.challengeable:
        if stacks:
            return gettext(locale, "take +{n}, stack on it or challenge it", n=amount)
        return gettext(locale, "take +{n} or challenge it", n=amount)
    if stacks:
        return gettext(locale, "take +{n} or stack on it", n=amount)
    return gettext(locale, "to take +{n}", n=amount)


def stacking(game: GameInfo, view: EngineView) -> bool:
    """Whether draw cards stack: by the variant's own rules (RULES.md §5 No Mercy), else by
    the house rule Progressive Draw."""
    return variant_facts(view.variant).stacks_draws or bool(game.rules.get("progressive_draw"))


def uno_window_seconds(game: GameInfo) -> int:
    return game.uno_window_seconds or DEFAULT_UNO_WINDOW_SECONDS


def catch_line(locale: str | None, game: GameInfo, view: EngineView) -> Rich:
    """While a one-card hand can be caught: who, and for how long (RULES.md §2 "The catch
    window": until the next player acts, for the UNO-window time at most)."""
    if view.uno_window is None or view.uno_window >= len(game.seats):
        return EMPTY
    return "⚠️ " + rich_gettext(
        locale,
        "{name} did not call UNO: catch them before the next player acts ({n} s at most)",
        name=person(game.seats[view.uno_window]),
        n=uno_window_seconds(game),
    )


#: The mark before the name of the side in play (its name is the variant's: ``side_msgids``).
SIDE_MARKS = {"light": "☀ ", "dark": "🌑 "}


def table_text(
    locale: str | None,
    game: GameInfo,
    view: EngineView,
    recent: Sequence[Rich],
    *,
    two_sided: bool,
) -> Rich:
    """The table's words: ``recent`` are the last moves' lines (``event_lines`` of the
    last ``event_lines.RECENT_MOVES`` moves, which the bot's memory keeps), all told;
    ``two_sided``: the variant's cards have a light and a dark side (its facts)."""
    direction = (
        "↻ " + gettext(locale, "clockwise")
        if view.direction == 1
        else "↺ " + gettext(locale, "anticlockwise")
    )
    head = [
        "🎴 " + gettext(locale, "UNO {variant}", variant=variant_name(locale, game.variant)),
        gettext(locale, "round {n}", n=view.round),
    ]
    if two_sided:
        side = variant_facts(game.variant).side_msgids[view.side]
        head.append(SIDE_MARKS.get(view.side, "") + gettext(locale, side))
    head.append(direction)
    # Whose decision it is comes first: the line a glance (and a notification's preview)
    # reads.
    owing = owing_text(locale, game, view)
    lines: list[Rich | str] = [owing] if owing else []
    lines += [" · ".join(head), top_line(locale, view), seat_line(locale, game, view)]
    catch = catch_line(locale, game, view)
    if catch:
        lines.append(catch)
    fingerprint = fingerprint_line(locale, view)
    if fingerprint:
        lines.append(fingerprint)
    pile = gettext(locale, "draw pile {n}", n=view.draw_pile)
    if view.pending is not None and view.pending.kind == "respond_to_draw":
        pile += " · " + gettext(locale, "to take: +{n}", n=view.pending.amount)
    back = (view.model_extra or {}).get("draw_pile_back")
    if back:
        pile += " · " + gettext(locale, "its back: {card}", card=face_label(locale, str(back)))
    lines.append(pile)
    if recent:
        lines.append("— " + join(" · ", recent))
    return join("\n", lines)


def table(
    locale: str | None,
    game: GameInfo,
    view: EngineView,
    recent: Sequence[Rich],
    *,
    two_sided: bool,
) -> Screen:
    """The group's one table message (edited in place) and its buttons (none once the
    round is decided)."""
    text = table_text(locale, game, view, recent, two_sided=two_sided)
    if game.status != "playing" or view.pending is None:
        return Screen(text, None)
    return Screen(text, table_keyboard(locale, game, view))


def my_cards(locale: str | None, game_id: str) -> Button:
    """Opens the inline-mode hand of ``game_id``."""
    return Button("🃏 " + gettext(locale, "My cards"), inline_query=game_id)


def my_cards_keyboard(locale: str | None, game_id: str) -> Keyboard:
    return ((my_cards(locale, game_id),),)


def table_keyboard(locale: str | None, game: GameInfo, view: EngineView) -> Keyboard:
    g, v = game.game_id, view.version
    ways_to_hand = [
        my_cards(locale, g),
        button("✉️ " + gettext(locale, "In private"), Callback(Kind.HAND, g, 0)),
    ]
    extra: list[Button] = []
    pending = view.pending
    # UNO! while a window is open only: before that, the call is the owing player's alone,
    # offered in their hand when the engine's legal list has it (a play to go with it).
    if view.uno_window is not None:
        extra.append(button(gettext(locale, "UNO!"), Callback(Kind.ACT, g, v, "u")))
    if view.uno_window is not None:
        caught = game.seats[view.uno_window]
        extra.append(
            button(
                gettext(locale, "Catch {name}!", name=short_name(caught.name)),
                Callback(Kind.ACT, g, v, f"x.{view.uno_window}"),
            )
        )
    colours = colour_buttons(locale, game, view)
    if pending is not None and pending.kind == "respond_to_draw":
        extra.append(
            button(gettext(locale, "Take +{n}", n=pending.amount), Callback(Kind.ACT, g, v, "a"))
        )
        if pending.challengeable:
            extra.append(button(gettext(locale, "Challenge"), Callback(Kind.ACT, g, v, "ch")))
    return (*rows(colours, 4), *rows(ways_to_hand, 2), *rows(extra, 2))


#: Decisions that name a colour: the wild's, and No Mercy's colour roulette (RULES.md §2
#: "Wild cards", §5).
COLOUR_DECISIONS = frozenset({"choose_color", "choose_roulette_color"})


def colour_buttons(locale: str | None, game: GameInfo, view: EngineView) -> list[Button]:
    """While a colour is owed, the side's four colours on the table itself: the player who
    played the wild from the inline hand finds its list closed, so the choice is offered
    where they are. Anyone may press them; the engine takes the owing player's press alone
    (another's is refused in words: ``play.move_button``)."""
    pending = view.pending
    if pending is None or pending.kind not in COLOUR_DECISIONS:
        return []
    colours = DARK_COLORS if view.side == "dark" else LIGHT_COLORS
    return [
        button(
            f"{COLOR_SQUARES[c]} {color_name(locale, c)}",
            Callback(Kind.ACT, game.game_id, view.version, f"c.{c}"),
        )
        for c in colours
    ]


#: The most of a name a button shows (Telegram allows names of 64 characters).
BUTTON_NAME = 14


def short_name(name: str) -> str:
    """``name`` short enough for a button, cut by the bot rather than by Telegram."""
    return name if len(name) <= BUTTON_NAME else name[: BUTTON_NAME - 1] + "…"
