"""Who is in a game's chat: Telegram's own answer (Bot API ``getChatMember``).

[decision] The Bot API, not the engine or the records: the engine knows only the seats, and
the records know the people who ever played in a chat, not who is in it now; a spectator is
any member of the chat, so only Telegram can say. The bot must be in the chat for the
answer, which it is wherever it runs a game. Each replica trusts an answer for
``cache_seconds`` (a viewer's reconnect and moves do not each cost a call); a replica's
memory, not shared state, since any replica may ask again.
"""

from __future__ import annotations

import time

import httpx

from services.chat_roles import ADMINS, PRESENT


class MembershipUnknown(RuntimeError):
    """Telegram could not be asked (down, or refused the bot): nobody is let in on a guess."""


class ChatMembers:
    def __init__(self, http: httpx.AsyncClient, bot_api_url: str, bot_token: str,
                 *, cache_seconds: float) -> None:  # fmt: skip
        self._http = http
        self._url = f"{bot_api_url.rstrip('/')}{bot_token}/getChatMember"
        self._cache_seconds = cache_seconds
        #: (chat, person) → (when asked, their status; "" not in the chat)
        self._known: dict[tuple[int, int], tuple[float, str]] = {}

    def forget(self, chat_id: int, user_id: int) -> None:
        """The person's standing changed (the engine says they left the chat): ask again."""
        self._known.pop((chat_id, user_id), None)

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        return await self.status(chat_id, user_id) in PRESENT

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether Telegram says the person administers the chat (its creator or an admin)."""
        return await self.status(chat_id, user_id) in ADMINS

    async def status(self, chat_id: int, user_id: int) -> str:
        """The person's status in the chat as Telegram says it ("" when not in it)."""
        key = (chat_id, user_id)
        now = time.monotonic()
        cached = self._known.get(key)
        if cached is not None and now - cached[0] < self._cache_seconds:
            return cached[1]
        try:
            response = await self._http.post(
                self._url, json={"chat_id": chat_id, "user_id": user_id}
            )
            body = response.json()
        except (httpx.HTTPError, ValueError) as error:
            raise MembershipUnknown(str(error)) from error
        status = ""
        if body.get("ok"):
            member = body["result"]
            if member.get("status") in PRESENT and member.get("is_member", True):
                status = str(member["status"])
        elif response.status_code != 400:  # 400: "user not found", "chat not found": not in it
            raise MembershipUnknown(str(body.get("description", response.status_code)))
        if len(self._known) > 50_000:
            self._known.clear()
        self._known[key] = (now, status)
        return status
