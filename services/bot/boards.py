"""What /stats, /top, /forgetme and /settings show: pure functions from the records' values
to text (Telegram HTML) and buttons, every word through ``i18n``; and what a /settings
button asks for (``chosen_settings``)."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from services.engine.client import (
    TITLE_CONTEXT,
    Options,
    default_target_score,
    offered_house_rules,
    variant_facts,
)
from services.presentation.callbacks import BadCallback, Callback, Kind
from services.presentation.i18n import gettext, language, ngettext, number, pgettext
from services.presentation.locales.bidi import isolate
from services.presentation.locales.catalog import LANGUAGES
from services.presentation.locales.glossary import HOUSE_RULES as HOUSE_RULE_NAMES
from services.presentation.locales.glossary import house_rule_name
from services.presentation.screens.names import listed, variant_name
from services.records.queries import (
    BoardEntry,
    BoardOrder,
    ChatSettings,
    UserStats,
    VariantRecord,
)

#: What ``/top`` understands after the command besides a variant: ``global`` and ``wins``.
GLOBAL_WORDS = {"global", "all", "world"}
WINS_WORDS = {"wins", "win"}


class BadBoardRequest(ValueError):
    """A word after /top that names no variant, ``global`` or ``wins``."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


#: What a typed name may differ in and still name a variant: case, spaces, hyphens,
#: underscores, the Persian half-space, and Arabic letters typed for Persian ones.
_IGNORED = re.compile(r"[\s\-_\u200c\u200f\u200e]+")
_LETTERS = str.maketrans({"ي": "ی", "ك": "ک"})
#: The word "UNO" a name may start with, in every language.
_UNO_WORDS = ("uno", "اونو", "યુનો")


def _folded(text: str) -> str:
    folded = _IGNORED.sub("", text.casefold().translate(_LETTERS))
    for word in _UNO_WORDS:
        if folded.startswith(word) and len(folded) > len(word):
            return folded[len(word) :]
    return folded


