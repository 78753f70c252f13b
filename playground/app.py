"""The local Telegram's HTTP face: the Bot API at ``/bot<token>/<method>``, the control API
under ``/control/``, the live feed at ``/control/feed`` (server-sent events) and the
playground page's static files at ``/``.

:func:`create_app` builds one server around one :class:`~playground.world.World`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import UploadFile
from starlette.staticfiles import StaticFiles

from playground.bot_api import BotApi
from playground.media import Upload
from playground.opening import MiniApps, Opening
from playground.people import People, Refused
from playground.world import World

STATIC = Path(__file__).parent / "static"


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewBot(Body):
    # Telegram wants 5-32 characters ending in "bot"; 3 is the least a /cmd@name can carry.
    username: str = Field("uno_test_bot", pattern=r"^[A-Za-z][A-Za-z0-9_]{2,31}$")
    first_name: str = Field("UNO", min_length=1, max_length=64)
    inline_feedback: bool = True
    privacy_mode: bool = True
    token: str | None = Field(None, pattern=r"^[1-9][0-9]{0,15}:[A-Za-z0-9_-]{20,64}$")


class NewUser(Body):
    first_name: str = Field(min_length=1, max_length=64)
    username: str | None = Field(None, pattern=r"^[A-Za-z0-9_]{1,32}$")
    last_name: str | None = Field(None, max_length=64)
    language_code: str | None = Field("en", max_length=35)


class NewGroup(Body):
    title: str = Field(min_length=1, max_length=128)
    members: list[int]
    admins: list[int] = []
    supergroup: bool = True
    forum: bool = False
    bots: list[str] = []


class NewTopic(Body):
    name: str


class Member(Body):
    user_id: int


class BotToken(Body):
    token: str


class UserMessage(Body):
    user_id: int
    chat_id: int
    text: str
    thread_id: int | None = None
    reply_to: int | None = None


class UserEdit(Body):
    user_id: int
    chat_id: int
    message_id: int
    text: str


class Press(Body):
    user_id: int
    chat_id: int
    message_id: int
    callback_data: str
    timeout: float = Field(10.0, ge=0, le=120)
    forged: bool = False


class NewInlineQuery(Body):
    user_id: int
    query: str = Field(max_length=256)
    chat_id: int | None = None
    offset: str = ""
    timeout: float = Field(10.0, ge=0, le=120)
    bot: str | None = None


class Choice(Body):
    user_id: int
    query_id: str
    result_id: str
    chat_id: int
    thread_id: int | None = None


class WebAppData(Body):
    user_id: int
    data: str


class WebAppRegistration(Body):
    token: str
    url: str


class Limits(Body):
    model_config = ConfigDict(extra="allow")
    enabled: bool


async def _bot_api_params(request: Request) -> dict[str, Any] | None:
    """Parameters from the query string and the body (JSON, url-encoded or multipart)."""
    raw: dict[str, Any] = dict(request.query_params)
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method != "POST":
        return raw
    if content_type == "application/json" or (
        not content_type and (await request.body()).lstrip().startswith(b"{")
    ):
        body = await request.body()
        if body.strip():
            try:
                data = orjson.loads(body)
            except orjson.JSONDecodeError:
                return None
            if not isinstance(data, dict):
                return None
            raw.update(data)
    elif content_type in {"application/x-www-form-urlencoded", "multipart/form-data"}:
        form = await request.form()
        for key, value in form.multi_items():
            if isinstance(value, UploadFile):
                raw[key] = Upload(value.filename or "", len(await value.read()))
            else:
                raw[key] = value
    return raw


def create_app(world: World | None = None) -> FastAPI:
    """A local Telegram server around ``world`` (a fresh one by default)."""
    world = world or World()
    api = BotApi(world)
    people = People(world)
    mini_apps = MiniApps(people)
    app = FastAPI(
        title="Local Telegram", docs_url="/control/docs", openapi_url="/control/openapi.json"
    )
    app.state.world = world

    @app.api_route("/bot{token}/{method}", methods=["GET", "POST"], include_in_schema=False)
    async def bot_api(token: str, method: str, request: Request) -> Response:
        raw = await _bot_api_params(request)
        if raw is None:
            body = {"ok": False, "error_code": 400, "description": "Bad Request: can't parse JSON"}
            return Response(orjson.dumps(body), status_code=400, media_type="application/json")
        status, body = await api.call(token, method, raw)
        return Response(orjson.dumps(body), status_code=status, media_type="application/json")

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.post("/control/bots")
    async def create_bot(body: NewBot) -> Any:
        try:
            bot = world.create_bot(
                body.username,
                body.first_name,
                inline_feedback=body.inline_feedback,
                privacy_mode=body.privacy_mode,
                token=body.token,
            )
        except ValueError as exc:
            raise Refused(409, str(exc)) from None
        return {"token": bot.token, "user": bot.user.api()}

    @app.post("/control/users")
    async def create_user(body: NewUser) -> Any:
        user = world.create_user(
            body.first_name,
            username=body.username,
            last_name=body.last_name,
            language_code=body.language_code,
        )
        return user.api()

    @app.post("/control/groups")
    async def create_group(body: NewGroup) -> Any:
        chat = people.create_group(
            body.title, body.members, body.admins, body.supergroup, body.forum, body.bots
        )
        return chat.api()

    @app.post("/control/chats/{chat_id}/topics")
    async def create_topic(chat_id: int, body: NewTopic) -> Any:
        return {"message_thread_id": people.create_topic(chat_id, body.name)}

    @app.post("/control/chats/{chat_id}/upgrade")
    async def upgrade_group(chat_id: int) -> Any:
        return people.upgrade_group(chat_id).api()

    @app.post("/control/chats/{chat_id}/members")
    async def add_member(chat_id: int, body: Member) -> Any:
        people.add_member(chat_id, body.user_id)
        return {"ok": True}

    @app.put("/control/chats/{chat_id}/admins/{user_id}")
    async def promote(chat_id: int, user_id: int) -> Any:
        people.set_admin(chat_id, user_id, True)
        return {"ok": True}

    @app.delete("/control/chats/{chat_id}/admins/{user_id}")
    async def demote(chat_id: int, user_id: int) -> Any:
        people.set_admin(chat_id, user_id, False)
        return {"ok": True}

    @app.delete("/control/chats/{chat_id}/members/{user_id}")
    async def remove_member(chat_id: int, user_id: int) -> Any:
        people.remove_member(chat_id, user_id)
        return {"ok": True}

    @app.post("/control/users/{user_id}/start")
    async def start_bot(user_id: int, body: BotToken) -> Any:
        return people.start_bot(user_id, body.token).view()

    @app.post("/control/users/{user_id}/block")
    async def block_bot(user_id: int, body: BotToken) -> Any:
        people.block_bot(user_id, body.token)
        return {"ok": True}

    @app.post("/control/users/{user_id}/unblock")
    async def unblock_bot(user_id: int, body: BotToken) -> Any:
        people.unblock_bot(user_id, body.token)
        return {"ok": True}

    @app.post("/control/messages")
    async def send_message(body: UserMessage) -> Any:
        return people.send_message(
            body.user_id, body.chat_id, body.text, body.thread_id, body.reply_to
        ).view()

    @app.post("/control/edits")
    async def edit_message(body: UserEdit) -> Any:
        return people.edit_message(body.user_id, body.chat_id, body.message_id, body.text).view()

    @app.post("/control/presses")
    async def press_button(body: Press) -> Any:
        return await people.press_button(
            body.user_id,
            body.chat_id,
            body.message_id,
            body.callback_data,
            body.timeout,
            forged=body.forged,
        )

    @app.post("/control/inline_queries")
    async def inline_query(body: NewInlineQuery) -> Any:
        return await people.inline_query(
            body.user_id, body.query, body.chat_id, body.offset, body.timeout, body.bot
        )

    @app.post("/control/inline_choices")
    async def choose_inline_result(body: Choice) -> Any:
        return people.choose_inline_result(
            body.user_id, body.query_id, body.result_id, body.chat_id, body.thread_id
        ).view()

    @app.put("/control/web_apps/{short_name}")
    async def register_web_app(short_name: str, body: WebAppRegistration) -> Any:
        mini_apps.register(body.token, short_name, body.url)
        return {"ok": True}

    @app.post("/control/web_apps")
    async def open_web_app(body: Opening) -> Any:
        return mini_apps.open(body)

    @app.post("/control/web_apps/{launch_id}/data")
    async def send_web_app_data(launch_id: str, body: WebAppData) -> Any:
        return mini_apps.send_data(body.user_id, launch_id, body.data).view()

    @app.get("/control/private/{user_id}/{bot_id}/menu_button")
    async def menu_button(user_id: int, bot_id: int) -> Any:
        user = people.user(user_id)
        return people.bot(bot_id).menu_button(user.id)

    @app.get("/control/chats/{chat_id}/messages")
    async def messages(chat_id: int, thread_id: int | None = None) -> Any:
        chat = people.group(chat_id)
        return [m.view() for m in chat.ordered(thread_id)]

    @app.get("/control/private/{user_id}/{bot_id}/messages")
    async def private_messages(user_id: int, bot_id: int) -> Any:
        user = people.user(user_id)
        return [m.view() for m in world.private_chat(people.bot(bot_id), user).ordered()]

    @app.get("/control/calls")
    async def calls(token: str | None = None, since: int = 0) -> Any:
        return [
            {k: v for k, v in entry.items() if k != "token"}
            for entry in world.calls
            if entry["seq"] > since and (token is None or entry["token"] == token)
        ]

    @app.post("/control/limits")
    async def set_limits(body: Limits) -> Any:
        numbers = dict(body.model_extra or {})
        try:
            world.limits.configure(body.enabled, **numbers)
        except ValueError as exc:
            raise Refused(400, str(exc)) from None
        return vars(world.limits.settings)

    @app.post("/control/reset")
    async def reset() -> Any:
        world.reset()
        return {"ok": True}

    @app.get("/control/state")
    async def state() -> Any:
        """Everything the playground page needs to draw the world at once."""
        return {
            "users": [u.api() for u in world.users.values() if not u.is_bot],
            "bots": [b.me() for b in world.bots.values()],
            "chats": [
                {**c.api(), "members": c.members, "topics": [vars(t) for t in c.topics.values()]}
                for c in world.chats.values()
            ],
            "limits": vars(world.limits.settings),
        }

    @app.get("/control/feed")
    async def feed(request: Request) -> StreamingResponse:
        """Server-sent events: one ``data:`` line of JSON per change in the world."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=10_000)
        world.subscribers.add(queue)

        async def events() -> AsyncIterator[bytes]:
            try:
                yield b": connected\n\n"
                while True:
                    try:
                        event = await asyncio.wait_for(queue.get(), 15.0)
                    except TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield b": keep-alive\n\n"
                        continue
                    yield b"data: " + orjson.dumps(event, default=str) + b"\n\n"
            finally:
                world.subscribers.discard(queue)

        return StreamingResponse(
            events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> Any:
        return {"ok": True}

    if STATIC.is_dir():
        app.mount("/", StaticFiles(directory=STATIC, html=True, check_dir=False), name="static")
    return app
