"""The legend of the terminal game: what the card codes (RULES.md §1) and action codes it
prints mean. Built from the rules' own enums, so a new colour, kind or action without a
word here fails its test rather than printing a bare code."""

from __future__ import annotations

import textwrap

from services.engine.rules.actions import ActionType
from services.engine.rules.cards import Color, Kind

COLOR_WORDS: dict[Color, str] = {
    Color.RED: "red",
    Color.YELLOW: "yellow",
    Color.GREEN: "green",
    Color.BLUE: "blue",
    Color.PINK: "pink",
    Color.TEAL: "teal",
    Color.ORANGE: "orange",
    Color.VIOLET: "violet",
}

KIND_WORDS: dict[Kind, str] = {
    Kind.SKIP: "Skip",
    Kind.REVERSE: "Reverse",
    Kind.DRAW1: "Draw One",
    Kind.DRAW2: "Draw Two",
    Kind.DRAW4: "Draw Four",
    Kind.DRAW5: "Draw Five",
    Kind.FLIP: "Flip",
    Kind.SKIP_EVERYONE: "Skip Everyone",
    Kind.DISCARD_ALL: "Discard All",
    Kind.WILD: "Wild",
    Kind.WILD_DRAW4: "Wild Draw Four",
    Kind.WILD_DRAW2: "Wild Draw Two",
    Kind.WILD_DRAW_COLOR: "Wild Draw Colour",
    Kind.WILD_REVERSE_DRAW4: "Wild Reverse Draw Four",
    Kind.WILD_DRAW6: "Wild Draw Six",
    Kind.WILD_DRAW10: "Wild Draw Ten",
    Kind.WILD_COLOR_ROULETTE: "Wild Colour Roulette",
    Kind.WILD_DRAW3: "Wild Draw Three (Minecraft's Mob/Creeper)",
    Kind.WILD_DUMB_FU: "Minions' Dumb Fu",
}

ACTION_WORDS: dict[ActionType, str] = {
    ActionType.PLAY: "play a card (p.R5)",
    ActionType.DRAW: "draw",
    ActionType.PASS: "keep the drawn card, end the turn",
    ActionType.CHOOSE_COLOR: "choose a colour (c.G)",
    ActionType.CHALLENGE: "challenge the draw card",
    ActionType.ACCEPT: "accept: take the cards",
    ActionType.CALL_UNO: "call UNO",
    ActionType.CATCH: "catch a seat that did not call UNO (x.2)",
    ActionType.SWAP: "swap hands with a seat (s.1)",
    ActionType.CLOSE_UNO_WINDOW: "the UNO window's time ran out",
    ActionType.FROZEN_MOVED: "a frozen player moved (Minions)",
}


def _wrapped(title: str, entries: list[str]) -> list[str]:
    """``entries`` after ``title``, wrapped between entries, never inside one."""
    glued = "; ".join(e.replace(" ", "\xa0") for e in entries)  # textwrap breaks ASCII spaces only
    lines = textwrap.wrap(glued, width=96, initial_indent=f"  {title}: ", subsequent_indent="    ")
    return [line.replace("\xa0", " ") for line in lines]


def legend() -> str:
    """A few lines that explain every code the game prints."""
    return "\n".join(
        [
            "Legend",
            *_wrapped("colours", [f"{c.value} {COLOR_WORDS[c]}" for c in Color]),
            "  a card is its colour then its kind: R5 red 5, GS green Skip, B+2 blue Draw Two;",
            "    a wild has no colour (W+4); W→R is a wild whose chosen colour is red;",
            "    a Flip card shows its light and dark faces: R5/PSE",
            *_wrapped(
                "kinds",
                ["0-9 numbers", *(f"{k.value} {KIND_WORDS[k]}" for k in Kind if not k.is_number)],
            ),
            *_wrapped("actions", [f"{a.value} {ACTION_WORDS[a]}" for a in ActionType]),
            "  a seat's [ ]: the backs of its cards, which everyone sees (UNO Flip);"
            " '>' marks whose turn it is",
        ]
    )
