"""The Mini App's own screens: the buttons that open it (services/webapp) on a game, and
the few words the app says that the chat does not (its list of games, a catch someone made
first). On the group's table the button is a direct link
(``https://t.me/<bot>/<short name>?startapp=<game>``: Telegram refuses ``web_app`` buttons
in groups), on the private hand a ``web_app`` button to the app's page (``?game=<game>``).
A bot with no Mini App configured shows neither."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from services.engine.views import GameInfo
from services.presentation.i18n import gettext, number, rich_gettext
from services.presentation.rich import Rich
from services.presentation.screens.keyboard import Button, Screen
from services.presentation.screens.lobby import lobby_text


@dataclass(frozen=True, slots=True)
class MiniApp:
    """Where the Mini App is: its page (``UNO_WEBAPP_PUBLIC_URL``) and the bot's direct
    link to it (``https://t.me/<bot username>/<UNO_WEBAPP_SHORT_NAME>``)."""

    page_url: str
    direct_link: str
    #: The direct link to the replay page, registered as an app of its own (its page is
    #: ``replay_page``): a direct link opens an app's one URL, and the replay is not the table.
    replay_link: str = ""

    @classmethod
    def of(
        cls, page_url: str, bot_username: str, short_name: str, replay_short_name: str = "replay"
    ) -> MiniApp | None:
        """None when no page is configured."""
        if not page_url:
            return None
        return cls(
            page_url,
            f"https://t.me/{bot_username}/{short_name}",
            f"https://t.me/{bot_username}/{replay_short_name}",
        )

    def page_of(self, game_id: str) -> str:
        joiner = "&" if "?" in self.page_url else "?"
        return f"{self.page_url}{joiner}game={game_id}"

    @property
    def replay_page(self) -> str:
        """The replay page, beside the table's page (``/replay`` of the same address)."""
        base = self.page_url.split("?", 1)[0]
        return (base if base.endswith("/") else base + "/") + "replay"

    def replay_of(self, game_id: str) -> str:
        return f"{self.replay_page}?game={game_id}"


def open_table(locale: str | None, app: MiniApp, game_id: str, *, in_group: bool) -> Button:
    text = "🎴 " + gettext(locale, "Open table")
    if in_group:
        return Button(text, url=f"{app.direct_link}?startapp={game_id}")
    return Button(text, web_app=app.page_of(game_id))


def with_mini_app(
    screen: Screen, locale: str | None, app: MiniApp | None, game_id: str, *, in_group: bool
) -> Screen:
    """``screen`` with a last row opening the Mini App on ``game_id``, when the screen has
    buttons (a game being played) and a Mini App is configured."""
    if app is None or screen.keyboard is None:
        return screen
    row = (open_table(locale, app, game_id, in_group=in_group),)
    return Screen(screen.text, (*screen.keyboard, row))


def open_lobby(locale: str | None, app: MiniApp, game_id: str) -> Button:
    """The group's lobby's button: the app on the lobby (a direct link: groups refuse
    ``web_app`` buttons)."""
    return Button(
        "📱 " + gettext(locale, "Open in the app"), url=f"{app.direct_link}?startapp={game_id}"
    )


def with_lobby_in_app(
    screen: Screen, locale: str | None, app: MiniApp | None, game_id: str
) -> Screen:
    """The group's lobby with a last row opening it in the Mini App, when one is configured."""
    if app is None or screen.keyboard is None:
        return screen
    return Screen(screen.text, (*screen.keyboard, (open_lobby(locale, app, game_id),)))


#: What the app's Invite shares: the inline query the bot answers with the lobby
#: (``lobby <game id>``); the game's id alone is the inline hand's query.
INVITE_PREFIX = "lobby "


def invite_query(game_id: str) -> str:
    return f"{INVITE_PREFIX}{game_id}"


def invited_game(query: str) -> str | None:
    """The game an inline query shares as an invite, or None for any other query."""
    text = query.strip()
    return text[len(INVITE_PREFIX) :].strip() if text.startswith(INVITE_PREFIX) else None


def invite_button(locale: str | None, app: MiniApp, game_id: str) -> Button:
    """The shared lobby's button: the app on that lobby."""
    return Button(
        "📱 " + gettext(locale, "Join the game in the app"),
        url=f"{app.direct_link}?startapp={game_id}",
    )


def invite_share_link(locale: str | None, direct_link: str, game: GameInfo) -> str:
    """The Invite where the client refuses the app inline mode (a bot without it, an old
    client): Telegram's share page, with the lobby's direct link and the lobby's own text."""
    query = urlencode(
        {"url": f"{direct_link}?startapp={game.game_id}", "text": lobby_text(locale, game).plain}
    )
    return f"https://t.me/share/url?{query}"


def rating_change_line(locale: str | None, name: str, change: float) -> str:
    """A seat's rating change in a finished game, as the app's end shows it (``+1.2``)."""
    sign = "+" if change >= 0 else "−"
    return gettext(
        locale,
        "{name}: rating {change}",
        name=name,
        change=sign + number(locale, round(abs(change), 1)),
    )


def games_list_words(locale: str | None) -> dict[str, str]:
    """The words of the app's list of the person's current games (opened from the bot's
    menu button): its heading, the empty list, and each game's state."""
    return {
        "mine": gettext(locale, "Your games"),
        "none": gettext(locale, "You are in no game now."),
        "lobby": gettext(locale, "waiting to start"),
        "playing": gettext(locale, "playing"),
    }


def already_caught(locale: str | None, name: Rich | str) -> Rich:
    """A Catch! that came a moment after someone else's catch of the same player."""
    return rich_gettext(locale, "{name} was already caught.", name=name)
