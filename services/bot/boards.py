"""What /top, /forgetme and /settings understand of what people send: the words after /top,
whose /forgetme question a press answers, and the choice a /settings button makes (what
each shows is ``services.presentation.screens``' ``boards`` and ``settings``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace

from telegram import InlineKeyboardMarkup

from services.engine.client import Options, offered_house_rules
from services.presentation.callbacks import BadCallback, Callback, Kind
from services.presentation.locales.glossary import HOUSE_RULES as HOUSE_RULE_NAMES
from services.presentation.screens.settings import (
    ALTERNATE_SCORING,
    STAND_IN_CHOICES,
    TARGET_CHOICES,
    TURN_CHOICES,
    UNO_WINDOW_CHOICES,
    Panel,
    Refusal,
)
from services.presentation.typed_names import named_variant
from services.records.queries import BoardOrder, ChatSettings

#: What ``/top`` understands after the command besides a variant: ``global`` and ``wins``.
GLOBAL_WORDS = {"global", "all", "world"}
WINS_WORDS = {"wins", "win"}


class BadBoardRequest(ValueError):
    """A word after /top that names no variant, ``global`` or ``wins``."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


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


class BadSetting(ValueError):
    """A /settings press that names no choice the panel offers (an old or forged button):
    ``why`` (``screens.settings.setting_refused`` says it), of ``variant`` and ``rule``."""

    def __init__(self, why: Refusal, variant: str = "", rule: str = "") -> None:
        super().__init__(why, variant, rule)
        self.why, self.variant, self.rule = why, variant, rule


def chosen_settings(current: ChatSettings, arg: str, variants: Sequence[str]) -> ChatSettings:
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
        raise BadSetting(Refusal.NOT_PLAYED, current.variant, value)
    if what == "s" and value == "std":
        return replace(current, rules=replace(current.rules, alternate_scoring=False))
    if what == "s" and value == "alt" and ALTERNATE_SCORING in offered:
        return replace(current, rules=replace(current.rules, alternate_scoring=True))
    if what == "s" and value == "alt":
        raise BadSetting(Refusal.NO_ALTERNATE, current.variant)
    if what == "a" and value in STAND_IN_CHOICES:
        return replace(current, stand_in=value)
    seconds = int(value) if value.isdigit() and len(value) <= 7 else -1
    if what == "t" and seconds in TURN_CHOICES:
        return replace(current, turn_seconds=seconds)
    if what == "u" and seconds in UNO_WINDOW_CHOICES:
        return replace(current, uno_window_seconds=seconds)
    if what == "g" and seconds in TARGET_CHOICES:
        return replace(current, rules=replace(current.rules, target_score=seconds or None))
    raise BadSetting(Refusal.NOT_OFFERED, current.variant)


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
