"""A person opens a bot's Mini App, each of the ways Telegram's clients offer one, and the
app sends data back from a keyboard button.

The ways (Telegram's "Mini Apps on Telegram", "Launching Mini Apps"):

- ``inline_button``: an inline keyboard's ``web_app`` button (private chats only);
- ``keyboard_button``: a reply keyboard's ``web_app`` button; the app answers with
  ``Telegram.WebApp.sendData``, a ``web_app_data`` service message to the bot;
- ``menu_button``: the chat's menu button when it is a ``web_app`` one;
- ``inline_results_button``: the ``web_app`` button above inline results; the app goes back
  to inline mode (``switchInlineQuery``);
- ``direct_link``: ``https://t.me/<bot>/<app>?startapp=<param>`` in a URL button or a text,
  to an app the bot registered with @BotFather (the control API's ``register_web_app``).

Every way but the keyboard and inline-results buttons gets a ``query_id`` for
``answerWebAppQuery``, as the "WebAppInitData" table describes. Each check runs before
anything is recorded, so a refused opening leaves nothing behind.
"""

from __future__ import annotations

import re
import time
from typing import Any

from pydantic import ConfigDict
from pydantic.dataclasses import dataclass

from playground.people import People, Refused
from playground.web_apps import WAYS, Launch, init_fields, launch_url, sign
from playground.world import Bot, Chat, Message, User

#: ``https://t.me/<bot username>/<app short name>?startapp=<param>``
DIRECT_LINK = re.compile(
    r"^https?://t\.me/(?P<bot>[A-Za-z0-9_]{3,32})/(?P<app>[A-Za-z0-9_]{3,64})"
    r"(?:\?startapp=(?P<param>[A-Za-z0-9_-]{0,512}))?$"
)
#: Telegram.WebApp.sendData: "up to 4096 bytes".
MAX_WEB_APP_DATA = 4096


@dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class Opening:
    """What the control API is asked to open (its body, as given)."""

    user_id: int
    way: str
    chat_id: int | None = None
    message_id: int | None = None
    button_text: str | None = None
    query_id: str | None = None
    link: str | None = None


