"""What /settings shows: one message, edited in place, whose text sums up a chat's defaults
for new games and whose buttons are one panel's (the menu, or one setting's choices, the
current ones ticked); what /settings offers (the panels and each one's choices), and its
answers and refusals. The bot reads and writes the chat's settings (``services.records``)
and passes them in as they are (``ChatSettings`` below: the presentation imports nothing of
the records)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from services.engine.views import Options, default_target_score, offered_house_rules
from services.presentation.callbacks import Callback, Kind
from services.presentation.i18n import gettext, language, ngettext, number
from services.presentation.locales.glossary import house_rule_name
from services.presentation.rich import text
from services.presentation.screens.keyboard import Button, Keyboard, Screen, button
from services.presentation.screens.names import listed, variant_name

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


class ChatSettings(Protocol):
    """A chat's defaults for new games (``services.records.queries.ChatSettings``)."""

    @property
    def variant(self) -> str: ...
    @property
    def turn_seconds(self) -> int | None: ...
    @property
    def uno_window_seconds(self) -> int | None: ...
    @property
    def rules(self) -> Options: ...
    @property
    def stand_in(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class ServiceDefaults:
    """What a chat that chose nothing plays with (the bot's settings)."""

    turn_seconds: int
    uno_window_seconds: int
    #: The variants the engine plays (``services.engine.views.variant_names``).
    variants: tuple[str, ...]


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


def _settings_button(label: str, arg: str) -> Button:
    return button(label, Callback(Kind.SETTINGS, "", 0, arg))


def _ticked(on: bool, label: str) -> str:
    return ("✅ " if on else "") + label


def _switch(on: bool) -> str:
    """A house rule's button's mark: on or off."""
    return "✅ " if on else "▫️ "


def _seconds_row(
    locale: str | None, choices: Sequence[int], chosen: int, code: str
) -> tuple[Button, ...]:
    """A row of durations to pick from, the chosen one ticked; each button's code is
    ``{code}.{seconds}``."""
    return tuple(
        _settings_button(
            _ticked(s == chosen, gettext(locale, "{seconds} s", seconds=s)), f"{code}.{s}"
        )
        for s in choices
    )


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


def settings_screen(
    locale: str | None,
    current: ChatSettings,
    defaults: ServiceDefaults,
    panel: Panel = Panel.MAIN,
) -> Screen:
    """/settings: one message, edited in place. Its text always sums up the chat's defaults
    for new games; its buttons are those of ``panel`` (the current choices ticked), each
    panel's with a way back to the menu."""
    lines = _summary(locale, current, defaults)
    back = (_settings_button("« " + gettext(locale, "Back"), "p.m"),)
    rows: list[tuple[Button, ...]]
    if panel is Panel.MAIN:
        rows = [
            (
                _settings_button("🎴 " + gettext(locale, "Variant"), "p.v"),
                _settings_button("🏠 " + gettext(locale, "House rules"), "p.h"),
            ),
            (
                _settings_button("⏱ " + gettext(locale, "Turn time"), "p.t"),
                _settings_button("🔔 " + gettext(locale, "UNO window"), "p.u"),
            ),
            (
                _settings_button("🏁 " + gettext(locale, "Scoring and target"), "p.s"),
                _settings_button("🤖 " + gettext(locale, "Stand-in"), "p.a"),
            ),
        ]
    elif panel is Panel.VARIANT:
        variants = tuple(
            _settings_button(_ticked(v == current.variant, variant_name(locale, v)), f"v.{v}")
            for v in defaults.variants
        )
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
            (_settings_button(_switch(r in on) + house_rule_label(locale, r), f"h.{r}"),)
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
        levels = tuple(
            _settings_button(_ticked(c == level, _stand_in_name(locale, c)), f"a.{c}")
            for c in STAND_IN_CHOICES
        )
        rows = [levels, back]
    else:
        alternate = alternate_scoring(current)
        scoring = [_settings_button(_ticked(not alternate, gettext(locale, "Standard")), "s.std")]
        if ALTERNATE_SCORING in offered_house_rules(current.variant):
            scoring.append(
                _settings_button(_ticked(alternate, gettext(locale, "Alternate")), "s.alt")
            )
        target = current.rules.target_score or 0
        targets = tuple(
            _settings_button(
                _ticked(
                    t == target,
                    number(locale, t) if t else gettext(locale, "The variant's own"),
                ),
                f"g.{t}",
            )
            for t in TARGET_CHOICES
        )
        rows = [tuple(scoring), targets[:3], targets[3:], back]
    keyboard: Keyboard = tuple(rows)
    return Screen(text("\n".join(lines)), keyboard)


class Refusal(StrEnum):
    """Why a /settings press chose nothing (an old or forged button)."""

    #: a house rule the chat's default variant does not play
    NOT_PLAYED = "not_played"
    #: alternate scoring, for a variant that has none
    NO_ALTERNATE = "no_alternate"
    #: anything else the panel does not offer
    NOT_OFFERED = "not_offered"


def setting_refused(locale: str | None, why: Refusal, variant: str = "", rule: str = "") -> str:
    """A /settings press's refusal, as its toast says it."""
    if why is Refusal.NOT_PLAYED:
        return gettext(
            locale,
            "{rule} is not played in {variant}.",
            rule=house_rule_label(locale, rule),
            variant=variant_name(locale, variant),
        )
    if why is Refusal.NO_ALTERNATE:
        return gettext(
            locale, "{variant} has no alternate scoring.", variant=variant_name(locale, variant)
        )
    return gettext(locale, "That is not one of the choices.")


def saved(locale: str | None) -> str:
    """A /settings choice stored (its toast)."""
    return gettext(locale, "Saved.")


def admins_only(locale: str | None) -> str:
    """A /settings press by someone who is not a chat admin."""
    return gettext(locale, "Only chat admins can change the settings.")
