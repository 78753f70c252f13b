"""``TelegramControl``: the synchronous client of the local Telegram's control API, for
tests, benchmarks and the playground.

Objects come back as plain dicts shaped like Bot API objects. A refused request raises
:class:`ControlError` with the server's status and reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import httpx

T = TypeVar("T")


class ControlError(Exception):
    """The control API refused a request (4xx): ``status`` and ``detail`` say why."""

    def __init__(self, status: int, detail: Any) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class TelegramControl:
    """Acts as users and reads what they see; see playground/README.md."""

    def __init__(self, base_url: str, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(base_url=self.base_url + "/control", timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> TelegramControl:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, method: str, path: str, *, timeout: float | None = None, **kw: Any) -> Any:
        if timeout is not None:
            kw["timeout"] = timeout + 10.0
        response = self._http.request(method, path, **kw)
        if response.status_code >= 400:
            try:
                detail = response.json().get("detail", response.text)
            except ValueError:
                detail = response.text
            raise ControlError(response.status_code, detail)
        return response.json()

    # ------------------------------------------------------------------ set-up

    def create_bot(
        self,
        username: str = "uno_test_bot",
        first_name: str = "UNO",
        *,
        inline_feedback: bool = True,
        privacy_mode: bool = True,
        token: str | None = None,
    ) -> dict[str, Any]:
        """A new bot: ``{"token", "user"}``; ``token`` (``<id>:<secret>``) fixes its token."""
        body = {
            "username": username,
            "first_name": first_name,
            "inline_feedback": inline_feedback,
            "privacy_mode": privacy_mode,
            "token": token,
        }
        result: dict[str, Any] = self._request("POST", "/bots", json=body)
        return result

    def create_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "en",
    ) -> dict[str, Any]:
        """A new user (a Bot API ``User``)."""
        body = {
            "first_name": first_name,
            "username": username,
            "last_name": last_name,
            "language_code": language_code,
        }
        result: dict[str, Any] = self._request("POST", "/users", json=body)
        return result

    def create_group(
        self,
        title: str,
        members: list[int],
        *,
        admins: Iterable[int] = (),
        supergroup: bool = True,
        forum: bool = False,
        bots: Iterable[str] = (),
    ) -> dict[str, Any]:
        """A new group with ``members``; the first of ``admins`` (else of ``members``) owns
        it, the other ``admins`` administer it (a bot's user id there makes the bot an admin);
        ``bots`` (tokens) join it. Returns the ``Chat``."""
        body = {
            "title": title,
            "members": list(members),
            "admins": list(admins),
            "supergroup": supergroup,
            "forum": forum,
            "bots": list(bots),
        }
        result: dict[str, Any] = self._request("POST", "/groups", json=body)
        return result

    def create_topic(self, chat_id: int, name: str) -> int:
        """A new forum topic; its ``message_thread_id``."""
        result = self._request("POST", f"/chats/{chat_id}/topics", json={"name": name})
        return int(result["message_thread_id"])

    def upgrade_group(self, chat_id: int) -> dict[str, Any]:
        """A basic group becomes a supergroup (the new ``Chat``); the bot's calls with the
        old id get 400 with ``parameters.migrate_to_chat_id``."""
        result: dict[str, Any] = self._request("POST", f"/chats/{chat_id}/upgrade")
        return result

    def add_member(self, chat_id: int, user_id: int) -> None:
        self._request("POST", f"/chats/{chat_id}/members", json={"user_id": user_id})

    def set_admin(self, chat_id: int, user_id: int, admin: bool = True) -> None:
        """The owner promotes a member (user or bot, by user id) to administrator, or demotes
        them with ``admin=False``."""
        method = "PUT" if admin else "DELETE"
        self._request(method, f"/chats/{chat_id}/admins/{user_id}")

    def remove_member(self, chat_id: int, user_id: int) -> None:
        self._request("DELETE", f"/chats/{chat_id}/members/{user_id}")

    def start_bot(self, user_id: int, token: str) -> dict[str, Any]:
        """The user sends /start in the bot's private chat; the ``Message``."""
        result: dict[str, Any] = self._request(
            "POST", f"/users/{user_id}/start", json={"token": token}
        )
        return result

    def block_bot(self, user_id: int, token: str) -> None:
        """The user blocks the bot: its private messages to them get 403 until /start."""
        self._request("POST", f"/users/{user_id}/block", json={"token": token})

    def unblock_bot(self, user_id: int, token: str) -> None:
        """The user unblocks the bot without /start: it may message them again."""
        self._request("POST", f"/users/{user_id}/unblock", json={"token": token})

    # ------------------------------------------------------------------ acting as users

    def send_message(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> dict[str, Any]:
        """The user posts ``text`` in ``chat_id`` (a group, or a bot's user id for the private
        chat with that bot); the ``Message``."""
        body = {
            "user_id": user_id,
            "chat_id": chat_id,
            "text": text,
            "thread_id": thread_id,
            "reply_to": reply_to,
        }
        result: dict[str, Any] = self._request("POST", "/messages", json=body)
        return result

    def edit_message(
        self, user_id: int, chat_id: int, message_id: int, text: str
    ) -> dict[str, Any]:
        """The user edits their own message (bots that saw it get ``edited_message``)."""
        body = {"user_id": user_id, "chat_id": chat_id, "message_id": message_id, "text": text}
        result: dict[str, Any] = self._request("POST", "/edits", json=body)
        return result

    def press_button(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        callback_data: str,
        *,
        timeout: float = 10.0,
        forged: bool = False,
    ) -> dict[str, Any]:
        """The user presses the inline button with ``callback_data``; waits for the bot's
        answerCallbackQuery: ``{"answered", "text", "show_alert", "url"}``. ``forged``: a
        modified client sends ``callback_data`` for the message whether or not it shows
        such a button (an old version's data, or made-up data)."""
        body = {
            "user_id": user_id,
            "chat_id": chat_id,
            "message_id": message_id,
            "callback_data": callback_data,
            "timeout": timeout,
            "forged": forged,
        }
        result: dict[str, Any] = self._request("POST", "/presses", json=body, timeout=timeout)
        return result

    def inline_query(
        self,
        user_id: int,
        query: str,
        *,
        chat_id: int | None = None,
        offset: str = "",
        timeout: float = 10.0,
        bot: str | None = None,
    ) -> dict[str, Any]:
        """The user types an inline query (to ``bot``, a token; or to the ``@username`` the
        query starts with; or to the only bot in the chat or the world) and waits for the
        answer: ``{"query_id", "answered", "results", "next_offset", "button",
        "is_personal", "cache_time"}``. A cached answer comes back without asking the bot."""
        body = {
            "user_id": user_id,
            "query": query,
            "chat_id": chat_id,
            "offset": offset,
            "timeout": timeout,
            "bot": bot,
        }
        result: dict[str, Any] = self._request(
            "POST", "/inline_queries", json=body, timeout=timeout
        )
        return result

    def choose_inline_result(
        self,
        user_id: int,
        query_id: str,
        result_id: str,
        *,
        chat_id: int,
        thread_id: int | None = None,
    ) -> dict[str, Any]:
        """The user picks a result: it is posted in ``chat_id`` with ``via_bot``; the bot gets
        ``chosen_inline_result`` when its inline feedback is on. Returns the ``Message``."""
        body = {
            "user_id": user_id,
            "query_id": query_id,
            "result_id": result_id,
            "chat_id": chat_id,
            "thread_id": thread_id,
        }
        result: dict[str, Any] = self._request("POST", "/inline_choices", json=body)
        return result

    # ------------------------------------------------------------------ Mini Apps

    def register_web_app(self, token: str, short_name: str, url: str) -> None:
        """As @BotFather's /newapp: the bot's Mini App ``short_name`` opens ``url``; a direct
        link ``https://t.me/<bot>/<short_name>?startapp=...`` opens it."""
        self._request("PUT", f"/web_apps/{short_name}", json={"token": token, "url": url})

    def open_web_app(
        self,
        user_id: int,
        way: str,
        *,
        chat_id: int | None = None,
        message_id: int | None = None,
        button_text: str | None = None,
        query_id: str | None = None,
        link: str | None = None,
    ) -> dict[str, Any]:
        """The user opens a Mini App ``way`` (``inline_button`` / ``keyboard_button``: the
        message and the button's text; ``menu_button``: ``chat_id`` = the bot's user id;
        ``inline_results_button``: the inline query; ``direct_link``: the link and the chat
        it was pressed in). Returns ``{"launch_id", "way", "url", "init_data", "query_id",
        "bot_id"}``: ``url`` carries the launch parameters in its fragment."""
        body = {
            "user_id": user_id,
            "way": way,
            "chat_id": chat_id,
            "message_id": message_id,
            "button_text": button_text,
            "query_id": query_id,
            "link": link,
        }
        result: dict[str, Any] = self._request("POST", "/web_apps", json=body)
        return result

    def send_web_app_data(self, user_id: int, launch_id: str, data: str) -> dict[str, Any]:
        """``Telegram.WebApp.sendData`` of an app opened by a keyboard button: the bot gets a
        ``web_app_data`` message. Returns the ``Message``."""
        result: dict[str, Any] = self._request(
            "POST", f"/web_apps/{launch_id}/data", json={"user_id": user_id, "data": data}
        )
        return result

    # ------------------------------------------------------------------ reading

    def messages(self, chat_id: int, *, thread_id: int | None = None) -> list[dict[str, Any]]:
        """Every message of a group in order, as it is now, with ``deleted`` and ``history``."""
        params = {} if thread_id is None else {"thread_id": thread_id}
        result: list[dict[str, Any]] = self._request(
            "GET", f"/chats/{chat_id}/messages", params=params
        )
        return result

    def menu_button(self, user_id: int, bot_id: int) -> dict[str, Any]:
        """The menu button the user's private chat with the bot shows (getChatMenuButton's
        answer for that chat: its own, else the bot's default)."""
        result: dict[str, Any] = self._request("GET", f"/private/{user_id}/{bot_id}/menu_button")
        return result

    def private_messages(self, user_id: int, token: str) -> list[dict[str, Any]]:
        """The user's private chat with the bot whose token is ``token``."""
        bot_id = token.split(":", 1)[0]
        result: list[dict[str, Any]] = self._request("GET", f"/private/{user_id}/{bot_id}/messages")
        return result

    def calls(self, *, token: str | None = None, since: int = 0) -> list[dict[str, Any]]:
        """The Bot API calls (of one bot with ``token``) after sequence number ``since``."""
        params: dict[str, Any] = {"since": since}
        if token is not None:
            params["token"] = token
        result: list[dict[str, Any]] = self._request("GET", "/calls", params=params)
        return result

    def set_limits(self, enabled: bool, **numbers: float) -> dict[str, Any]:
        """Telegram's flood limits on or off, and any of their numbers (group_per_minute,
        private_per_second, private_burst, global_per_second)."""
        result: dict[str, Any] = self._request(
            "POST", "/limits", json={"enabled": enabled, **numbers}
        )
        return result

    def reset(self) -> None:
        """Forget every user, chat, bot and log."""
        self._request("POST", "/reset")

    def state(self) -> dict[str, Any]:
        """Users, bots, chats and limits at a glance."""
        result: dict[str, Any] = self._request("GET", "/state")
        return result

    @staticmethod
    def wait_until(predicate: Callable[[], T], timeout: float = 10.0, what: str = "") -> T:
        """Poll ``predicate`` until it returns something truthy, and return that; an
        AssertionError naming ``what`` when ``timeout`` seconds pass first."""
        deadline = time.monotonic() + timeout
        delay = 0.01
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out after {timeout:g} s waiting for {what or predicate}"
                )
            time.sleep(delay)
            delay = min(delay * 1.5, 0.2)