class MiniApps:
    """Openings of Mini Apps and the data they send, on a :class:`People`'s world."""

    def __init__(self, people: People) -> None:
        self.people = people
        self.world = people.world

    def open(self, opening: Opening) -> dict[str, Any]:
        """Open a Mini App as the user does; the launch: its id, the URL to load (launch
        parameters in its fragment), ``init_data`` and ``query_id``."""
        if opening.way not in WAYS:
            raise Refused(400, f"way is one of {', '.join(WAYS)}")
        user = self.people.user(opening.user_id)
        find = {
            "inline_button": self._inline_button,
            "keyboard_button": self._keyboard_button,
            "menu_button": self._menu_button,
            "inline_results_button": self._inline_results_button,
            "direct_link": self._direct_link,
        }[opening.way]
        bot, chat, url, extra = find(user, opening)
        launch_id = self.world.query_id()
        has_query = opening.way not in {"keyboard_button", "inline_results_button"}
        launch = Launch(
            launch_id,
            bot.id,
            user.id,
            opening.way,
            url,
            None if chat is None or chat.is_private else chat.id,
            button_text=extra.get("button_text"),
            query_id=launch_id if has_query else None,
            start_param=extra.get("start_param"),
            created=time.time(),
        )
        chat_type = extra.get("chat_type")
        fields = init_fields(
            launch,
            user.api() | {"allows_write_to_pm": True},
            chat_type=chat_type,
            chat_instance=chat.instance if chat is not None else None,
        )
        init_data = sign(bot.token, fields)
        self.world.web_app_launches[launch.id] = launch
        self.world.emit(
            {"kind": "web_app", "launch_id": launch.id, "user_id": user.id, "way": launch.way}
        )
        return {
            "launch_id": launch.id,
            "way": launch.way,
            "url": launch_url(url, init_data, launch.start_param),
            "init_data": init_data,
            "query_id": launch.query_id,
            "bot_id": bot.id,
        }

    # ------------------------------------------------------------------ the ways

    def _bot_message(self, user: User, opening: Opening) -> tuple[Chat, Message]:
        if opening.chat_id is None or opening.message_id is None:
            raise Refused(400, "chat_id and message_id name the message with the button")
        chat = self.people.chat_of(user, opening.chat_id)
        message = chat.messages.get(opening.message_id)
        if message is None or message.deleted:
            raise Refused(404, f"no message {opening.message_id} in chat {opening.chat_id}")
        return chat, message

    def _web_app_button(self, rows: Any, text: str | None) -> dict[str, Any]:
        for row in rows if isinstance(rows, list) else []:
            for button in row if isinstance(row, list) else []:
                if (
                    isinstance(button, dict)
                    and "web_app" in button
                    and (text is None or button.get("text") == text)
                ):
                    return button
        raise Refused(404, f"no web_app button {text!r} on the message")

    def _owner(self, message: Message) -> Bot:
        bot = self.world.bots.get(message.sender.id)
        if bot is None:
            raise Refused(409, "the message's buttons belong to no bot")
        return bot

    def _inline_button(self, user: User, opening: Opening) -> tuple[Bot, Chat, str, dict[str, Any]]:
        chat, message = self._bot_message(user, opening)
        markup = message.reply_markup or {}
        button = self._web_app_button(markup.get("inline_keyboard"), opening.button_text)
        return self._owner(message), chat, button["web_app"]["url"], {}

    def _keyboard_button(
        self, user: User, opening: Opening
    ) -> tuple[Bot, Chat, str, dict[str, Any]]:
        chat, message = self._bot_message(user, opening)
        button = self._web_app_button(
            (message.reply_markup or {}).get("keyboard"), opening.button_text
        )
        return self._owner(message), chat, button["web_app"]["url"], {"button_text": button["text"]}

    def _menu_button(self, user: User, opening: Opening) -> tuple[Bot, Chat, str, dict[str, Any]]:
        bot = self.world.bots.get(opening.chat_id or 0)
        if bot is None:
            raise Refused(400, "chat_id names the bot whose private chat shows the menu button")
        button = bot.menu_button(user.id)
        if button["type"] != "web_app":
            raise Refused(404, "the chat's menu button opens no Mini App")
        return bot, self.world.private_chat(bot, user), button["web_app"]["url"], {}

    def _inline_results_button(
        self, user: User, opening: Opening
    ) -> tuple[Bot, Chat | None, str, dict[str, Any]]:
        record = self.world.inline_queries.get(opening.query_id or "")
        if record is None or record.answer is None or record.user.id != user.id:
            raise Refused(404, f"no answered inline query {opening.query_id} of this user")
        button = record.answer.get("button") or {}
        if "web_app" not in button:
            raise Refused(404, "the inline results have no web_app button")
        return self.world.bots[record.bot_id], None, button["web_app"]["url"], {}

    def _direct_link(
        self, user: User, opening: Opening
    ) -> tuple[Bot, Chat | None, str, dict[str, Any]]:
        found = DIRECT_LINK.match(opening.link or "")
        if found is None:
            raise Refused(400, "a direct link is https://t.me/<bot>/<app>?startapp=<param>")
        owner = self.world.find_user_by_username(found["bot"])
        bot = self.world.bots.get(owner.id) if owner is not None else None
        if bot is None:
            raise Refused(404, f"no bot @{found['bot']}")
        url = bot.web_apps.get(found["app"])
        if url is None:
            raise Refused(404, f"@{found['bot']} has no Mini App {found['app']!r}")
        chat = self.people.chat_of(user, opening.chat_id) if opening.chat_id is not None else None
        if chat is None or (chat.is_private and chat.bot_id == bot.id):
            chat_type = "sender"
        else:
            chat_type = chat.type
        extra = {"chat_type": chat_type, "start_param": found["param"] or None}
        return bot, chat, url, extra

    # ------------------------------------------------------------------ sendData

    def send_data(self, user_id: int, launch_id: str, data: str) -> Message:
        """``Telegram.WebApp.sendData`` from an app opened by a keyboard button: the bot gets
        a ``web_app_data`` service message from the user, and the app closes (once)."""
        user = self.people.user(user_id)
        launch = self.world.web_app_launches.get(launch_id)
        if launch is None or launch.user_id != user.id:
            raise Refused(404, f"no Mini App {launch_id} of this user")
        if launch.way != "keyboard_button":
            raise Refused(409, "only a Mini App opened by a keyboard button sends data")
        if launch.data_sent:
            raise Refused(409, "the Mini App has sent its data and closed")
        if not 1 <= len(data.encode()) <= MAX_WEB_APP_DATA:
            raise Refused(400, "data has 1-4096 bytes")
        bot = self.world.bots[launch.bot_id]
        launch.data_sent = True
        chat = self.world.private_chat(bot, user)
        return self.world.user_message(
            user,
            chat,
            None,
            extra={"web_app_data": {"data": data, "button_text": launch.button_text or ""}},
        )

    def register(self, token: str, short_name: str, url: str) -> None:
        """@BotFather's /newapp: the bot's Mini App ``short_name`` at ``url``."""
        bot = self.people.bot_by_token(token)
        if not re.fullmatch(r"[A-Za-z0-9_]{3,64}", short_name):
            raise Refused(400, "a short name has 3-64 letters, digits and underscores")
        if not re.match(r"^https?://[^\s/]+", url):
            raise Refused(400, "a Mini App's URL is http(s)://...")
        bot.web_apps[short_name] = url
