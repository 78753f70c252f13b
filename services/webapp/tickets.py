"""Stream tickets: a pass for one person to open one game's table stream, once, soon.

The browser's ``EventSource`` sends no headers, so what proves the viewer rides in the
stream's URL, and URLs are what proxies and load balancers write to their access logs.
initData there would leave a credential good for a day (its ``auth_date`` window) for
every request the app takes. So the page trades its initData, in the ``Authorization``
header as its other requests send it, for a ticket before each connect and each
reconnect, and the URL carries the ticket: good for that person and that game only, for
``UNO_WEBAPP_STREAM_TICKET_SECONDS``, and once (reading it deletes it). A logged URL is
spent by the time anyone reads the log.

[decision] Opaque and random, kept in Redis with a TTL, rather than signed: using a ticket
once needs a shared record whatever its form, any replica redeems what another issued,
and nothing about the person travels in the URL.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import orjson
from redis.asyncio import Redis

from services.webapp.init_data import WebAppUser

PREFIX = "webapp:ticket:"
#: 32 random bytes, URL-safe: not guessable, and never more than one ticket's worth of URL.
TICKET_BYTES = 32


class BadTicket(ValueError):
    """A ticket that opens nothing: ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class StreamTickets:
    redis: Redis
    seconds: int

    async def issue(self, user: WebAppUser, game_id: str) -> str:
        """A new ticket for ``user`` to open ``game_id``'s stream."""
        ticket = secrets.token_urlsafe(TICKET_BYTES)
        holder = {
            "game": game_id,
            "id": user.id,
            "first_name": user.first_name,
            "language_code": user.language_code,
            "auth_date": user.auth_date,
        }
        await self.redis.set(PREFIX + ticket, orjson.dumps(holder), ex=self.seconds)
        return ticket

    async def redeem(self, ticket: str, game_id: str) -> WebAppUser:
        """The person ``ticket`` was issued to, the ticket spent; ``BadTicket`` when it is
        unknown (made up, used, or past its life) or for another game."""
        if not ticket or len(ticket) > 2 * TICKET_BYTES:
            raise BadTicket("unknown, used or expired")
        stored = await self.redis.getdel(PREFIX + ticket)
        if stored is None:
            raise BadTicket("unknown, used or expired")
        holder = orjson.loads(stored)
        if holder["game"] != game_id:
            raise BadTicket("issued for another game")
        return WebAppUser(
            id=int(holder["id"]),
            first_name=str(holder["first_name"]),
            language_code=holder["language_code"],
            start_param=None,
            auth_date=int(holder["auth_date"]),
        )
