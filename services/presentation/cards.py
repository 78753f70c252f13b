"""How a card face reads in a chat: colour squares and symbols readable without colour
(BOT-UX.md "The group"), from the engine's face codes (RULES.md §1 notation)."""

from __future__ import annotations

from services.presentation.i18n import gettext

COLOR_SQUARES = {
    "R": "🟥",
    "Y": "🟨",
    "G": "🟩",
    "B": "🟦",
    "P": "🩷",
    "T": "🩵",
    "O": "🟧",
    "V": "🟪",
}
LIGHT_COLORS = ("R", "Y", "G", "B")
DARK_COLORS = ("P", "T", "O", "V")

_SYMBOLS = {"S": "⊘", "R": "⇄", "F": "⤵", "SE": "⊘⊘", "DA": "🔥"}
_WILDS = {
    "W": "",
    "W+4": "+4",
    "W+2": "+2",
    "W+3": "+3",
    "W+6": "+6",
    "W+10": "+10",
    "WR+4": "⇄+4",
}


def color_name(locale: str | None, color: str) -> str:
    names = {
        "R": gettext(locale, "red"),
        "Y": gettext(locale, "yellow"),
        "G": gettext(locale, "green"),
        "B": gettext(locale, "blue"),
        "P": gettext(locale, "pink"),
        "T": gettext(locale, "teal"),
        "O": gettext(locale, "orange"),
        "V": gettext(locale, "violet"),
    }
    return names.get(color, color)


def face_label(locale: str | None, code: str, color: str | None = None) -> str:
    """``R7`` → ``🟥 7``; ``W+4`` → ``🌈 +4`` (with the chosen ``color`` after it, if any)."""
    if code.startswith("W"):
        if code in _WILDS:
            text = (
                ("🌈 " + _WILDS[code]).strip() if _WILDS[code] else "🌈 " + gettext(locale, "Wild")
            )
        elif code == "WDC":
            text = "🌈 " + gettext(locale, "draw colour")
        elif code == "WCR":
            text = "🌈 " + gettext(locale, "roulette")
        elif code == "WDF":
            text = "🌈 " + gettext(locale, "Dumb Fu")
        else:
            text = "🌈 " + code
        if color:
            text += " → " + COLOR_SQUARES.get(color, color)
        return text
    square = COLOR_SQUARES.get(code[:1], code[:1])
    symbol = code[1:]
    return f"{square} {_SYMBOLS.get(symbol, symbol)}"


_COLOUR_ORDER = {c: n for n, c in enumerate(LIGHT_COLORS + DARK_COLORS)}


def by_colour(code: str) -> tuple[int, str]:
    """A sort key putting faces in colour order (light side's, then dark side's), wilds
    last, each colour's faces by their code."""
    if code.startswith("W"):
        return (len(_COLOUR_ORDER), code)
    return (_COLOUR_ORDER.get(code[:1], len(_COLOUR_ORDER)), code[1:])
