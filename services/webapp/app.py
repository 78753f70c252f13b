"""The Mini App service: the page, its live table stream and its moves.

- ``GET /`` and ``/static/…`` — the page (static files; nothing is fetched elsewhere).
- ``POST /v1/games/{game_id}/tickets`` (``Authorization: tma <initData>``) — a stream
  ticket: the person's pass to open that game's stream, once, within minutes
  (``tickets.py``), so no initData rides in a URL.
- ``GET /v1/games/{game_id}/stream?ticket=…`` — server-sent events: one ``table`` event
  per version the viewer has not seen (``id:`` the game's version), each the viewer's own
  view from the engine and the events since. A reconnect resumes after the version in
  ``Last-Event-ID`` (the browser's ``EventSource`` sends it) or ``?since=`` (the page's
  own reconnect, with a new ticket). A person and a game hold a bounded number of streams
  at once, on every replica together (``stream_leases.py``).
- ``POST /v1/games/{game_id}/moves`` (``Authorization: tma <initData>``, body
  ``{"action", "version"}``) — a move, sent to the engine under the chat's action id.
- ``GET /v1/me/games`` (``Authorization: tma <initData>``) — the launching person's current
  games (the live games they hold a seat in, from the engine's per-person list): what the
  page shows when opened from the bot's menu button, with no game in its start parameter.
- ``GET /healthz``, ``/readyz`` — probes. Prometheus's ``/metrics`` is served on a port of
  its own (``__main__.py``), never on this public one; the API's description
  (``/openapi.json``) only in development mode.

Every request is the person their ``initData`` proves (the stream: the person its ticket
was issued to), in a chat Telegram says they are in; only a seated player gets a hand and
may move, and only their own seat's; one the engine holds out of the game (kicked, gone
from the group) neither, whatever this replica's cached membership says: a kicked player
watches as a spectator, one gone from the group is shown why and the stream ends
(``event: removed``).
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import httpx
import orjson
from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy import Engine
from starlette.background import BackgroundTask
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.config import Settings, get_settings
from services.engine.client import (
    Conflict,
    EngineClient,
    EngineError,
    Forbidden,
    GameInfo,
    IllegalAction,
    NotFound,
    SeatInfo,
    StaleVersion,
)
from services.engine.game_export import Divergence
from services.heap import collect_less_often, freeze_startup_heap
from services.http_limits import BodyLimit
from services.move_ids import action_id, is_game_id
from services.presentation.screens.mini_app import (
    already_caught,
    games_list_words,
    invite_query,
    invite_share_link,
    rating_change_line,
)
from services.presentation.screens.names import variant_name
from services.presentation.screens.page import page_words
from services.presentation.screens.people import person
from services.presentation.screens.refusals import (
    game_is_over,
    move_refused,
    not_answering,
    not_in_games_group,
    only_host_or_admin,
    seat_refused,
)
from services.presentation.screens.rematch import vote_open, vote_refused
from services.presentation.screens.replay import replay_refusal
from services.records import queries
from services.records.database import make_engine
from services.webapp.app_link import AppLink
from services.webapp.flood import FloodLimit
from services.webapp.init_data import InvalidInitData, WebAppUser, validate
from services.webapp.log_follower import LogFollower, Watch
from services.webapp.membership import ChatMembers, MembershipUnknown
from services.webapp.metrics import CONNECTIONS, MOVES, PUSH_LAG, PUSHES, REFUSED
from services.webapp.replays import replay_payload, verdict
from services.webapp.stream_leases import Lease, StreamLeases, TooManyStreams
from services.webapp.tables import Tables
from services.webapp.tickets import BadTicket, StreamTickets
from services.webapp.words import RTL, out_of_game_words, viewer_language, with_moves

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
#: A comment line this often keeps proxies from closing an idle stream and finds a gone viewer.
KEEPALIVE_SECONDS = 15.0
#: What a viewer opening the table first sees of the log: the last few writes' events.
FIRST_LOOK_VERSIONS = 6
#: Finished games' replays a replica keeps, per language, newest last.
KEPT_REPLAYS = 32
#: The largest request body read: a move is some 40 bytes, and nothing else has a body.
MAX_BODY_BYTES = 16 * 1024
#: [decision] Who may show the page in a frame: Telegram's web clients, Web K and Web A,
#: served from web.telegram.org (/k/, /a/) and from the hosts they had of their own before
#: (webk., webz., weba.telegram.org). The other clients open it in a web view of their own,
#: with no page around it. In development mode the local Telegram's page too, on any port
#: of this machine (make play's playground).
TELEGRAM_WEB_CLIENTS = (
    "https://web.telegram.org",
    "https://webk.telegram.org",
    "https://webz.telegram.org",
    "https://weba.telegram.org",
)
PLAYGROUND_ORIGINS = ("http://127.0.0.1:*", "http://localhost:*")


def security_headers(dev_mode: bool) -> dict[str, str]:
    """The page's own files only (no script, style or connection elsewhere), in a frame of
    Telegram's web clients only."""
    ancestors = " ".join(TELEGRAM_WEB_CLIENTS + (PLAYGROUND_ORIGINS if dev_mode else ()))
    return {
        # images also from t.me: initData's photo_url, the viewer's own avatar on the table
        "Content-Security-Policy": "default-src 'self'; img-src 'self' data: https://t.me; "
        f"style-src 'self' 'unsafe-inline'; frame-ancestors {ancestors}",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


class Refused(Exception):
    """A request answered with ``status`` and ``{"error": code, "message": …}``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


class LeftTheChat(Exception):
    """The viewer is no longer in the game's chat: no more tables. ``reason``:
    ``left_group``, the engine holds the player out of the game for it; ``not_in_chat``,
    Telegram says a spectator is no longer a member."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Move(BaseModel):
    """A move as the page sends it: the engine's action code and the version it saw. The
    person is the one the initData proves: no user id is taken from the body."""

    model_config = ConfigDict(extra="forbid")
    action: str = Field(pattern=r"^[a-z]{1,5}(\.[A-Za-z0-9+]{1,8})?$")
    version: int = Field(ge=0, le=10**15)


class LobbyAction(BaseModel):
    """A lobby word as the page sends it: join, leave, add an AI (at ``level``) or start.
    The person is the one the initData proves."""

    model_config = ConfigDict(extra="forbid")
    action: Literal["join", "leave", "ai", "start"]
    level: Literal["strong", "random", "hard"] = "strong"


class RematchVote(BaseModel):
    """A vote for (or against) playing the finished game again, the same seats."""

    model_config = ConfigDict(extra="forbid")
    vote: bool


@dataclass(slots=True)
class Viewer:
    """A person checked into a game's chat; ``seated`` is learnt from the engine's views
    (``None`` until the first one); ``locale``: the language the bot speaks to them."""

    user: WebAppUser
    game_id: str
    seated: bool | None = None
    locale: str = "en"


@dataclass
class WebApp:
    settings: Settings
    engine: EngineClient
    redis: Redis
    follower: LogFollower
    tables: Tables
    members: ChatMembers
    moves: FloodLimit
    opens: FloodLimit
    tickets: StreamTickets
    leases: StreamLeases
    bot_token: str
    app_link: AppLink
    #: The records, read for the replay of a game the engine no longer holds (None: not read).
    records: Engine | None = None
    _chats: dict[str, int] = field(default_factory=dict)
    _replays: dict[tuple[str, str], bytes] = field(default_factory=dict)

    def authenticate(self, init_data: str) -> WebAppUser:
        """The person a valid initData proves; 401 for any other."""
        try:
            return validate(
                init_data,
                self.bot_token,
                max_age=self.settings.webapp_init_data_seconds,
                now=time.time(),
            )
        except InvalidInitData as bad:
            raise Refused(401, "bad_init_data", f"initData refused: {bad.reason}") from None

    async def viewer(self, game_id: str, user: WebAppUser) -> Viewer:
        """``user`` at ``game_id``, checked: a game that exists, in a chat they are in."""
        try:
            chat_id = await self.chat_of(game_id)
        except NotFound:
            raise Refused(404, "no_game", "no such game") from None
        try:
            member = await self.members.is_member(chat_id, user.id)
        except MembershipUnknown:
            raise Refused(503, "telegram_unavailable", "cannot ask Telegram now") from None
        if not member:
            raise Refused(403, "not_in_chat", "this game's chat is not yours")
        return Viewer(user, game_id)

    async def chat_of(self, game_id: str) -> int:
        """The game's chat, which never changes: asked of the engine once per replica."""
        chat_id = self._chats.get(game_id)
        if chat_id is None:
            if not is_game_id(game_id):
                raise NotFound(404, "no_game", "no such game", {})
            chat_id = (await self.engine.game(game_id)).chat_id
            if len(self._chats) > 100_000:
                self._chats.clear()
            self._chats[game_id] = chat_id
        return chat_id

    async def stream_ticket(self, game_id: str, init_data: str) -> dict[str, Any]:
        """A ticket for the person the initData proves to open ``game_id``'s stream: one who
        may watch it, with a place free for one more stream (taken when it opens)."""
        user = self.authenticate(init_data)
        await self.flood_check("open", user.id)
        await self.viewer(game_id, user)
        try:
            await self.leases.check(user.id, game_id)
        except TooManyStreams as full:
            raise too_many_streams(full) from None
        ticket = await self.tickets.issue(user, game_id)
        return {"ticket": ticket, "expires_in": self.tickets.seconds}

    async def redeem(self, ticket: str, game_id: str) -> WebAppUser:
        """The person a stream ticket for ``game_id`` was issued to, the ticket spent; 401
        for any other ticket."""
        try:
            return await self.tickets.redeem(ticket, game_id)
        except BadTicket as bad:
            raise Refused(401, "bad_ticket", f"stream ticket refused: {bad.reason}") from None

    async def take_place(self, user_id: int, game_id: str) -> Lease:
        try:
            return await self.leases.take(user_id, game_id)
        except TooManyStreams as full:
            raise too_many_streams(full) from None

    async def flood_check(self, kind: str, user_id: int) -> None:
        # [decision] A lobby word or a vote is held like a move: a flood of presses.
        limit = self.opens if kind == "open" else self.moves
        wait = await limit.wait_ms(kind, user_id)
        if wait:
            raise Refused(429, "slow_down", "too many at once", retry_after_ms=wait)

    async def table(
        self, viewer: Viewer, since: int | None, at_least: int | None, watch: Watch | None
    ) -> tuple[int, bytes]:
        """The viewer's table at ``at_least`` or later (None: now) as one ``table`` event:
        their view (a hand only for their own seat) and the events after version ``since``
        (the last few when ``None``). The events come from ``watch`` (what the log brought
        since) when it has them all, else from the engine."""
        game_id, user_id = viewer.game_id, viewer.user.id
        shown = await self.tables.shown(game_id, user_id, at_least)
        if shown.removed == "left_group":
            # Gone from the chat, which this replica's cached answer may not know yet.
            self.members.forget(await self.chat_of(game_id), user_id)
            raise LeftTheChat("left_group")
        viewer.seated = shown.seat is not None
        version = shown.version
        events = watch.take(since, version) if watch is not None and since is not None else None
        if events is None:
            after = (
                f"{since}-99999"
                if since is not None
                else f"{max(0, version - FIRST_LOOK_VERSIONS)}-0"
            )
            async with self.tables.slots:
                page = await self.engine.events(
                    game_id,
                    after=after,
                    user_id=user_id if viewer.seated else None,
                    limit=100,
                )
            events = [e.model_dump(mode="json") for e in page.events]
        table = {
            "version": version,
            "me": user_id,
            "seat": shown.seat,
            "game": shown.game,
            "view": shown.view,
            "events": events,
            "words": with_moves(shown.words(viewer.locale), viewer.locale, shown.at.game, events),
            # The turn's deadline and this server's time as the table leaves, both in unix
            # milliseconds: the page counts down by its own clock corrected by the offset.
            "deadline": None if shown.at.turn_due is None else round(shown.at.turn_due * 1000),
            "now": round(time.time() * 1000),
            # What the chat's table shows of the round's commitment (its seed stays hidden).
            "commitment_fingerprint": shown.commitment_fingerprint,
        }
        if shown.at.game.status == "lobby":
            # Start and Add AI are shown to whoever the engine would let do them: the host,
            # or an admin of the game's chat (Telegram's word, cached as membership is).
            table["may_start"] = await self.may_host(shown.at.game, user_id)
            table["invite"] = invite_query(game_id)  # what the Invite shares (the bot answers it)
            # ... and where it goes if the client refuses the app inline mode
            link = await self.app_link.direct_link()
            if link is not None:
                table["share"] = invite_share_link(viewer.locale, link, shown.at.game)
        elif shown.at.game.status == "over":
            # Rematch and Leave while the vote is open, as the chat's final message offers them
            table["vote_open"] = vote_open(shown.at.game)
        if shown.removed is not None:  # kicked: they watch as a spectator, and are told why
            table["removed"] = {
                "reason": shown.removed,
                "words": out_of_game_words(viewer.locale, shown.removed),
            }
        return version, b"id: %d\nevent: table\ndata: %s\n\n" % (version, orjson.dumps(table))

    async def may_host(self, game: GameInfo, user_id: int) -> bool:
        """Whether the person may do what the host may: the host, or a chat admin."""
        if user_id == game.host:
            return True
        try:
            return await self.members.is_admin(game.chat_id, user_id)
        except MembershipUnknown:
            return False

    async def acting(self, game_id: str, init_data: str) -> tuple[WebAppUser, str, int]:
        """The person a lobby word or a vote comes from, their language and the game's chat:
        flood held, in the game's chat; refusals carry the chat's words for why."""
        user = self.authenticate(init_data)
        await self.flood_check("lobby", user.id)
        locale = await viewer_language(self.redis, user.id, user.language_code)
        try:
            await self.viewer(game_id, user)
        except Refused as refused:
            said = {
                "no_game": game_is_over(locale),
                "not_in_chat": not_in_games_group(locale),
                "telegram_unavailable": not_answering(locale),
            }.get(refused.code)
            if said is not None:
                refused.extra["words"] = said
            raise
        return user, locale, await self.chat_of(game_id)

    async def lobby_word(self, game_id: str, init_data: str, word: LobbyAction) -> dict[str, Any]:
        """Join, leave, add an AI or start, through the engine's lobby routes as the chat's
        buttons do: the engine judges who may (kicked: 403 ``seat_removed``; started: 409);
        this service vouches only for what it can see, membership of the chat and whether
        the person is one of its admins (asked only when the engine refuses a non-host)."""
        user, locale, chat_id = await self.acting(game_id, init_data)
        engine = self.engine

        async def as_host(admin: bool) -> GameInfo:
            if word.action == "ai":
                return await engine.add_ai(game_id, user.id, level=word.level, admin=admin)
            return await engine.start(game_id, user.id, admin=admin)

        try:
            if word.action == "join":
                info = await engine.join(game_id, user.id, user.first_name[:64] or str(user.id))
            elif word.action == "leave":
                info = await engine.leave(game_id, user.id)
            else:
                try:
                    info = await as_host(False)
                except Forbidden as refused:
                    if refused.removed is not None:
                        raise
                    try:
                        admin = await self.members.is_admin(chat_id, user.id)
                    except MembershipUnknown:
                        admin = False
                    if not admin:
                        raise Refused(
                            403, "not_host", "host or admin only", words=only_host_or_admin(locale)
                        ) from None
                    info = await as_host(True)
        except EngineError as e:
            raise engine_refusal(e, seat_refused(locale, e)) from None
        return {"version": info.version, "status": info.status}

    async def rematch(self, game_id: str, init_data: str, vote: RematchVote) -> dict[str, Any]:
        """A vote for a rematch of a finished game, the engine's to count and judge."""
        user, locale, _ = await self.acting(game_id, init_data)
        try:
            info = await self.engine.rematch(game_id, user.id, vote.vote)
        except EngineError as e:
            raise engine_refusal(e, vote_refused(locale, e)) from None
        # the votes so far come with the game's facts (``rematch``), the stream's too
        return {"version": info.version, "rematch": getattr(info, "rematch", None)}

    async def rating_changes(self, game_id: str, init_data: str) -> dict[str, Any]:
        """How much a finished game moved each seat's player's rating, from the records
        (written once the game's end reaches them: ``lines`` is empty until then); judged
        as the table's requests. 404 ``no_records`` where this replica reads no records."""
        user = self.authenticate(init_data)
        await self.flood_check("open", user.id)
        await self.viewer(game_id, user)
        if self.records is None:
            raise Refused(404, "no_records", "this replica reads no records")
        changes = await asyncio.to_thread(queries.rating_changes, self.records, game_id)
        locale = await viewer_language(self.redis, user.id, user.language_code)
        game = await self.engine.game(game_id) if changes else None
        lines = []
        for seat, change in sorted(changes.items()):
            if game is None or seat >= len(game.seats):
                continue
            name = person(game.seats[seat]).plain
            lines.append(
                {"seat": seat, "change": change, "text": rating_change_line(locale, name, change)}
            )
        return {"lines": lines}

    async def check_still_in_chat(self, viewer: Viewer) -> None:
        """Raise ``LeftTheChat`` when a viewer without a seat is no longer in the game's chat.

        [decision] A player's standing is the engine's to say (its views, above); whether a
        spectator may go on watching is Telegram's, asked again once this replica's answer
        is older than ``UNO_WEBAPP_MEMBER_CACHE_SECONDS``, and only before a new table is
        sent: a spectator of a game in play costs one getChatMember per cache period, of an
        idle one none.
        Telegram not answering ends no stream: it is asked again at the next write."""
        if viewer.seated is not False:
            return
        try:
            member = await self.members.is_member(
                await self.chat_of(viewer.game_id), viewer.user.id
            )
        except MembershipUnknown:
            return
        if not member:
            raise LeftTheChat("not_in_chat")

    async def stream(self, viewer: Viewer, since: int | None) -> AsyncIterator[bytes]:
        watch = self.follower.watch(viewer.game_id)
        CONNECTIONS.inc()
        woken = time.perf_counter()
        live: Watch | None = None  # from the first table on, events come from the log
        at_least: int | None = None  # the first table: as the engine has it now
        try:
            yield b"retry: 1000\n\n"
            while True:
                watch.changed.clear()
                try:
                    version, frame = await self.table(viewer, since, at_least, live)
                    live = watch
                    if version != since:
                        await self.check_still_in_chat(viewer)
                except NotFound:
                    yield b"event: gone\ndata: {}\n\n"
                    return
                except LeftTheChat as left:
                    # The stream ends with why; the page stops reconnecting.
                    words = out_of_game_words(viewer.locale, left.reason)
                    body = orjson.dumps({"reason": left.reason, "words": words})
                    yield b"event: removed\ndata: %s\n\n" % body
                    return
                if version != since:
                    since = version
                    yield frame
                    PUSHES.inc()
                    PUSH_LAG.observe(time.perf_counter() - woken)
                # [decision] A connection keeps no frame of its own between moves: with
                # thousands waiting, each one's last table would be most of its memory.
                frame = b""
                try:
                    async with asyncio.timeout(KEEPALIVE_SECONDS):  # no task per wait
                        await watch.changed.wait()
                except TimeoutError:
                    yield b": keep-alive\n\n"
                at_least = max(watch.latest, since)
                woken = time.perf_counter()
        except (EngineError, httpx.HTTPError):
            log.warning("the engine failed a table stream; the viewer reconnects")
        finally:
            if self.follower.unwatch(watch):
                self.tables.forget(viewer.game_id)
            CONNECTIONS.dec()

    async def caught_first(self, game_id: str, user: WebAppUser, since: int, target: int) -> None:
        """A Catch! that came after someone else caught the same player (the game moved on
        with that catch): refused 409 ``already_caught``, saying so in the person's words."""
        async with self.tables.slots:
            page = await self.engine.events(game_id, after=f"{since}-99999", limit=100)
        caught = any(
            e.event.get("type") == "caught" and e.event.get("target") == target for e in page.events
        )
        if not caught:
            return
        game = await self.engine.game(game_id)
        locale = await viewer_language(self.redis, user.id, user.language_code)
        name = person(game.seats[target]) if 0 <= target < len(game.seats) else "?"
        raise Refused(
            409,
            "already_caught",
            "that player was already caught",
            current_version=game.version,
            say=already_caught(locale, name).plain,
        )

    async def my_games(self, init_data: str) -> dict[str, Any]:
        """The person's current games, each with what the list shows of it (no cards), and
        the list's words in the language the bot speaks to them."""
        user = self.authenticate(init_data)
        await self.flood_check("open", user.id)
        games = await self.engine.user_games(user.id)
        locale = await viewer_language(self.redis, user.id, user.language_code)
        return {
            "me": user.id,
            "words": {"lang": locale, "dir": "rtl" if locale in RTL else "ltr"}
            | games_list_words(locale),
            "games": [
                {
                    "game_id": g.game_id,
                    "status": g.status,
                    "variant": g.variant,
                    "variant_name": variant_name(locale, g.variant),
                    "version": g.version,
                    "players": [s.name for s in g.seats if not s.left],
                }
                for g in games
            ],
        }

    async def finished_game(
        self, game_id: str, init_data: str
    ) -> tuple[dict[str, Any], GameInfo, str]:
        """A finished game's export, its facts and the person's language, for its replay:
        the person the initData proves, in the game's chat now. A game still in its lobby or
        played is refused 409 ``game_in_progress`` (its hidden cards and the seed of the
        round in play stay hidden: the engine gives no export of it), an unknown, expired or
        malformed id 404, a chat not theirs 403; each refusal says why in their words and
        nothing more. A game the engine no longer holds comes from the records' archive,
        where they are read (``webapp_replay_archive``)."""
        user = self.authenticate(init_data)
        await self.flood_check("open", user.id)
        locale = await viewer_language(self.redis, user.id, user.language_code)
        try:
            try:
                await self.viewer(game_id, user)
                export = await self.engine.export(game_id)
                game = await self.engine.game(game_id)
            except Conflict as refused:
                raise Refused(409, refused.error, "there is no replay of this game now") from None
            except NotFound:
                raise Refused(404, "no_game", "no such game") from None
            except Refused as refused:
                if refused.code != "no_game":
                    raise
                export, game = await self.archived(game_id, user)
        except Refused as refused:
            refused.extra["words"] = replay_refusal(locale, refused.code)
            raise
        return export, game, locale

    async def archived(self, game_id: str, user: WebAppUser) -> tuple[dict[str, Any], GameInfo]:
        """An archived game's export and facts, for a member of its chat; 404 when the
        records are not read here or hold no such game."""
        if self.records is None or not is_game_id(game_id):
            raise Refused(404, "no_game", "no such game")
        found = await asyncio.to_thread(queries.archived_game, self.records, game_id)
        export = await asyncio.to_thread(queries.game_export, self.records, game_id)
        if found is None or export is None:
            raise Refused(404, "no_game", "no such game")
        try:
            member = await self.members.is_member(found.chat_id, user.id)
        except MembershipUnknown:
            raise Refused(503, "telegram_unavailable", "cannot ask Telegram now") from None
        if not member:
            raise Refused(403, "not_in_chat", "this game's chat is not yours")
        return export, archived_info(found, export)

    async def replay(self, game_id: str, init_data: str) -> bytes:
        """The replay of a finished game (``replays.replay_payload``): every position and
        every hand, as gzip-compressed JSON. Kept for the last few games and languages asked
        (``KEPT_REPLAYS``): the players of a game that just ended open it together, and a
        finished game never changes."""
        export, game, locale = await self.finished_game(game_id, init_data)
        key = (game_id, locale)
        kept = self._replays.pop(key, None)
        if kept is None:
            # A few milliseconds a move: in a thread, so the live tables are served meanwhile.
            try:
                kept = await asyncio.to_thread(_compressed_replay, export, game, locale)
            except Divergence:
                # The engine's own export does not replay: a record the rules no longer read.
                log.exception("a finished game's export does not replay")
                words = replay_refusal(locale, "not_replayable")
                refusal = Refused(409, "not_replayable", "no replay of this game", words=words)
                raise refusal from None

        self._replays[key] = kept
        while len(self._replays) > KEPT_REPLAYS:
            self._replays.pop(next(iter(self._replays)))
        return kept

    async def replay_verdict(self, game_id: str, init_data: str) -> dict[str, Any]:
        """The check of the game's export, round by round (``replays.verdict``)."""
        export, _, locale = await self.finished_game(game_id, init_data)
        return await asyncio.to_thread(verdict, export, locale)

    async def page_words(self, init_data: str) -> dict[str, Any]:
        """What the page says of its own (``words.page_words``), in the language the bot
        speaks to the person its initData proves."""
        user = self.authenticate(init_data)
        return page_words(await viewer_language(self.redis, user.id, user.language_code))

    async def move(self, game_id: str, init_data: str, move: Move) -> dict[str, Any]:
        user = self.authenticate(init_data)
        await self.flood_check("move", user.id)
        await self.viewer(game_id, user)
        code = move.action
        try:
            result = await self.engine.act(
                game_id,
                user.id,
                code,
                version=move.version,
                action_id=action_id(user.id, move.version, code),
            )
        except StaleVersion as stale:
            MOVES.labels("stale").inc()
            if code.startswith("x."):
                await self.caught_first(game_id, user, move.version, int(code[2:]))
            raise Refused(
                409, "stale_version", "the game moved on", current_version=stale.current_version
            ) from None
        except IllegalAction as illegal:
            MOVES.labels("illegal").inc()
            # why, as the chat says it to a press the rules refuse, in the person's language
            locale = await viewer_language(self.redis, user.id, user.language_code)
            raise Refused(
                422,
                "illegal",
                "the rules refuse that",
                reason=illegal.reason,
                say=move_refused(locale, illegal),
            ) from None
        except Forbidden as refused:
            if refused.removed is None:
                raise Refused(403, "not_seated", "you have no seat in this game") from None
            # Kicked, or gone from the chat: the engine's word, whatever this replica's
            # cached membership says; told in the person's language.
            MOVES.labels("removed").inc()
            locale = await viewer_language(self.redis, user.id, user.language_code)
            raise Refused(
                403,
                "removed",
                "you are out of this game",
                reason=refused.removed,
                words=out_of_game_words(locale, refused.removed),
            ) from None
        MOVES.labels("duplicate" if result.duplicate else "applied").inc()
        return {"version": result.version, "duplicate": result.duplicate}


def _compressed_replay(export: dict[str, Any], game: GameInfo, locale: str) -> bytes:
    """The replay's JSON, gzip-compressed: some 150 KB for a 100-move game shrinks about
    twentyfold, most of it the same words and card codes over and over."""
    return gzip.compress(orjson.dumps(replay_payload(export, game, locale)), compresslevel=6)


def archived_info(found: queries.ArchivedGame, export: dict[str, Any]) -> GameInfo:
    """The facts of an archived game as the screens read them (the engine's ``GameInfo``)."""
    names = [n or f"#{i + 1}" for i, n in enumerate(found.names)]
    seats = [
        SeatInfo(
            seat=i,
            name=names[i] if i < len(names) else f"#{i + 1}",
            user_id=found.user_ids[i] if i < len(found.user_ids) else None,
            ai=s.get("ai"),
        )
        for i, s in enumerate(export["seats"])
    ]
    return GameInfo(
        game_id=found.game_id,
        version=0,
        status="ended" if found.status == "ended" else "over",
        chat_id=found.chat_id,
        topic_id=found.topic_id,
        host=0,
        variant=found.variant,
        turn_seconds=0,
        rules=export["options"],
        seats=seats,
        winner=export.get("winner"),
    )


def engine_refusal(e: EngineError, words: str) -> Refused:
    """The engine's refusal of a lobby word or a vote as this service answers it: the
    engine's status and code, with ``words`` saying why in the person's language."""
    status = e.status if 400 <= e.status < 500 else 503
    extra: dict[str, Any] = {"words": words}
    if isinstance(e, Forbidden) and e.removed is not None:
        extra["reason"] = e.removed
    return Refused(status, e.error, e.message, **extra)


def too_many_streams(full: TooManyStreams) -> Refused:
    whose = "you hold" if full.limit == "person" else "this game has"
    return Refused(
        429,
        "too_many_streams",
        f"{whose} {full.most} table streams open: close one first",
        limit=full.limit,
        most=full.most,
    )


class SecurityHeaders:
    """``headers`` (``security_headers``) on every response. Plain ASGI: Starlette's
    ``BaseHTTPMiddleware`` would relay each open stream through a memory channel and tasks
    of its own."""

    def __init__(self, app: ASGIApp, headers: dict[str, str]) -> None:
        self.app = app
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)


