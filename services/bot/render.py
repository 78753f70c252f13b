"""What the bot shows, built from the engine's views and events: the group's lobby and
table message, the private hand, the inline-mode hand, the lines that say what happened.

Pure functions (no I/O): a view in, text (Telegram HTML) and buttons out, every word through
``i18n``. BOT-UX.md is the sketch they follow.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from services.bot.callbacks import Callback, Kind
from services.bot.cards import COLOR_SQUARES, color_name, face_label
from services.bot.i18n import gettext, language, ngettext, number
from services.bot.locales.bidi import Phrase, isolate
from services.bot.locales.glossary import HOUSE_RULES, house_rule_name
from services.engine.client import EngineView, GameInfo, SeatInfo, round_gains

VARIANTS = ("classic", "flip", "no_mercy", "minecraft", "minions")
AI_LEVELS = ("strong", "random", "hard")
RECENT_LINES = 3


def variant_name(locale: str | None, variant: str) -> str:
    names = {
        "classic": gettext(locale, "Classic"),
        "flip": gettext(locale, "Flip"),
        "no_mercy": gettext(locale, "No Mercy"),
        "minecraft": gettext(locale, "Minecraft"),
        "minions": gettext(locale, "Minions"),
    }
    return names.get(variant, variant)


def person(seat: SeatInfo, *, mention: bool = False) -> str:
    """A seat's name as HTML; isolated so right-to-left names keep the line in order (a
    ``Phrase``: a message it fills in does not isolate it again)."""
    name = isolate(html.escape(seat.name))
    if mention and seat.user_id is not None:
        return Phrase(f'<a href="tg://user?id={seat.user_id}">{name}</a>')
    return Phrase(name)


def seat_names(game: GameInfo) -> list[str]:
    return [person(s) for s in game.seats]


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's whole content: what is compared to skip an edit that changes nothing."""

    text: str
    markup: InlineKeyboardMarkup | None

    def fingerprint(self, *, versions: bool = True) -> str:
        """A digest of the content; with ``versions=False`` the buttons' versions are left
        out, so a hand whose cards and choices did not change is not edited for a new
        version alone (a press on it that is out of date is answered and refreshes it)."""
        markup = self.markup.to_json() if self.markup is not None else ""
        if not versions:
            markup = _VERSION_FIELD.sub("|*|", markup)
        return hashlib.blake2b(f"{self.text}\0{markup}".encode(), digest_size=8).hexdigest()


_VERSION_FIELD = re.compile(r"\|\d+\|")


def _button(text: str, callback: Callback) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=callback.encode())


