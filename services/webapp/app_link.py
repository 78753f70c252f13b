"""The bot's direct link to the Mini App (``https://t.me/<bot username>/<short name>``),
what the Invite shares where the client refuses the app inline mode.

[decision] The bot's username from Telegram's own ``getMe``, asked once per replica and then
kept (a bot's username does not change under a running deployment), rather than a setting
of its own that could disagree with the token.
"""

from __future__ import annotations

import httpx


class AppLink:
    def __init__(
        self, http: httpx.AsyncClient, bot_api_url: str, bot_token: str, short_name: str
    ) -> None:
        self._http = http
        self._url = f"{bot_api_url.rstrip('/')}{bot_token}/getMe"
        self._short_name = short_name
        self._link: str | None = None

    async def direct_link(self) -> str | None:
        """The link, or None while Telegram cannot be asked (asked again next time)."""
        if self._link is None:
            try:
                body = (await self._http.post(self._url)).json()
            except (httpx.HTTPError, ValueError):
                return None
            username = (body.get("result") or {}).get("username") if body.get("ok") else None
            if not username:
                return None
            self._link = f"https://t.me/{username}/{self._short_name}"  # as MiniApp's
        return self._link
