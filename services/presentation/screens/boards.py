"""What /stats, /top and /forgetme show: a player's record, a board of a chat or of everyone,
and the question (and answer) of forgetting a player; from the records' values, which the
bot reads (``services.records``) and passes in as they are (``Protocol``s below: the
presentation imports nothing of the records)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from services.presentation.callbacks import Callback, Kind
from services.presentation.i18n import gettext, ngettext, number, rich_gettext
from services.presentation.locales.bidi import isolate
from services.presentation.rich import Rich, bold, join, text
from services.presentation.screens.keyboard import Screen, button
from services.presentation.screens.names import known_variants, shortened, variant_name


class VariantRecord(Protocol):
    """A player's record in one variant (``services.records.queries.VariantRecord``)."""

    @property
    def variant(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def rating(self) -> float: ...


class UserStats(Protocol):
    """A player's records everywhere and in one chat (``services.records.queries.UserStats``)."""

    @property
    def variants(self) -> Sequence[VariantRecord]: ...
    @property
    def in_chat(self) -> Sequence[VariantRecord]: ...


class BoardEntry(Protocol):
    """One line of a board (``services.records.queries.BoardEntry``)."""

    @property
    def place(self) -> int: ...
    @property
    def name(self) -> str | None: ...
    @property
    def is_ai(self) -> bool: ...
    @property
    def rating(self) -> float: ...
    @property
    def wins(self) -> int: ...
    @property
    def games(self) -> int: ...


def rating(value: float) -> float:
    """A rating as shown: one decimal (fields get the reader's digits from ``gettext``)."""
    return round(value, 1)


def _name(locale: str | None, name: str | None, is_ai: bool) -> str:
    shown = name if name else gettext(locale, "(forgotten player)")
    return ("🤖 " if is_ai else "") + isolate(shown)


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


def stats_text(locale: str | None, name: str, stats: UserStats | None) -> Rich:
    """/stats: a player's games, wins, points and rating per variant, everywhere and in the
    chat asked in."""
    if stats is None or not (stats.variants or stats.in_chat):
        return join(
            "\n",
            [
                rich_gettext(locale, "No finished games on record for {name} yet.", name=name),
                ended_early(locale),
            ],
        )
    lines: list[Rich | str] = ["📊 " + bold(isolate(name))]
    if stats.in_chat:
        lines.append("")
        lines.append(gettext(locale, "In this chat:"))
        lines.extend(_record_line(locale, r) for r in stats.in_chat)
    if stats.variants:
        lines.append("")
        lines.append(gettext(locale, "Everywhere:"))
        lines.extend(_record_line(locale, r) for r in stats.variants)
    return join("\n", lines)


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
    by_wins: bool,
    everywhere: bool,
    entries: Sequence[BoardEntry],
) -> Rich:
    """/top: a short board, by rating or by wins (``by_wins``), of a chat or of everyone."""
    where = gettext(locale, "everywhere") if everywhere else gettext(locale, "this chat")
    how = gettext(locale, "by wins") if by_wins else gettext(locale, "by rating")
    title = gettext(
        locale,
        "🏆 {variant} — {where}, {order}",
        variant=variant_name(locale, variant),
        where=where,
        order=how,
    )
    if not entries:
        return text(
            title
            + "\n\n"
            + gettext(locale, "No one on this board yet: finish a game!")
            + "\n"
            + ended_early(locale)
        )
    lines: list[Rich | str] = [bold(title), ""]
    for entry in entries:
        if by_wins:
            value = ngettext(locale, "{n} win", "{n} wins", entry.wins)
        else:
            value = gettext(locale, "rating {rating}", rating=rating(entry.rating))
        games = ngettext(locale, "{n} game", "{n} games", entry.games)
        lines.append(
            f"{number(locale, entry.place)}. {_name(locale, entry.name, entry.is_ai)}"
            f" — {value} · {games}"
        )
    return join("\n", lines)


def unknown_board_word(locale: str | None, word: str, variants: Mapping[str, object]) -> Rich:
    """A word after /top that names no variant, ``global`` or ``wins``: what /top knows."""
    return rich_gettext(
        locale,
        "I don't know {word}. Try /top, /top global, /top wins or a variant: {known}.",
        word=shortened(word),
        known=known_variants(locale, variants),
    )


def records_unavailable(locale: str | None) -> str:
    """The records did not answer (a reply, or a press's toast)."""
    return gettext(locale, "The records are not available right now.")


def forget_question(locale: str | None, user_id: int) -> Screen:
    """/forgetme's question, with the button only the asker may press."""
    question = gettext(
        locale,
        "This deletes your ratings and standings and removes your name from past games. "
        "It cannot be undone. Are you sure?",
    )
    confirm = button(gettext(locale, "Yes, forget me"), Callback(Kind.FORGET, "", 0, str(user_id)))
    return Screen(text(question), ((confirm,),))


def only_the_asker(locale: str | None) -> str:
    """Someone else pressed the /forgetme question's button."""
    return gettext(locale, "Only the person who asked can confirm this.")


def forgotten(locale: str | None, name: str) -> Rich:
    """The /forgetme question, once its asker is forgotten."""
    return rich_gettext(
        locale,
        "Done: {name}'s ratings and standings are deleted, and past games no longer "
        "show their name.",
        name=name,
    )