def variant_spellings(variants: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Every name that calls one of ``variants`` (the engine's, each with the spellings
    people type for it: ``VariantFacts.spellings``), folded (``_folded``): its id, those
    spellings, and its names in every language the bot speaks."""
    names: dict[str, str] = {}
    for variant in variants:
        spoken = [variant, variant_name(None, variant)]
        title = variant_facts(variant).title_msgid
        for lang in LANGUAGES:
            spoken.append(variant_name(lang, variant))
            spoken.append(pgettext(lang, TITLE_CONTEXT, title))
        for name in spoken:
            names[_folded(name)] = variant
    for variant, spellings in variants.items():
        for spelling in spellings:
            names[_folded(spelling)] = variant
    return names


def named_variant(text: str, variants: Mapping[str, Sequence[str]]) -> str | None:
    """The variant ``text`` names (``/rules no mercy``, ``/rules بی رحم``); None: none."""
    return variant_spellings(variants).get(_folded(text)) if _folded(text) else None


def parse_top(
    args: list[str], variants: Mapping[str, Sequence[str]]
) -> tuple[str | None, BoardOrder, bool]:
    """``/top [variant] [global] [wins]``, in any order, ``variants`` the engine's:
    (variant, None when none is named; order; global?). A variant's name may be two words
    ("no mercy")."""
    variant: str | None = None
    order, everywhere = BoardOrder.RATING, False
    words = list(args)
    while words:
        raw = words.pop(0)
        word = raw.casefold()
        if word in GLOBAL_WORDS:
            everywhere = True
        elif word in WINS_WORDS:
            order = BoardOrder.WINS
        else:
            alone = named_variant(raw, variants)
            paired = named_variant(f"{raw} {words[0]}", variants) if words else None
            if alone is None and paired is not None:
                words.pop(0)
            variant = alone or paired
            if variant is None:
                raise BadBoardRequest(raw)
    return variant, order, everywhere


def _name(locale: str | None, name: str | None, is_ai: bool) -> str:
    shown = html.escape(name) if name else gettext(locale, "(forgotten player)")
    return ("🤖 " if is_ai else "") + isolate(shown)


def rating(value: float) -> float:
    """A rating as shown: one decimal (fields get the reader's digits from ``gettext``)."""
    return round(value, 1)


def _record_line(locale: str | None, record: VariantRecord) -> str:
    return gettext(
        locale,
        "{variant}: games {games} · wins {wins} · points {points} · rating {rating}",
        variant=variant_name(locale, record.variant),
        games=record.games,
        wins=record.wins,
        points=record.points,
        rating=rating(record.rating),
    )


def stats_text(locale: str | None, name: str, stats: UserStats | None) -> str:
    """/stats: a player's games, wins, points and rating per variant, everywhere and in the
    chat asked in."""
    shown = isolate(html.escape(name))
    if stats is None or not (stats.variants or stats.in_chat):
        return "\n".join(
            [
                gettext(
                    locale, "No finished games on record for {name} yet.", name=html.escape(name)
                ),
                ended_early(locale),
            ]
        )
    lines = [f"📊 <b>{shown}</b>"]
    if stats.in_chat:
        lines.append("")
        lines.append(gettext(locale, "In this chat:"))
        lines.extend(_record_line(locale, r) for r in stats.in_chat)
    if stats.variants:
        lines.append("")
        lines.append(gettext(locale, "Everywhere:"))
        lines.extend(_record_line(locale, r) for r in stats.variants)
    return "\n".join(lines)


def ended_early(locale: str | None) -> str:
    """Why games played may be missing from the records: [decision] a game ended early
    (``/end``, or every player gone) is kept without results, so it counts in no one's
    games, wins, points or rating (services/records/README.md). Its scores say nothing of
    who would have won, and counting them would let a losing host end a game to escape the
    loss."""
    return gettext(locale, "A game ended with /end before anyone won counts for no one.")


def board_text(
    locale: str | None,
    variant: str,
    order: BoardOrder,
    everywhere: bool,
    entries: list[BoardEntry],
) -> str:
    """/top: a short board, by rating or by wins, of a chat or of everyone."""
    where = gettext(locale, "everywhere") if everywhere else gettext(locale, "this chat")
    how = gettext(locale, "by rating") if order is BoardOrder.RATING else gettext(locale, "by wins")
    title = gettext(
        locale,
        "🏆 {variant} — {where}, {order}",
        variant=variant_name(locale, variant),
        where=where,
        order=how,
    )
    if not entries:
        return (
            html.escape(title)
            + "\n\n"
            + gettext(locale, "No one on this board yet: finish a game!")
            + "\n"
            + ended_early(locale)
        )
    lines = [f"<b>{html.escape(title)}</b>", ""]
    for entry in entries:
        if order is BoardOrder.RATING:
            value = gettext(locale, "rating {rating}", rating=rating(entry.rating))
        else:
            value = ngettext(locale, "{n} win", "{n} wins", entry.wins)
        games = ngettext(locale, "{n} game", "{n} games", entry.games)
        lines.append(
            f"{number(locale, entry.place)}. {_name(locale, entry.name, entry.is_ai)}"
            f" — {value} · {games}"
        )
    return "\n".join(lines)


def forget_question(locale: str | None, user_id: int) -> tuple[str, InlineKeyboardMarkup]:
    """/forgetme's question, with the button only the asker may press."""
    text = gettext(
        locale,
        "This deletes your ratings and standings and removes your name from past games. "
        "It cannot be undone. Are you sure?",
    )
    button = InlineKeyboardButton(
        gettext(locale, "Yes, forget me"),
        callback_data=Callback(Kind.FORGET, "", 0, str(user_id)).encode(),
    )
    return text, InlineKeyboardMarkup([[button]])


def forget_asker(markup: InlineKeyboardMarkup | None) -> int | None:
    """Whom the /forgetme question showing ``markup`` was asked for: the user its own
    button names (None: it shows no such button). The keyboard a press carries is
    Telegram's word for what the bot drew, unlike the press's own data."""
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            data = button.callback_data
            try:
                cb = Callback.decode(data if isinstance(data, str) else None)
            except BadCallback:
                continue
            if cb.kind is Kind.FORGET and cb.arg.isdigit():
                return int(cb.arg)
    return None


#: The turn times /settings offers (seconds).
TURN_CHOICES = (15, 30, 60, 120)
#: The UNO windows /settings offers (seconds; RULES.md §2 "UNO").
UNO_WINDOW_CHOICES = (4, 8, 15, 30)
#: The target scores /settings offers; 0: the variant's own (500, No Mercy 1000).
TARGET_CHOICES = (0, 100, 200, 300, 500, 1000)
#: The AI levels /settings offers for the stand-in that plays for a player out of time.
STAND_IN_CHOICES = ("strong", "hard")
#: The option /settings shows under "Scoring" rather than among the house rules.
ALTERNATE_SCORING = "alternate_scoring"


class Panel(StrEnum):
    """The /settings message's panels: the summary with its menu, and one per setting.
    Each is a button ``p.<panel>``; a choice made in a panel shows that panel again."""

    MAIN = "m"
    VARIANT = "v"
    HOUSE_RULES = "h"
    TURN = "t"
    UNO_WINDOW = "u"
    SCORING = "s"
    STAND_IN = "a"


@dataclass(frozen=True, slots=True)
class ServiceDefaults:
    """What a chat that chose nothing plays with (the bot's settings)."""

    turn_seconds: int
    uno_window_seconds: int
    #: The variants the engine plays (``services.engine.client.variant_names``).
    variants: tuple[str, ...]


def rules_for(settings: ChatSettings, variant: str) -> Options:
    """The chat's house rules that ``variant`` offers, the target score kept: what /new
    passes a game of ``variant``.

    [decision] A chat keeps one set of house rules, chosen in /settings for its default
    variant; a game of another variant takes those of them that variant offers, so picking
    No Mercy at /new never asks for Seven-O, which the engine would refuse."""
    offered = set(offered_house_rules(variant))
    switches = {
        f.name: False
        for f in fields(Options)
        if isinstance(getattr(settings.rules, f.name), bool) and f.name not in offered
    }
    return replace(settings.rules, **switches)


def house_rules(settings: ChatSettings) -> list[str]:
    """The house rules (not the scoring) switched on for the chat's default variant."""
    return [
        rule
        for rule in offered_house_rules(settings.variant)
        if rule != ALTERNATE_SCORING and getattr(settings.rules, rule)
    ]


def alternate_scoring(settings: ChatSettings) -> bool:
    """Whether the default variant is scored the other way round (if it offers that)."""
    return settings.rules.alternate_scoring and ALTERNATE_SCORING in offered_house_rules(
        settings.variant
    )


def house_rule_label(locale: str | None, rule: str) -> str:
    return house_rule_name(language(locale), rule)


def _seconds_row(
    locale: str | None, choices: Sequence[int], chosen: int, code: str
) -> list[InlineKeyboardButton]:
    """A row of durations to pick from, the chosen one ticked; each button's code is
    ``{code}.{seconds}``."""
    return [
        _settings_button(
            _ticked(s == chosen, gettext(locale, "{seconds} s", seconds=s)), f"{code}.{s}"
        )
        for s in choices
    ]


def _settings_button(text: str, arg: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=Callback(Kind.SETTINGS, "", 0, arg).encode())


def _ticked(on: bool, text: str) -> str:
    return ("✅ " if on else "") + text


def _stand_in_name(locale: str | None, level: str) -> str:
    if level == "hard":
        return gettext(locale, "hard AI")
    return gettext(locale, "strong AI")


def _summary(locale: str | None, current: ChatSettings, defaults: ServiceDefaults) -> list[str]:
    turn = current.turn_seconds or defaults.turn_seconds
    window = current.uno_window_seconds or defaults.uno_window_seconds
    rules = [house_rule_label(locale, r) for r in house_rules(current)]
    target = current.rules.target_score
    if alternate_scoring(current):
        scoring = gettext(locale, "Scoring: alternate (each counts their own hand, lowest wins)")
    else:
        scoring = gettext(locale, "Scoring: standard (a round's winner scores the others' cards)")
    return [
        gettext(locale, "⚙️ Settings for new games here (chat admins can change them):"),
        gettext(
            locale, "Default variant: {variant}", variant=variant_name(locale, current.variant)
        ),
        gettext(locale, "House rules: {rules}", rules=listed(locale, rules))
        if rules
        else gettext(locale, "House rules: none"),
        ngettext(locale, "Turn time: {n} second", "Turn time: {n} seconds", turn),
        ngettext(locale, "UNO window: {n} second", "UNO window: {n} seconds", window),
        scoring,
        ngettext(locale, "Target: {n} point", "Target: {n} points", target)
        if target
        else ngettext(
            locale,
            "Target: {n} point (the variant's own)",
            "Target: {n} points (the variant's own)",
            default_target_score(current.variant),
        ),
        gettext(
            locale,
            "Stand-in for a player out of time: {level}",
            level=_stand_in_name(locale, current.stand_in or STAND_IN_CHOICES[0]),
        ),
    ]


def settings_message(
    locale: str | None,
    current: ChatSettings,
    defaults: ServiceDefaults,
    panel: Panel = Panel.MAIN,
) -> tuple[str, InlineKeyboardMarkup]:
    """/settings: one message, edited in place. Its text always sums up the chat's defaults
    for new games; its buttons are those of ``panel`` (the current choices ticked), each
    panel's with a way back to the menu."""
    lines = _summary(locale, current, defaults)
    back = [_settings_button("« " + gettext(locale, "Back"), "p.m")]
    rows: list[list[InlineKeyboardButton]]
    if panel is Panel.MAIN:
        rows = [
            [
                _settings_button("🎴 " + gettext(locale, "Variant"), "p.v"),
                _settings_button("🏠 " + gettext(locale, "House rules"), "p.h"),
            ],
            [
                _settings_button("⏱ " + gettext(locale, "Turn time"), "p.t"),
                _settings_button("🔔 " + gettext(locale, "UNO window"), "p.u"),
            ],
            [
                _settings_button("🏁 " + gettext(locale, "Scoring and target"), "p.s"),
                _settings_button("🤖 " + gettext(locale, "Stand-in"), "p.a"),
            ],
        ]
    elif panel is Panel.VARIANT:
        variants = [
            _settings_button(_ticked(v == current.variant, variant_name(locale, v)), f"v.{v}")
            for v in defaults.variants
        ]
        rows = [variants[:3], variants[3:], back]
    elif panel is Panel.HOUSE_RULES:
        lines += [
            "",
            gettext(
                locale,
                "House rules for {variant} (press one to switch it on or off):",
                variant=variant_name(locale, current.variant),
            ),
        ]
        on = set(house_rules(current))
        rows = [
            [_settings_button(("✅ " if r in on else "▫️ ") + house_rule_label(locale, r), f"h.{r}")]
            for r in offered_house_rules(current.variant)
            if r != ALTERNATE_SCORING
        ]
        rows.append(back)
    elif panel is Panel.TURN:
        turn = current.turn_seconds or defaults.turn_seconds
        rows = [_seconds_row(locale, TURN_CHOICES, turn, "t"), back]
    elif panel is Panel.UNO_WINDOW:
        lines += ["", gettext(locale, "How long a player has to call UNO, or be caught:")]
        window = current.uno_window_seconds or defaults.uno_window_seconds
        rows = [_seconds_row(locale, UNO_WINDOW_CHOICES, window, "u"), back]
    elif panel is Panel.STAND_IN:
        lines += ["", gettext(locale, "Who plays for a player whose time runs out:")]
        level = current.stand_in or STAND_IN_CHOICES[0]
        levels = [
            _settings_button(_ticked(c == level, _stand_in_name(locale, c)), f"a.{c}")
            for c in STAND_IN_CHOICES
        ]
        rows = [levels, back]
    else:
        alternate = alternate_scoring(current)
        scoring = [_settings_button(_ticked(not alternate, gettext(locale, "Standard")), "s.std")]
        if ALTERNATE_SCORING in offered_house_rules(current.variant):
            scoring.append(
                _settings_button(_ticked(alternate, gettext(locale, "Alternate")), "s.alt")
            )
        target = current.rules.target_score or 0
        targets = [
            _settings_button(
                _ticked(
                    t == target,
                    number(locale, t) if t else gettext(locale, "The variant's own"),
                ),
                f"g.{t}",
            )
            for t in TARGET_CHOICES
        ]
        rows = [scoring, targets[:3], targets[3:], back]
    return "\n".join(lines), InlineKeyboardMarkup(rows)


class BadSetting(ValueError):
    """A /settings press that names no choice the panel offers (an old or forged button);
    ``message`` says why, in the presser's language."""


def chosen_settings(
    locale: str | None, current: ChatSettings, arg: str, variants: Sequence[str]
) -> ChatSettings:
    """The settings after the choice ``arg`` (``v.flip``, ``h.jump_in``, ``t.30``, ``u.8``,
    ``s.alt``, ``g.500``, ``a.hard``) made on ``current``; ``BadSetting`` for anything the
    panel does not offer, so nothing is written."""
    what, _, value = arg.partition(".")
    offered = offered_house_rules(current.variant)
    if what == "v" and value in variants:
        return replace(current, variant=value)
    if what == "h" and value in offered and value != ALTERNATE_SCORING:
        flipped = not getattr(current.rules, value)
        return replace(current, rules=replace(current.rules, **{value: flipped}))
    if what == "h" and value in HOUSE_RULE_NAMES and value != ALTERNATE_SCORING:
        raise BadSetting(
            gettext(
                locale,
                "{rule} is not played in {variant}.",
                rule=house_rule_label(locale, value),
                variant=variant_name(locale, current.variant),
            )
        )
    if what == "s" and value == "std":
        return replace(current, rules=replace(current.rules, alternate_scoring=False))
    if what == "s" and value == "alt" and ALTERNATE_SCORING in offered:
        return replace(current, rules=replace(current.rules, alternate_scoring=True))
    if what == "s" and value == "alt":
        raise BadSetting(
            gettext(
                locale,
                "{variant} has no alternate scoring.",
                variant=variant_name(locale, current.variant),
            )
        )
    if what == "a" and value in STAND_IN_CHOICES:
        return replace(current, stand_in=value)
    seconds = int(value) if value.isdigit() and len(value) <= 7 else -1
    if what == "t" and seconds in TURN_CHOICES:
        return replace(current, turn_seconds=seconds)
    if what == "u" and seconds in UNO_WINDOW_CHOICES:
        return replace(current, uno_window_seconds=seconds)
    if what == "g" and seconds in TARGET_CHOICES:
        return replace(current, rules=replace(current.rules, target_score=seconds or None))
    raise BadSetting(gettext(locale, "That is not one of the choices."))


def panel_of(arg: str) -> Panel | None:
    """The panel a /settings button belongs to: the one it opens (``p.<panel>``), or the one
    its choice is made in; None for no button of the panel's."""
    what, _, value = arg.partition(".")
    if what == "p":
        return next((p for p in Panel if p.value == value), None)
    return {
        "v": Panel.VARIANT,
        "h": Panel.HOUSE_RULES,
        "t": Panel.TURN,
        "u": Panel.UNO_WINDOW,
        "s": Panel.SCORING,
        "g": Panel.SCORING,
        "a": Panel.STAND_IN,
    }.get(what)