def _rows(buttons: Sequence[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


# -- /new and the lobby -----------------------------------------------------------------------


def variant_keyboard(
    locale: str | None, chat_tag: str, default: str | None = None
) -> InlineKeyboardMarkup:
    """/new's question: which variant. No game exists yet, so the game field is empty. The
    chat's default variant (its settings) comes first, starred."""
    ordered = sorted(VARIANTS, key=lambda v: v != default)
    buttons = [
        _button(
            ("⭐ " if v == default else "") + variant_name(locale, v),
            Callback(Kind.VARIANT, chat_tag, 0, v),
        )
        for v in ordered
    ]
    return InlineKeyboardMarkup(_rows(buttons, 3))


def lobby(locale: str | None, game: GameInfo) -> Rendered:
    lines = [
        "🎴 "
        + gettext(
            locale,
            "UNO {variant} · waiting for players",
            variant=variant_name(locale, game.variant),
        ),
        gettext(locale, "Host: {name}", name=person(_host_seat(game))),
        *_settings_lines(locale, game),
        "",
    ]
    for seat in game.seats:
        mark = "🤖 " if seat.ai else "• "
        lines.append(mark + person(seat))
    lines.append("")
    lines.append(
        ngettext(locale, "{n} player", "{n} players", len(game.seats))
        + " · "
        + gettext(locale, "the host starts the game")
    )
    # Lobby buttons hold no version: joining or starting means the same on any lobby edit.
    g, v = game.game_id, 0
    markup = InlineKeyboardMarkup(
        [
            [
                _button("✋ " + gettext(locale, "Join"), Callback(Kind.LOBBY, g, v, "join")),
                _button("🚪 " + gettext(locale, "Leave"), Callback(Kind.LOBBY, g, v, "leave")),
            ],
            [
                _button("🤖 " + gettext(locale, "Add AI"), Callback(Kind.LOBBY, g, v, "ai.strong")),
                _button(
                    "🎲 " + gettext(locale, "Add easy AI"), Callback(Kind.LOBBY, g, v, "ai.random")
                ),
                _button(
                    "🧠 " + gettext(locale, "Add hard AI"), Callback(Kind.LOBBY, g, v, "ai.hard")
                ),
            ],
            [
                _button("▶️ " + gettext(locale, "Start"), Callback(Kind.LOBBY, g, v, "start")),
                _button("📖 " + gettext(locale, "Rules"), Callback(Kind.LOBBY, g, v, "rules")),
            ],
        ]
    )
    return Rendered("\n".join(lines), markup)


def listed(locale: str | None, names: Sequence[str]) -> Phrase:
    """Names already in ``locale``'s language, as a list (Persian with "؛": its names hold "،")."""
    return Phrase(("؛ " if language(locale) == "fa" else ", ").join(names))


def _settings_lines(locale: str | None, game: GameInfo) -> list[str]:
    """The chat's settings this game plays with, where they differ from the variant's and
    the service's own: the house rules, the target score, the UNO window."""
    lines = []
    rules = [house_rule_name(language(locale), r) for r in HOUSE_RULES if game.rules.get(r)]
    if rules:
        lines.append(gettext(locale, "House rules: {rules}", rules=listed(locale, rules)))
    extras = []
    target = game.rules.get("target_score")
    if isinstance(target, int) and target > 0:
        extras.append(ngettext(locale, "Target: {n} point", "Target: {n} points", target))
    if game.uno_window_seconds is not None:
        extras.append(
            ngettext(
                locale, "UNO window: {n} second", "UNO window: {n} seconds", game.uno_window_seconds
            )
        )
    if extras:
        lines.append(" · ".join(extras))
    return lines


def _host_seat(game: GameInfo) -> SeatInfo:
    for seat in game.seats:
        if seat.user_id == game.host:
            return seat
    return SeatInfo(seat=-1, name=str(game.host), user_id=game.host)


# -- the table --------------------------------------------------------------------------------


def top_line(locale: str | None, view: EngineView) -> str:
    top = face_label(locale, view.top)
    colour = COLOR_SQUARES.get(view.color or "", "…")
    return gettext(locale, "on the pile: {card}   colour: {color}", card=top, color=colour)


def _seat_line(locale: str | None, game: GameInfo, view: EngineView) -> str:
    parts = []
    for seat_view in view.seats:
        info = game.seats[seat_view.seat] if seat_view.seat < len(game.seats) else None
        name = person(info) if info else html.escape(seat_view.name)
        text = f"{'🤖 ' if info and info.ai else ''}{name} {number(locale, seat_view.cards)}"
        if seat_view.cards == 1 or seat_view.declared_uno:
            text += " 🔔"
        if seat_view.knocked_out:
            text += " ☠"
        if seat_view.frozen:
            text += " 🧊"
        if info and (info.away or info.left):
            text += " 💤"
        if game.status != "lobby" and seat_view.score:
            text += f" ({number(locale, seat_view.score)})"
        parts.append(text)
    return "   " + " · ".join(parts)


def _owing_text(locale: str | None, game: GameInfo, view: EngineView) -> str:
    pending = view.pending
    if pending is None:
        return ""
    who = person(game.seats[pending.player], mention=True)
    kinds = {
        "turn": gettext(locale, "to play"),
        "play_drawn": gettext(locale, "play or keep the drawn card"),
        "choose_color": gettext(locale, "to choose a colour"),
        "respond_to_draw": gettext(locale, "take +{n}, or answer it", n=pending.amount),
        "choose_swap": gettext(locale, "to choose whom to swap hands with"),
        "choose_roulette_color": gettext(locale, "to name a colour for the roulette"),
    }
    seconds = gettext(locale, "{seconds}s", seconds=game.turn_seconds)
    return f"▶ {who} · {kinds.get(pending.kind, pending.kind)} · ⏱ {seconds}"


def table(
    locale: str | None,
    game: GameInfo,
    view: EngineView,
    recent: Sequence[str],
    *,
    bot_username: str,
) -> Rendered:
    """The group's one table message (edited in place) and its buttons."""
    direction = "↻ " + (
        gettext(locale, "clockwise") if view.direction == 1 else gettext(locale, "anticlockwise")
    )
    head = [
        "🎴 " + gettext(locale, "UNO {variant}", variant=variant_name(locale, game.variant)),
        gettext(locale, "round {n}", n=view.round),
    ]
    if game.variant == "flip":
        head.append(
            "☀ " + gettext(locale, "light side")
            if view.side == "light"
            else "🌑 " + gettext(locale, "dark side")
        )
    head.append(direction)
    lines = [" · ".join(head), top_line(locale, view)]
    owing = _owing_text(locale, game, view)
    if owing:
        lines.append(owing)
    lines.append(_seat_line(locale, game, view))
    pile = gettext(locale, "draw pile {n}", n=view.draw_pile)
    if view.pending is not None and view.pending.kind == "respond_to_draw":
        pile += " · " + gettext(locale, "to take: +{n}", n=view.pending.amount)
    back = (view.model_extra or {}).get("draw_pile_back")
    if back:
        pile += " · " + gettext(locale, "its back: {card}", card=face_label(locale, str(back)))
    lines.append(pile)
    if recent:
        lines.append("— " + " · ".join(recent[-RECENT_LINES:]))
    if game.status != "playing" or view.pending is None:
        return Rendered("\n".join(lines), None)
    return Rendered("\n".join(lines), table_buttons(locale, game, view))


def my_cards(locale: str | None, game_id: str) -> InlineKeyboardButton:
    """Opens the inline-mode hand of ``game_id``."""
    return InlineKeyboardButton(
        "🃏 " + gettext(locale, "My cards"), switch_inline_query_current_chat=game_id
    )


def my_cards_keyboard(locale: str | None, game_id: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[my_cards(locale, game_id)]])


def table_buttons(locale: str | None, game: GameInfo, view: EngineView) -> InlineKeyboardMarkup:
    g, v = game.game_id, view.version
    rows: list[list[InlineKeyboardButton]] = [
        [
            my_cards(locale, g),
            _button("✉️ " + gettext(locale, "Private hand"), Callback(Kind.HAND, g, 0)),
        ]
    ]
    extra: list[InlineKeyboardButton] = []
    current = view.seats[view.current] if view.current < len(view.seats) else None
    if view.uno_window is not None or (current is not None and current.cards == 2):
        extra.append(_button(gettext(locale, "UNO!"), Callback(Kind.ACT, g, v, "u")))
    if view.uno_window is not None:
        caught = game.seats[view.uno_window]
        extra.append(
            _button(
                gettext(locale, "Catch {name}!", name=caught.name),
                Callback(Kind.ACT, g, v, f"x.{view.uno_window}"),
            )
        )
    pending = view.pending
    if pending is not None and pending.kind == "respond_to_draw":
        extra.append(
            _button(gettext(locale, "Take +{n}", n=pending.amount), Callback(Kind.ACT, g, v, "a"))
        )
        if pending.challengeable:
            extra.append(_button(gettext(locale, "Challenge"), Callback(Kind.ACT, g, v, "ch")))
    if extra:
        rows.extend(_rows(extra, 2))
    return InlineKeyboardMarkup(rows)


# -- a player's hand --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing a player may pick from their hand: a legal action or an inert card."""

    code: str | None  # the engine action code; None for a card that cannot be played now
    label: str
    card: str | None = None  # the face code, for a card


def choices(locale: str | None, game: GameInfo, view: EngineView) -> list[Choice]:
    """Playable cards first (marked), then the other legal actions, then the unplayable
    cards (BOT-UX.md "The hand, in inline mode")."""
    legal = list(view.legal)
    plays = [code for code in legal if code.startswith("p.")]
    playable = {code[2:] for code in plays}
    out: list[Choice] = []
    pending = view.pending
    for code in plays:
        out.append(Choice(code, "▶ " + face_label(locale, code[2:]), code[2:]))
    for code in legal:
        if code.startswith("p."):
            continue
        out.append(Choice(code, action_label(locale, game, view, code)))
    counts: dict[str, int] = {}
    for face in view.hand:
        counts[face] = counts.get(face, 0) + 1
    for face, n in counts.items():
        if face in playable:
            continue
        label = face_label(locale, face) + (f" ×{n}" if n > 1 else "")
        out.append(Choice(None, label, face))
    del pending
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
        return "🫵 " + gettext(locale, "Catch {name}!", name=plain_text(names[int(arg)]))
    if head == "s" and arg.isdigit() and int(arg) < len(names):
        return "🔄 " + gettext(locale, "Swap with {name}", name=plain_text(names[int(arg)]))
    return code


def plain_text(text: str) -> str:
    """HTML ``text`` as plain text, its isolates taken out (an alert or a button shows no
    markup, and its words need none)."""
    return html.unescape(text.replace("\u2068", "").replace("\u2069", ""))


def why_line(locale: str | None, game: GameInfo, view: EngineView) -> str:
    """One line saying what decision the viewer owes, if any."""
    pending = view.pending
    if pending is None or view.viewer is None:
        return ""
    if pending.player != view.viewer:
        current = game.seats[pending.player]
        return gettext(locale, "waiting for {name}", name=person(current))
    source = game.seats[pending.source].name if pending.source is not None else ""
    texts = {
        "turn": gettext(locale, "your turn"),
        "play_drawn": gettext(locale, "you drew a card: play it or keep it"),
        "choose_color": gettext(locale, "choose a colour"),
        "respond_to_draw": (
            gettext(
                locale,
                "{name} makes you take +{n}: challenge, stack or take",
                name=html.escape(source),
                n=pending.amount,
            )
            if pending.challengeable
            else gettext(
                locale,
                "{name} makes you take +{n}: stack or take",
                name=html.escape(source),
                n=pending.amount,
            )
        ),
        "choose_swap": gettext(locale, "your 7: choose whom to swap hands with"),
        "choose_roulette_color": gettext(locale, "colour roulette: name a colour"),
    }
    return texts.get(pending.kind, pending.kind)


def private_hand(locale: str | None, game: GameInfo, view: EngineView, chat_title: str) -> Rendered:
    """The hand in the player's private chat, headed with its group, edited in place."""
    g, v = game.game_id, view.version
    header = gettext(
        locale,
        "UNO {variant} in “{chat}”",
        variant=variant_name(locale, game.variant),
        chat=html.escape(chat_title),
    )
    lines = [header]
    owes = view.pending is not None and view.pending.player == view.viewer
    if owes:
        # The table's state only where a decision is owed: the others' hands change only
        # with their cards, which spares a private message per player per turn.
        lines.append(top_line(locale, view))
        lines.append(why_line(locale, game, view))
    reveal = (view.model_extra or {}).get("reveal") or []
    reveal_of = (view.model_extra or {}).get("reveal_of")
    if reveal and reveal_of is not None:
        cards = " ".join(face_label(locale, str(c)) for c in reveal)
        lines.append(
            gettext(
                locale,
                "{name}'s hand: {cards}",
                name=person(game.seats[int(reveal_of)]),
                cards=cards,
            )
        )
    lines.append(ngettext(locale, "you hold {n} card", "you hold {n} cards", len(view.hand)))
    card_buttons: list[InlineKeyboardButton] = []
    action_buttons: list[InlineKeyboardButton] = []
    for choice in choices(locale, game, view):
        if choice.code is None:
            card_buttons.append(
                _button("· " + choice.label, Callback(Kind.INERT, g, v, choice.card or ""))
            )
        elif choice.card is not None:
            card_buttons.append(_button(choice.label, Callback(Kind.ACT, g, v, choice.code)))
        else:
            action_buttons.append(_button(choice.label, Callback(Kind.ACT, g, v, choice.code)))
    rows = _rows(card_buttons, 4) + _rows(action_buttons, 3)
    return Rendered("\n".join(lines), InlineKeyboardMarkup(rows) if rows else None)


# -- what happened, in words ------------------------------------------------------------------


def event_line(locale: str | None, game: GameInfo, event: dict[str, Any]) -> str | None:
    """A public event as a short line for the table's "last moves"; None for the ones the
    table shows by itself (whose turn, a window opening ...)."""
    names = seat_names(game)

    def n(key: str = "player") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = event.get("type")
    if kind == "played":
        return gettext(
            locale,
            "{name} played {card}",
            name=n(),
            card=face_label(locale, str(event.get("card"))),
        )
    if kind == "drew":
        return ngettext(
            locale, "{name} drew {n}", "{name} drew {n}", int(event.get("count", 0)), name=n()
        )
    if kind == "kept":
        return gettext(locale, "{name} kept the drawn card", name=n())
    if kind == "color_chosen":
        return gettext(
            locale,
            "{name} chose {color}",
            name=n(),
            color=COLOR_SQUARES.get(str(event.get("color")), "?"),
        )
    if kind == "challenged":
        if event.get("guilty"):
            return gettext(
                locale, "{name} challenged {target}: guilty", name=n(), target=n("target")
            )
        return gettext(locale, "{name} challenged {target}: innocent", name=n(), target=n("target"))
    if kind == "uno_called":
        return gettext(locale, "{name} called UNO!", name=n())
    if kind == "caught":
        return gettext(locale, "{name} caught {target}: +2", name=n(), target=n("target"))
    if kind == "false_catch":
        return gettext(locale, "{name} tried to catch {target}", name=n(), target=n("target"))
    if kind == "stacked":
        return gettext(locale, "{name} stacked on +{n}", name=n(), n=event.get("total"))
    if kind == "swapped":
        return gettext(locale, "{name} swapped hands with {target}", name=n(), target=n("target"))
    if kind == "hands_rotated":
        return gettext(locale, "every hand passed on")
    if kind == "knocked_out":
        return gettext(locale, "{name} is knocked out ☠", name=n())
    if kind == "frozen":
        return gettext(locale, "{name} is frozen by Dumb Fu 🧊", name=n())
    if kind == "frozen_penalty":
        return gettext(locale, "{name} moved while frozen: +4", name=n())
    if kind == "flipped":
        return gettext(locale, "everything flipped ⤵")
    if kind == "roulette":
        return ngettext(
            locale,
            "{name} turned up {n} card in the roulette",
            "{name} turned up {n} cards in the roulette",
            len(event.get("cards") or []),
            name=n(),
        )
    if kind == "discarded_all":
        return gettext(
            locale,
            "{name} discarded all {color}",
            name=n(),
            color=COLOR_SQUARES.get(str(event.get("color")), "?"),
        )
    if kind == "stand_in":
        return gettext(locale, "💤 {name} is out of time; the stand-in plays", name=n("seat"))
    if kind == "player_away":
        return gettext(locale, "{name} is away; AI plays for them", name=n("seat"))
    if kind == "player_back":
        return gettext(locale, "{name} is back", name=n("seat"))
    if kind == "player_left":
        return gettext(locale, "{name} left; AI plays for them", name=n("seat"))
    return None


def shown_gains(game: GameInfo, event: dict[str, Any]) -> list[int | None]:
    """What each seat's score line shows it gained in the round (None: nothing), from the
    ``round_ended`` event, whose ``points`` are each seat's own hand: the engine's own
    ``round_gains`` (RULES.md §2 "Scoring"), every seat's with alternate scoring, else the
    winner's alone. No Mercy's knock-out points (250) were scored when the knock-out
    happened and are in ``scores`` already, and a knocked-out hand counts nothing (its
    points are 0); Flip's hands count on the side in play, as the engine reckoned them."""
    points = [int(p) for p in event.get("points") or []]
    winner = event.get("winner")
    if not (isinstance(winner, int) and 0 <= winner < len(points)):
        return [None] * len(points)
    alternate = bool(game.rules.get("alternate_scoring"))
    gains = round_gains(points, winner, alternate)
    return [g if alternate or seat == winner else None for seat, g in enumerate(gains)]


def round_end(locale: str | None, game: GameInfo, event: dict[str, Any]) -> str:
    names = seat_names(game)
    winner = event.get("winner")
    lines = [
        "🏁 "
        + gettext(
            locale,
            "Round {n} goes to {name}",
            n=event.get("round"),
            name=names[winner] if isinstance(winner, int) and winner < len(names) else "?",
        )
    ]
    gains = shown_gains(game, event)
    scores = event.get("scores") or []
    for seat, name in enumerate(names):
        gained = gains[seat] if seat < len(gains) else None
        total = scores[seat] if seat < len(scores) else 0
        lines.append(
            f"   {name}: {number(locale, total)}"
            + (f"  (+{number(locale, gained)})" if gained is not None else "")
        )
    return "\n".join(lines)


def game_over(locale: str | None, game: GameInfo, event: dict[str, Any]) -> str:
    names = seat_names(game)
    winner = event.get("winner")
    scores = event.get("scores") or []
    lines = [
        "🏆 "
        + gettext(
            locale,
            "{name} wins the game!",
            name=names[winner] if isinstance(winner, int) and winner < len(names) else "?",
        )
    ]
    for seat, name in enumerate(names):
        lines.append(f"   {name}: {number(locale, scores[seat] if seat < len(scores) else 0)}")
    return "\n".join(lines)


def game_ended(locale: str | None, event: dict[str, Any]) -> str:
    if event.get("reason") == "abandoned":
        return gettext(locale, "The game ended: every player left.")
    return gettext(locale, "The game was ended.")


#: Public events the table's "last moves" line tells (``event_line`` has words for them).
MOVE_EVENTS = frozenset(
    {
        "played",
        "drew",
        "kept",
        "color_chosen",
        "challenged",
        "uno_called",
        "caught",
        "false_catch",
        "stacked",
        "swapped",
        "hands_rotated",
        "knocked_out",
        "frozen",
        "frozen_penalty",
        "flipped",
        "roulette",
        "discarded_all",
        "stand_in",
        "player_away",
        "player_back",
        "player_left",
    }
)


def blocked(locale: str | None, seat: SeatInfo) -> str:
    return gettext(
        locale,
        "{name} has blocked me, so their hand is no longer in our private chat: "
        "use 🃏 My cards to play.",
        name=person(seat),
    )


def frozen_penalty(locale: str | None, game: GameInfo, event: dict[str, Any]) -> str:
    seat = event.get("player")
    name = person(game.seats[seat]) if isinstance(seat, int) and seat < len(game.seats) else "?"
    return "🧊 " + gettext(
        locale,
        "{name} moved while frozen by Dumb Fu and draws 4 cards.",
        name=name,
    )
