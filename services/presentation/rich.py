"""Rich text, as every screen gives it: spans of plain text, each with its styles (bold,
italic, code), or naming a person (a mention of a user id) or a link, and no markup at all.

A front writes it in its own terms: the bot as Telegram's HTML (``services.bot.telegram_html``,
the one place that escapes it), the Mini App as plain text or its own elements (``plain``,
``spans``). So no screen escapes anything, and a name with ``<`` in it is text everywhere.

The Unicode isolates and direction marks that keep a right-to-left line in order
(``locales.bidi``) are characters of the text like any other: every front keeps them.

Values are immutable; ``+`` and ``join`` make new ones (a ``str`` is plain text), and
neighbouring spans of the same look are merged, so two texts that read and look the same
compare equal.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Flag, auto


class Style(Flag):
    """How a span looks (combinable: ``Style.BOLD | Style.ITALIC``)."""

    NONE = 0
    BOLD = auto()
    ITALIC = auto()
    CODE = auto()  # monospace


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text that looks one way: its ``style``, and whether it names a person (the
    user id ``mention``: a front may link them) or links to ``link`` (a URL)."""

    text: str
    style: Style = Style.NONE
    mention: int | None = None
    link: str | None = None

    def looks_like(self, other: Span) -> bool:
        return (
            self.style == other.style and self.mention == other.mention and self.link == other.link
        )

    def with_text(self, text: str) -> Span:
        """``text`` looking as this span does."""
        return Span(text, self.style, self.mention, self.link)


def _merged(spans: Iterable[Span]) -> tuple[Span, ...]:
    out: list[Span] = []
    for span in spans:
        if not span.text:
            continue
        if out and out[-1].looks_like(span):
            out[-1] = out[-1].with_text(out[-1].text + span.text)
        else:
            out.append(span)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Rich:
    """Text made of ``spans``; build it with ``text``, ``bold``, ``mention`` …, ``+``,
    ``join`` and ``fill``."""

    spans: tuple[Span, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "spans", _merged(self.spans))

    @property
    def plain(self) -> str:
        """The text alone: every span's characters, isolates included, no styles."""
        return "".join(span.text for span in self.spans)

    def __bool__(self) -> bool:
        return bool(self.spans)

    def __add__(self, other: Rich | str) -> Rich:
        return Rich(self.spans + as_rich(other).spans)

    def __radd__(self, other: str) -> Rich:
        return Rich(as_rich(other).spans + self.spans)

    def join(self, parts: Iterable[Rich | str]) -> Rich:
        """``parts`` with this text between each two (as ``str.join``)."""
        spans: list[Span] = []
        for n, part in enumerate(parts):
            if n:
                spans.extend(self.spans)
            spans.extend(as_rich(part).spans)
        return Rich(tuple(spans))

    def split(self, separator: str) -> list[Rich]:
        """The pieces between each ``separator`` (as ``str.split``), each keeping its looks."""
        pieces: list[list[Span]] = [[]]
        for span in self.spans:
            head, *rest = span.text.split(separator)
            pieces[-1].append(span.with_text(head))
            pieces.extend([span.with_text(piece)] for piece in rest)
        return [Rich(tuple(piece)) for piece in pieces]

    def insert_plain(self, offsets: Iterable[int], mark: str) -> Rich:
        """``mark`` as plain text before the character at each of ``offsets`` (in
        ``plain``); inside a span it takes the span's looks, between two spans it stands
        on its own (a direction mark goes before a name, not into its link)."""
        at = sorted(set(offsets))
        spans: list[Span] = []
        start = 0
        for span in self.spans:
            end = start + len(span.text)
            cuts = [o - start for o in at if start <= o < end]
            if cuts and cuts[0] == 0:
                spans.append(Span(mark))
                cuts = cuts[1:]
            pieces, last = [], 0
            for cut in cuts:
                pieces.append(span.text[last:cut])
                last = cut
            pieces.append(span.text[last:])
            spans.append(span.with_text(mark.join(pieces)))
            start = end
        if start in at:
            spans.append(Span(mark))
        return Rich(tuple(spans))


def as_rich(value: Rich | str) -> Rich:
    """``value`` as rich text (a ``str`` is plain text)."""
    return value if isinstance(value, Rich) else text(value)


def text(value: str) -> Rich:
    """Plain text."""
    return Rich((Span(value),))


def bold(value: str) -> Rich:
    return Rich((Span(value, Style.BOLD),))


def italic(value: str) -> Rich:
    return Rich((Span(value, Style.ITALIC),))


def code(value: str) -> Rich:
    """Monospace text (a command, a code)."""
    return Rich((Span(value, Style.CODE),))


def mention(value: str, user_id: int) -> Rich:
    """``value`` (a person's name) naming the person ``user_id``."""
    return Rich((Span(value, mention=user_id),))


def link(value: str, url: str) -> Rich:
    return Rich((Span(value, link=url),))


EMPTY = Rich()


def join(separator: Rich | str, parts: Iterable[Rich | str]) -> Rich:
    """``parts`` with ``separator`` between each two."""
    return as_rich(separator).join(parts)


_FIELDS = string.Formatter()


def fill(template: str, values: Mapping[str, Rich | str]) -> Rich:
    """``template``'s ``{name}`` fields (``str.format`` syntax: a literal brace is doubled)
    filled from ``values``: rich text goes in with its looks, a ``str`` as plain text."""
    spans: list[Span] = []
    for literal, field, spec, conversion in _FIELDS.parse(template):
        spans.append(Span(literal))
        if field is None:
            continue
        value = values[field]
        if isinstance(value, Rich) and not spec and not conversion:
            spans.extend(value.spans)
        else:
            shown = value.plain if isinstance(value, Rich) else value
            converted = _FIELDS.convert_field(shown, conversion)
            spans.append(Span(_FIELDS.format_field(converted, spec or "")))
    return Rich(tuple(spans))
