"""The typed async client of the engine service: the one way the bot and the worker call it.

Every method sends a request body from ``schemas`` and returns a parsed response model, or
raises an ``EngineError`` subclass named after what went wrong::

    async with EngineClient.from_settings(get_settings()) as engine:
        game = await engine.create_game(chat_id=-100123, user_id=42, name="Ana")
        ...
        try:
            await engine.act(game.game_id, 42, "p.R5", version=7, action_id=callback_id)
        except StaleVersion as e:
            ...  # e.current_version: show the fresh table
        except IllegalAction as e:
            ...  # e.reason: the rules engine's reason code

The pure part a front reads without calling the engine (the views' types, the variants'
facts, the refusals) is ``services.engine.views``. The client imports only that and what
crosses the wire (``services.engine.wire``: the bodies and the event log's layout), never
the service itself, so the bot loads no Redis, FastAPI or game-store code through it.
The bodies it returns and takes are re-exported here: a client needs no other import of the
engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType
from typing import Any, TypeVar

import httpx
import orjson
from pydantic import BaseModel

from services.config import Settings
from services.engine.rules import numbered_events_for
from services.engine.views import (
    DEFAULT_VARIANT,
    TITLE_CONTEXT,
    BadRequest,
    Conflict,
    EngineError,
    EnginePendingView,
    EngineSeatView,
    EngineView,
    Forbidden,
    GameInfo,
    IllegalAction,
    NotFound,
    Options,
    PlayerView,
    RemovalInfo,
    SeatInfo,
    StaleVersion,
    Unauthorized,
    Unavailable,
    UnknownVariant,
    UserGames,
    VariantFacts,
    default_target_score,
    offered_house_rules,
    round_gains,
    variant_facts,
    variant_names,
)
from services.engine.wire.deadline_keys import NUDGES_KEY
from services.engine.wire.event_log import decode_entry, log_key, log_keys, shard_of
from services.engine.wire.schemas import (
    RESERVED_ACTION_ID_PREFIXES,
    ActionRequest,
    ActionResult,
    AddAi,
    AiLevel,
    CloseUnoWindow,
    CreateGame,
    ErrorBody,
    EventsPage,
    FrozenMoved,
    HostCommand,
    HouseRules,
    Join,
    Kick,
    LeftGroup,
    PlayerOnly,
    RematchVote,
    SeatSpec,
    SetOptions,
    StandInAction,
    StandInTurn,
    StreamEventOut,
    TestGame,
    TestSetup,
    ViewOf,
    ViewsOf,
)

# A client needs no other import of the engine: the client, its errors, the bodies it
# sends and returns (services/engine/wire/schemas.py), and a reader's helpers for the
# event log (README.md "Events").
__all__ = [
    "DEFAULT_VARIANT",
    "NUDGES_KEY",
    "RESERVED_ACTION_ID_PREFIXES",
    "TITLE_CONTEXT",
    "ActionRequest",
    "ActionResult",
    "AddAi",
    "AiLevel",
    "BadRequest",
    "CloseUnoWindow",
    "Conflict",
    "CreateGame",
    "EngineClient",
    "EngineError",
    "EnginePendingView",
    "EngineSeatView",
    "EngineView",
    "ErrorBody",
    "EventsPage",
    "Forbidden",
    "FrozenMoved",
    "GameInfo",
    "HostCommand",
    "HouseRules",
    "IllegalAction",
    "Join",
    "Kick",
    "LeftGroup",
    "NotFound",
    "Options",
    "PlayerOnly",
    "PlayerView",
    "RematchVote",
    "RemovalInfo",
    "SeatInfo",
    "SeatSpec",
    "SetOptions",
    "StaleVersion",
    "StandInAction",
    "StandInTurn",
    "StreamEventOut",
    "TestGame",
    "TestSetup",
    "Unauthorized",
    "Unavailable",
    "UnknownVariant",
    "VariantFacts",
    "ViewOf",
    "ViewsOf",
    "default_target_score",
    "log_key",
    "log_keys",
    "offered_house_rules",
    "round_gains",
    "shard_of",
    "stream_entry_events",
    "variant_facts",
    "variant_names",
]


M = TypeVar("M", bound=BaseModel)


def _raise_for(response: httpx.Response) -> None:
    status = response.status_code
    if status < 400:
        return
    try:
        body = response.json()
        if not isinstance(body, dict):
            body = {}
    except ValueError:
        body = {}
    error = str(body.get("error", "error"))
    message = str(body.get("message", response.text[:200]))
    cls: type[EngineError]
    if status == 400:
        cls = BadRequest
    elif status == 401:
        cls = Unauthorized
    elif status == 403:
        cls = Forbidden
    elif status == 404:
        cls = NotFound
    elif status == 409:
        cls = StaleVersion if error == "stale_version" else Conflict
    elif status == 422:
        cls = IllegalAction
    elif status >= 500:
        cls = Unavailable
    else:
        cls = EngineError
    raise cls(status, error, message, body)


#: Connections kept open between requests. [decision] httpcore looks at every pooled
#: connection on each request (a poll of each idle socket, and a count of the idle ones per
#: idle one), so a pool left at a burst's hundred connections cost the bot a tenth of its
#: event loop at a hundred games (bench/telegram_load.py); a few serve the steady load, and
#: a burst opens more for as long as it lasts.
IDLE_CONNECTIONS = 8


class EngineClient:
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
        max_connections: int = 100,
        max_idle_connections: int = IDLE_CONNECTIONS,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            transport=transport,
            limits=httpx.Limits(
                max_connections=max_connections,
                max_keepalive_connections=min(max_idle_connections, max_connections),
            ),
        )

    @classmethod
    def from_settings(cls, settings: Settings, **kwargs: Any) -> EngineClient:
        """The client the settings describe. Raises ``services.config.InsecureToken`` for an
        empty token, or the development token outside development mode (``UNO_DEV_MODE``):
        a service holding the engine token refuses to start with either."""
        return cls(settings.engine_url, settings.require_engine_token(), **kwargs)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> EngineClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # -- plumbing -------------------------------------------------------------------------

    async def _call(
        self,
        model: type[M],
        method: str,
        path: str,
        *,
        body: BaseModel | None = None,
        params: dict[str, Any] | None = None,
    ) -> M:
        content = body.model_dump_json(exclude_none=True) if body is not None else None
        response = await self._http.request(
            method,
            path,
            content=content,
            params={k: v for k, v in (params or {}).items() if v is not None},
            headers={"Content-Type": "application/json"} if content is not None else None,
        )
        _raise_for(response)
        return model.model_validate_json(response.content)

    # -- health ---------------------------------------------------------------------------

    async def ready(self) -> bool:
        """Whether the service answers and reaches Redis."""
        try:
            response = await self._http.get("/readyz")
        except httpx.HTTPError:
            return False
        return response.status_code == 200

    # -- lobby ----------------------------------------------------------------------------

    async def create_game(
        self,
        chat_id: int,
        user_id: int,
        name: str,
        *,
        topic_id: int = 0,
        variant: str = DEFAULT_VARIANT,
        turn_seconds: int | None = None,
        rules: Options | None = None,
        uno_window_seconds: int | None = None,
    ) -> GameInfo:
        """Raises ``Conflict`` (``error == "game_exists"``, ``game_id``) when the chat
        (topic) already has a live game. ``None`` times are the service's own."""
        body = CreateGame(
            chat_id=chat_id,
            topic_id=topic_id,
            user_id=user_id,
            name=name,
            variant=variant,
            turn_seconds=turn_seconds,
            uno_window_seconds=uno_window_seconds,
            rules=HouseRules.from_options(rules) if rules is not None else None,
        )
        return await self._call(GameInfo, "POST", "/v1/games", body=body)

    async def game(self, game_id: str) -> GameInfo:
        return await self._call(GameInfo, "GET", f"/v1/games/{game_id}")

    async def chat_game(self, chat_id: int, topic_id: int = 0) -> GameInfo | None:
        """The chat's live game, or None."""
        try:
            return await self._call(
                GameInfo, "GET", f"/v1/chats/{chat_id}/game", params={"topic_id": topic_id}
            )
        except NotFound:
            return None

    async def user_games(self, user_id: int) -> list[GameInfo]:
        """The live games ``user_id`` holds a seat in (one not left)."""
        return (await self._call(UserGames, "GET", f"/v1/users/{user_id}/games")).games

    async def join(self, game_id: str, user_id: int, name: str) -> GameInfo:
        body = Join(user_id=user_id, name=name)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/join", body=body)

    async def leave(self, game_id: str, user_id: int) -> GameInfo:
        body = PlayerOnly(user_id=user_id)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/leave", body=body)

    async def add_ai(
        self,
        game_id: str,
        user_id: int,
        *,
        level: AiLevel = "strong",
        name: str | None = None,
        admin: bool = False,
    ) -> GameInfo:
        body = AddAi(user_id=user_id, admin=admin, level=level, name=name)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/ai", body=body)

    async def set_options(
        self,
        game_id: str,
        user_id: int,
        *,
        variant: str | None = None,
        turn_seconds: int | None = None,
        rules: Options | None = None,
        admin: bool = False,
    ) -> GameInfo:
        body = SetOptions(
            user_id=user_id,
            admin=admin,
            variant=variant,
            turn_seconds=turn_seconds,
            rules=HouseRules.from_options(rules) if rules is not None else None,
        )
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/options", body=body)

    async def start(self, game_id: str, user_id: int, *, admin: bool = False) -> GameInfo:
        body = HostCommand(user_id=user_id, admin=admin)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/start", body=body)

    async def end(self, game_id: str, user_id: int, *, admin: bool = False) -> GameInfo:
        body = HostCommand(user_id=user_id, admin=admin)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/end", body=body)

    async def back(self, game_id: str, user_id: int) -> GameInfo:
        """RULES.md §7 "I'm back": the player is no longer away."""
        body = PlayerOnly(user_id=user_id)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/back", body=body)

    async def rematch(self, game_id: str, user_id: int, vote: bool) -> GameInfo:
        """RULES.md §7 "Rematch": ``user_id`` votes to play the finished game again
        (``vote`` false: to leave instead). Raises ``Conflict`` (``game_not_over``,
        ``already_voted``, ``rematch_started``, ``chat_busy``) or ``Forbidden``."""
        body = RematchVote(user_id=user_id, vote=vote)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/rematch", body=body)

    # -- who is out of a game ---------------------------------------------------------------

    async def kick(
        self, game_id: str, user_id: int, target: int, *, admin: bool = False
    ) -> GameInfo:
        """The host (or a chat admin, ``admin``) removes ``target`` for good. Raises
        ``Forbidden`` (not the host; ``target`` has no seat)."""
        body = Kick(user_id=user_id, admin=admin, target=target)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/kick", body=body)

    async def left_group(self, game_id: str, user_id: int, *, by: int | None = None) -> GameInfo:
        """``user_id`` left the game's chat (``by`` removed them): out until back."""
        body = LeftGroup(user_id=user_id, by=by)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/left-group", body=body)

    async def rejoined_group(self, game_id: str, user_id: int) -> GameInfo:
        """``user_id`` is back in the game's chat: leaving it no longer holds them out."""
        body = PlayerOnly(user_id=user_id)
        return await self._call(GameInfo, "POST", f"/v1/games/{game_id}/rejoined-group", body=body)

    # -- play -----------------------------------------------------------------------------

    async def act(
        self, game_id: str, user_id: int, action: str, *, version: int, action_id: str
    ) -> ActionResult:
        """Raises ``StaleVersion`` (409), ``IllegalAction`` (422), ``Forbidden`` (403)."""
        body = ActionRequest(user_id=user_id, action=action, version=version, action_id=action_id)
        return await self._call(ActionResult, "POST", f"/v1/games/{game_id}/actions", body=body)

    async def view(self, game_id: str, user_id: int) -> PlayerView:
        return await self._call(
            PlayerView, "GET", f"/v1/games/{game_id}/view", params={"user_id": user_id}
        )

    async def views_json(self, game_id: str, user_ids: list[int]) -> dict[str, Any]:
        """``ViewsOf`` as plain JSON (``{"game", "views": [{"user_id", "seat", "view"}]}``,
        and ``removed``: why, for a person out of the game): several people's views at one
        version, each their own seat's or the spectator's.
        Not validated into models: a caller that only passes the views on skips the cost."""
        response = await self._http.get(
            f"/v1/games/{game_id}/views", params=[("user_id", u) for u in user_ids]
        )
        _raise_for(response)
        views: dict[str, Any] = orjson.loads(response.content)
        return views

    async def views(self, game_id: str, user_ids: list[int], *, spectator: bool = False) -> ViewsOf:
        """Several people's views at one version, in one request (``ViewsOf``): each one's
        own seat's, or the spectator's for one out of the game (``seat`` null); with
        ``spectator``, the spectator's view besides (``ViewsOf.spectator``)."""
        params: list[tuple[str, Any]] = [("user_id", u) for u in user_ids]
        if spectator:
            params.append(("spectator", "true"))
        response = await self._http.get(f"/v1/games/{game_id}/views", params=params)
        _raise_for(response)
        return ViewsOf.model_validate_json(response.content)

    async def export(self, game_id: str) -> dict[str, Any]:
        """A finished game's export (docs/EXPORT.md) as plain JSON; raises ``Conflict``
        (``game_in_progress``) while it is played, ``NotFound`` once it has expired."""
        response = await self._http.get(f"/v1/games/{game_id}/export")
        _raise_for(response)
        export: dict[str, Any] = orjson.loads(response.content)
        return export

    async def spectator_view(self, game_id: str) -> PlayerView:
        return await self._call(PlayerView, "GET", f"/v1/games/{game_id}/spectator")

    async def events(
        self, game_id: str, *, after: str = "0-0", user_id: int | None = None, limit: int = 200
    ) -> EventsPage:
        """Up to ``limit`` events after the event id ``after`` (``{version}-{n}``: the n-th
        event of the write that produced ``version``), as ``user_id`` (or a spectator) may
        see them, of those the event log still holds; pass ``last_id`` back as ``after`` to
        read on. Reading the log's Redis streams directly instead: ``stream_entry_events``."""
        return await self._call(
            EventsPage,
            "GET",
            f"/v1/games/{game_id}/events",
            params={"after": after, "user_id": user_id, "limit": limit},
        )

    async def frozen_moved(
        self, game_id: str, *, version: int, seat: int, action_id: str
    ) -> ActionResult:
        """RULES.md §6: report that the frozen seat moved (422 ``not_frozen`` if it is not)."""
        body = FrozenMoved(version=version, seat=seat, action_id=action_id)
        return await self._call(
            ActionResult, "POST", f"/v1/games/{game_id}/frozen-moved", body=body
        )

    # -- timers (the worker) --------------------------------------------------------------

    async def stand_in_turn(self, game_id: str, version: int) -> StandInTurn:
        """Raises ``Conflict`` when the game is no longer at ``version`` (do nothing)."""
        return await self._call(
            StandInTurn, "GET", f"/v1/games/{game_id}/stand-in", params={"version": version}
        )

    async def stand_in_act(
        self, game_id: str, *, version: int, action: str, action_id: str
    ) -> ActionResult:
        body = StandInAction(version=version, action=action, action_id=action_id)
        return await self._call(ActionResult, "POST", f"/v1/games/{game_id}/stand-in", body=body)

    async def close_uno_window(
        self, game_id: str, *, opened_version: int, action_id: str
    ) -> ActionResult:
        body = CloseUnoWindow(opened_version=opened_version, action_id=action_id)
        return await self._call(
            ActionResult, "POST", f"/v1/games/{game_id}/uno-window/close", body=body
        )

    # -- tests ----------------------------------------------------------------------------

    async def create_test_game(
        self,
        chat_id: int,
        seats: list[SeatSpec],
        setup: TestSetup | dict[str, Any],
        *,
        topic_id: int = 0,
        turn_seconds: int | None = None,
        uno_window_seconds: int | None = None,
    ) -> GameInfo:
        """Only when the service runs with UNO_ENABLE_TEST_ENDPOINTS=1."""
        body = TestGame(
            chat_id=chat_id,
            topic_id=topic_id,
            seats=seats,
            setup=setup if isinstance(setup, TestSetup) else TestSetup.model_validate(setup),
            turn_seconds=turn_seconds,
            uno_window_seconds=uno_window_seconds,
        )
        return await self._call(GameInfo, "POST", "/v1/test/games", body=body)

    async def fix_deal(self, game_id: str, setup: TestSetup | dict[str, Any]) -> None:
        """Fix the first round the lobby ``game_id`` deals at its Start. Only when the
        service runs with UNO_ENABLE_TEST_ENDPOINTS=1."""
        body = setup if isinstance(setup, TestSetup) else TestSetup.model_validate(setup)
        response = await self._http.post(
            f"/v1/test/games/{game_id}/deal",
            content=body.model_dump_json(exclude_none=True),
            headers={"Content-Type": "application/json"},
        )
        _raise_for(response)


def stream_entry_events(
    fields: Mapping[bytes, bytes],
) -> tuple[str, int, list[tuple[int, dict[str, Any]]]]:
    """One entry of the event log (``uno:eventlog:{shard}``, README.md "Events") as XREAD
    returns its fields: ``(game id, version, events)`` -- the version the write produced
    and that write's public events, in order, each with its place ``n`` among all of the
    write's events (the game's event ``{version}-{n}``, as ``GET …/events`` names it).

    [decision] A private event (one with ``to``: a drawn card, a challenged hand) is not
    among them: it reaches its addressee only from the engine (``GET …/events`` with their
    ``user_id``, and their view), so no reader of the log can pass it on by forgetting a
    filter. Read on from the entry's own stream id. Raises ``zlib.error`` or ``ValueError``
    for an entry the service did not write."""
    game_id, version, events = decode_entry(fields)
    return game_id, version, numbered_events_for(events, None)