def _init_data_of(authorization: str | None) -> str:
    scheme, _, value = (authorization or "").partition(" ")
    return value if scheme.lower() == "tma" else ""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    if settings.telegram_token is None:
        raise RuntimeError("UNO_TELEGRAM_TOKEN is not set: the Mini App checks initData with it")
    bot_token = settings.telegram_token.get_secret_value()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redis = Redis.from_url(settings.redis_url)
        http = httpx.AsyncClient(timeout=5.0)
        async with EngineClient.from_settings(settings, max_connections=48) as engine:
            follower = LogFollower(redis, settings.event_shards)
            leases = StreamLeases(
                redis,
                per_person=settings.webapp_streams_per_person,
                per_game=settings.webapp_streams_per_game,
                seconds=settings.webapp_stream_lease_seconds,
            )
            app.state.webapp = WebApp(
                settings=settings,
                engine=engine,
                redis=redis,
                follower=follower,
                tables=Tables(engine),
                members=ChatMembers(
                    http,
                    settings.bot_api_url,
                    bot_token,
                    cache_seconds=settings.webapp_member_cache_seconds,
                ),
                moves=FloodLimit(
                    redis, settings.webapp_moves_per_second, settings.webapp_move_burst
                ),
                opens=FloodLimit(redis, 2.0, 10),
                tickets=StreamTickets(redis, settings.webapp_stream_ticket_seconds),
                leases=leases,
                bot_token=bot_token,
                app_link=AppLink(http, settings.bot_api_url, bot_token, settings.webapp_short_name),
                records=make_engine(settings.database_url)
                if settings.webapp_replay_archive
                else None,
            )
            tasks = [
                asyncio.create_task(follower.run(), name="event-log-follower"),
                asyncio.create_task(leases.keep_renewed(), name="stream-lease-renewer"),
            ]
            freeze_startup_heap()
            collect_less_often()
            try:
                yield
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                await http.aclose()
                await redis.aclose()

    app = FastAPI(
        title="UNO Mini App",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        # A map of the API for developers; in production, nothing but what the page uses.
        openapi_url="/openapi.json" if settings.dev_mode else None,
    )

    def service(request: Request) -> WebApp:
        webapp: WebApp = request.app.state.webapp
        return webapp

    @app.exception_handler(Refused)
    async def refused(request: Request, error: Refused) -> JSONResponse:
        REFUSED.labels(error.code).inc()
        body = {"error": error.code, "message": error.message, **error.extra}
        return JSONResponse(body, status_code=error.status)

    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(SecurityHeaders, headers=security_headers(settings.dev_mode))

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(STATIC / "replay.html", headers={"Cache-Control": "no-cache"})

    # The page's files go compressed (Telegram's SDK is 109 KB, 25 KB gzipped); only
    # they: wrapped round the whole app, the compression broke the table stream's chunks.
    app.mount(
        "/static", GZipMiddleware(StaticFiles(directory=STATIC), minimum_size=1024), name="static"
    )

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz")
    async def readyz(request: Request) -> JSONResponse:
        webapp = service(request)
        try:
            redis_ok = bool(await webapp.redis.ping())
        except (RedisError, OSError):
            redis_ok = False
        engine_ok = await webapp.engine.ready()
        ok = redis_ok and engine_ok
        body = {"redis": redis_ok, "engine": engine_ok}
        return JSONResponse(body, status_code=200 if ok else 503)

    @app.post("/v1/games/{game_id}/tickets")
    async def stream_ticket(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        body = await service(request).stream_ticket(game_id, _init_data_of(authorization))
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/v1/games/{game_id}/stream")
    async def stream(
        request: Request,
        game_id: str,
        ticket: str = "",
        since: Annotated[int | None, Query(ge=0, le=10**15)] = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        webapp = service(request)
        user = await webapp.redeem(ticket, game_id)
        viewer = await webapp.viewer(game_id, user)
        viewer.locale = await viewer_language(webapp.redis, user.id, user.language_code)
        if last_event_id and last_event_id.isdigit():
            since = int(last_event_id)
        lease = await webapp.take_place(user.id, game_id)
        # The place is given back once the response is over, however it ends (the viewer
        # gone, the game gone); one whose stream never started lapses with its lease.
        return StreamingResponse(
            webapp.stream(viewer, since),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
            background=BackgroundTask(webapp.leases.release, lease),
        )

    @app.get("/v1/me/games")
    async def my_games(
        request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        body = await service(request).my_games(_init_data_of(authorization))
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/v1/games/{game_id}/replay")
    async def get_replay(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        body = await service(request).replay(game_id, _init_data_of(authorization))
        headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
        else:
            body = gzip.decompress(body)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/v1/games/{game_id}/replay/verdict")
    async def get_replay_verdict(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        body = await service(request).replay_verdict(game_id, _init_data_of(authorization))
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/v1/me/words")
    async def my_words(
        request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        body = await service(request).page_words(_init_data_of(authorization))
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.post("/v1/games/{game_id}/lobby")
    async def post_lobby_word(
        request: Request,
        game_id: str,
        word: LobbyAction,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        return await service(request).lobby_word(game_id, _init_data_of(authorization), word)

    @app.get("/v1/games/{game_id}/ratings")
    async def get_rating_changes(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        body = await service(request).rating_changes(game_id, _init_data_of(authorization))
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.post("/v1/games/{game_id}/rematch")
    async def post_rematch(
        request: Request,
        game_id: str,
        vote: RematchVote,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        return await service(request).rematch(game_id, _init_data_of(authorization), vote)

    @app.post("/v1/games/{game_id}/moves")
    async def post_move(
        request: Request,
        game_id: str,
        move: Move,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        return await service(request).move(game_id, _init_data_of(authorization), move)

    return app
