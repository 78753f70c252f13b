"""The words of a finished game's replay (the Mini App's replay page, the chat's button and
``/replay``) that the live table does not say: the page's controls, the verdict of the
deals' check (RULES.md §2 "Checking a deal"), and why a replay is refused."""

from __future__ import annotations

from services.presentation.i18n import gettext, language, rich_gettext
from services.presentation.rich import Rich, join
from services.presentation.screens.keyboard import Button, Keyboard
from services.presentation.screens.mini_app import MiniApp


def replay_button(locale: str | None, app: MiniApp, game_id: str, *, in_group: bool) -> Button:
    """Opens the game's replay: in a group a direct link (Telegram refuses ``web_app``
    buttons there), in a private chat the page itself."""
    text = "🎞 " + gettext(locale, "Replay")
    if in_group:
        return Button(text, url=f"{app.replay_link}?startapp={game_id}")
    return Button(text, web_app=app.replay_of(game_id))


def replay_keyboard(
    locale: str | None, app: MiniApp | None, game_id: str, *, in_group: bool
) -> Keyboard | None:
    """The replay's button alone, or nothing where no Mini App is configured."""
    if app is None or not app.replay_link:
        return None
    return ((replay_button(locale, app, game_id, in_group=in_group),),)


def replay_offer(locale: str | None, variant: str, players: list[Rich]) -> Rich:
    """What ``/replay`` answers above its button: the game it opens (each player's name
    isolated where it was made)."""
    separator = "؛ " if language(locale) == "fa" else ", "
    return "🎞 " + rich_gettext(
        locale,
        "Replay of the {variant} game of {players}",
        variant=variant,
        players=join(separator, players),
    )


def replay_words(locale: str | None) -> dict[str, str]:
    """The replay page's controls and headings, and the verdict's words."""
    return {
        "title": gettext(locale, "Replay"),
        "first": gettext(locale, "Start"),
        "previous_round": gettext(locale, "Previous round"),
        "back": gettext(locale, "Back"),
        "forward": gettext(locale, "Forward"),
        "next_round": gettext(locale, "Next round"),
        "play": gettext(locale, "Play"),
        "pause": gettext(locale, "Pause"),
        "speed": gettext(locale, "Speed"),
        "verify": gettext(locale, "Check the deals"),
        "checking": gettext(locale, "Checking…"),
    }


def step_text(locale: str | None, index: int | None, moves: int) -> str:
    """Where a position stands in its round: its deal, or its move's number."""
    if index is None:
        return gettext(locale, "the deal")
    return gettext(locale, "move {n} of {total}", n=index + 1, total=moves)


def verdict_text(locale: str | None, valid: bool) -> str:
    if valid:
        return "✅ " + gettext(
            locale, "Every deal matches its fingerprint and every move the rules."
        )
    return "❌ " + gettext(locale, "This game does not check out.")


def round_verdict(locale: str | None, number: int, ok: bool | None, why: str | None) -> str:
    """One round's line of the check: ✓, where it parted from the rules, or unchecked."""
    if ok:
        return "✓ " + gettext(locale, "round {n}: deal and moves check out", n=number)
    if ok is None:
        return "· " + gettext(locale, "round {n}: not checked", n=number)
    return "✗ " + gettext(locale, "round {n}: {why}", n=number, why=why or "")


def replay_refusal(locale: str | None, error: str) -> str:
    """Why a replay cannot be shown, in the person's words."""
    if error == "game_in_progress":
        return gettext(locale, "This game is still being played: its replay opens when it ends.")
    if error == "not_in_chat":
        return gettext(locale, "Only members of this game's chat can watch its replay.")
    if error == "not_a_player":
        return gettext(locale, "You did not play in that game.")
    if error == "no_finished_game":
        return gettext(locale, "No finished game to replay here yet.")
    return gettext(locale, "There is no replay of this game.")
