"""Mini Apps (Web Apps) as Telegram's clients open them: the launch parameters in the URL
fragment and the ``initData`` signed with the bot's token.

Telegram's "Mini Apps on Telegram" page is the specification. A client opens the app's
URL with ``#tgWebAppData=<initData>&tgWebAppVersion=...&tgWebAppPlatform=...
&tgWebAppThemeParams=<json>`` (and ``tgWebAppStartParam`` from a direct link's
``startapp``). ``initData`` is a query string of ``query_id``, ``user`` (JSON), ``chat_type``,
``chat_instance``, ``start_param``, ``auth_date`` and ``hash``, where ``hash`` is the hex
HMAC-SHA-256 of the data-check-string (every other field as ``key=value``, sorted by key,
joined by ``\\n``) under the key HMAC-SHA-256("WebAppData", bot token). The Ed25519
``signature`` field (for checks without the token, by Telegram's key) is not served: the
local Telegram holds no key of Telegram's, so no signature of its own would verify.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

#: The Bot API version the emulated client reports, and its platform ("weba": Telegram's
#: web client A, a browser like the playground page).
WEB_APP_VERSION = "8.0"
WEB_APP_PLATFORM = "weba"

#: Telegram's web client's light theme (the ThemeParams it passes).
THEME_PARAMS = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#3390ec",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
    "header_bg_color": "#ffffff",
    "accent_text_color": "#3390ec",
    "section_bg_color": "#ffffff",
    "section_header_text_color": "#3390ec",
    "subtitle_text_color": "#707579",
    "destructive_text_color": "#e53935",
}

#: The ways a Mini App opens, as the control API names them.
WAYS = ("inline_button", "keyboard_button", "menu_button", "inline_results_button", "direct_link")


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign(token: str, fields: dict[str, str]) -> str:
    """``initData``: ``fields`` and their ``hash`` as a query string."""
    digest = hmac.new(secret_key(token), data_check_string(fields).encode(), hashlib.sha256)
    return urlencode({**fields, "hash": digest.hexdigest()})


@dataclass
class Launch:
    """One opening of a Mini App: by whom, from where, and what it may still do."""

    id: str
    bot_id: int
    user_id: int
    way: str
    url: str
    chat_id: int | None
    #: keyboard buttons: the button's text, for the ``web_app_data`` message
    button_text: str | None = None
    #: answerWebAppQuery's query id (every way but a keyboard button)
    query_id: str | None = None
    start_param: str | None = None
    answered: bool = False
    data_sent: bool = False
    created: float = 0.0


def init_fields(
    launch: Launch, user: dict[str, Any], *, chat_type: str | None, chat_instance: str | None
) -> dict[str, str]:
    """The fields of ``initData`` for ``launch``, as the client fills them for that way."""
    fields: dict[str, str] = {}
    if launch.query_id is not None:
        fields["query_id"] = launch.query_id
    fields["user"] = json.dumps(user, ensure_ascii=False, separators=(",", ":"))
    if launch.way == "direct_link":
        if chat_type is not None:
            fields["chat_type"] = chat_type
        if chat_instance is not None:
            fields["chat_instance"] = chat_instance
        if launch.start_param:
            fields["start_param"] = launch.start_param
    fields["auth_date"] = str(int(launch.created or time.time()))
    return fields


def launch_url(app_url: str, init_data: str, start_param: str | None) -> str:
    """The app's URL with the launch parameters in its fragment (and ``tgWebAppStartParam``
    in its query too, as Telegram passes it, so a server can route on it)."""
    parts = urlsplit(app_url)
    query = parts.query
    fragment: dict[str, str] = {
        "tgWebAppData": init_data,
        "tgWebAppVersion": WEB_APP_VERSION,
        "tgWebAppPlatform": WEB_APP_PLATFORM,
        "tgWebAppThemeParams": json.dumps(THEME_PARAMS, separators=(",", ":")),
        # as a client passes it for a bot with inline mode, which every bot here has (its
        # getMe's supports_inline_queries): the app may switchInlineQuery
        "tgWebAppBotInline": "1",
    }
    if start_param:
        fragment["tgWebAppStartParam"] = start_param
        query = "&".join(p for p in (query, urlencode({"tgWebAppStartParam": start_param})) if p)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, urlencode(fragment)))
