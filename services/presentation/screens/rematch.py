"""The words of a rematch (RULES.md §7 "Rematch") on a finished game's final message: its
two buttons (play again, leave), who has voted which way, the answer to a press, and why
the engine refused a vote."""

from __future__ import annotations

from services.engine.views import Conflict, EngineError, Forbidden, GameInfo, NotFound
from services.presentation.callbacks import Callback, Kind
from services.presentation.i18n import gettext, language, rich_gettext
from services.presentation.rich import Rich, join
from services.presentation.screens.keyboard import Button, Keyboard
from services.presentation.screens.people import person
from services.presentation.screens.refusals import out_of_the_game

#: The two answers a rematch button sends (the callback's argument).
YES, NO = "yes", "no"


def rematch_row(locale: str | None, game_id: str) -> tuple[Button, ...]:
    """Play again, or leave."""
    return (
        Button(
            "🔁 " + gettext(locale, "Rematch"), callback=Callback(Kind.REMATCH, game_id, 0, YES)
        ),
        Button("🚪 " + gettext(locale, "Leave"), callback=Callback(Kind.REMATCH, game_id, 0, NO)),
    )


def vote_open(game: GameInfo) -> bool:
    """Whether the final message still offers the vote: not started, and somebody still
    to vote (every human seat still held)."""
    if game.rematch.next_game_id is not None:
        return False
    voted = {*game.rematch.yes, *game.rematch.no}
    return any(s.user_id is not None and not s.left and s.user_id not in voted for s in game.seats)


def final_keyboard(locale: str | None, game: GameInfo, replay: Keyboard | None) -> Keyboard | None:
    """The final message's buttons: the replay's (if any), and the vote while it is open."""
    rows = list(replay or ())
    if vote_open(game):
        rows.append(rematch_row(locale, game.game_id))
    return tuple(rows) or None


def votes_text(locale: str | None, game: GameInfo) -> Rich | None:
    """Who has voted which way, and whether the rematch started (None: nobody voted)."""
    rematch = game.rematch
    if not rematch.yes and not rematch.no:
        return None
    separator = "؛ " if language(locale) == "fa" else ", "
    names = {s.user_id: person(s) for s in game.seats if s.user_id is not None}

    def listed(users: list[int]) -> Rich:
        return join(separator, [names[u] for u in users if u in names])

    lines: list[Rich] = []
    if rematch.yes:
        lines.append("🔁 " + rich_gettext(locale, "Again: {names}", names=listed(rematch.yes)))
    if rematch.no:
        lines.append("🚪 " + rich_gettext(locale, "Leaving: {names}", names=listed(rematch.no)))
    if rematch.next_game_id is not None:
        lines.append(rich_gettext(locale, "The rematch has started."))
    elif not vote_open(game):
        lines.append(rich_gettext(locale, "Nobody wants a rematch."))
    return join("\n", lines)


def voted(locale: str | None, vote: bool) -> str:
    """The answer to a press the engine took."""
    if vote:
        return gettext(locale, "You're in for the rematch.")
    return gettext(locale, "You're leaving this table.")


def vote_refused(locale: str | None, e: EngineError) -> str:
    """Why the engine did not take a vote."""
    removed = out_of_the_game(locale or "en", e)
    if removed is not None:
        return removed
    if isinstance(e, Forbidden):
        return gettext(locale, "You did not play in that game.")
    if isinstance(e, NotFound):
        return gettext(locale, "This game is over.")
    if isinstance(e, Conflict):
        texts = {
            "game_not_over": gettext(locale, "This game is not over yet."),
            "already_voted": gettext(locale, "You have voted already."),
            "rematch_started": gettext(locale, "The rematch has started already."),
            "chat_busy": gettext(
                locale, "Another game is being played in this chat: finish it first."
            ),
        }
        if e.error in texts:
            return texts[e.error]
    return gettext(locale, "That is not possible now.")
