"""Bad input, generated: whatever a bot sends, every method answers Telegram's envelope (a
result, or a refusal with an error code and a description), never a crash; whatever the
control side asks, a refusal is a 4xx that changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground.bot_api import METHODS, BotApi
from playground.people import People, Refused
from playground.world import World

PARAMETERS = [
    "chat_id",
    "text",
    "parse_mode",
    "entities",
    "reply_markup",
    "message_id",
    "message_ids",
    "message_thread_id",
    "reply_parameters",
    "reply_to_message_id",
    "inline_message_id",
    "callback_query_id",
    "inline_query_id",
    "results",
    "next_offset",
    "button",
    "cache_time",
    "commands",
    "scope",
    "language_code",
    "user_id",
    "action",
    "offset",
    "limit",
    "allowed_updates",
    "url",
    "secret_token",
    "max_connections",
    "drop_pending_updates",
    "show_alert",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.sampled_from(["HTML", "MarkdownV2", "<b>x", "*x", "-1", "1", "[]", "{}", '{"type":"chat"}']),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


def world_with_a_chat() -> tuple[World, BotApi, str, int]:
    world = World()
    bot = world.create_bot("fuzz_bot", "Fuzz", inline_feedback=True, privacy_mode=True)
    people = People(world)
    ann = world.create_user("Ann")
    chat = people.create_group("g", [ann.id], [], True, False, [bot.token])
    people.start_bot(ann.id, bot.token)
    world.limits.configure(False)
    return world, BotApi(world), bot.token, chat.id


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    method=st.sampled_from(sorted(set(METHODS) - {"getupdates"})),
    params=st.dictionaries(st.sampled_from(PARAMETERS), values, max_size=6),
    use_chat=st.booleans(),
)
def test_every_method_answers_with_the_envelope(
    method: str, params: dict[str, Any], use_chat: bool
) -> None:
    world, api, token, chat_id = world_with_a_chat()
    if use_chat:
        params["chat_id"] = chat_id

    async def call() -> tuple[int, dict[str, Any]]:
        try:
            return await api.call(token, method, params)
        finally:
            for bot in world.bots.values():
                if bot.webhook is not None and bot.webhook.task is not None:
                    bot.webhook.task.cancel()

    status, body = asyncio.run(call())
    if body["ok"]:
        assert status == 200 and "result" in body
    else:
        assert status == body["error_code"] in {400, 403, 409, 429, 501}
        assert isinstance(body["description"], str) and body["description"]


markup_text = st.text(alphabet="ab <>/&;#*_~`|[]()!.\\\n🏟", max_size=30)
entity = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["bold", "text_link", "text_mention", "pre", "spoiler", "nope"]),
        "offset": st.one_of(st.integers(-3, 40), st.text(max_size=2)),
        "length": st.one_of(st.integers(-3, 40), st.none()),
        "url": st.text(max_size=10),
        "user": st.one_of(st.fixed_dictionaries({"id": st.integers()}), st.text(max_size=3)),
        "language": st.text(max_size=5),
    },
)
button = st.fixed_dictionaries(
    {},
    optional={
        "text": st.one_of(st.text(max_size=5), st.integers()),
        "callback_data": st.one_of(st.text(max_size=70), st.integers(), st.none()),
        "url": st.text(max_size=20),
        "switch_inline_query": st.text(max_size=5),
    },
)
keyboard = st.one_of(
    st.fixed_dictionaries({"inline_keyboard": st.lists(st.lists(button, max_size=3), max_size=3)}),
    st.fixed_dictionaries({"inline_keyboard": st.one_of(st.text(max_size=3), st.lists(button))}),
    st.fixed_dictionaries({"keyboard": st.lists(st.lists(st.text(max_size=3)))}),
)
result = st.fixed_dictionaries(
    {"type": st.sampled_from(["article", "sticker", "photo", "bogus"]), "id": st.text(max_size=70)},
    optional={
        "title": st.text(max_size=5),
        "input_message_content": st.one_of(
            st.fixed_dictionaries(
                {"message_text": markup_text},
                optional={
                    "parse_mode": st.sampled_from(["HTML", "MarkdownV2"]),
                    "entities": st.lists(entity, max_size=2),
                },
            ),
            st.text(max_size=3),
        ),
        "reply_markup": keyboard,
        "sticker_file_id": st.text(max_size=5),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    method=st.sampled_from(["sendMessage", "editMessageText", "editMessageReplyMarkup"]),
    text=markup_text,
    parse_mode=st.sampled_from([None, "HTML", "MarkdownV2", "Markdown", "markdownv2", "xml"]),
    entities=st.one_of(st.none(), st.lists(entity, max_size=3), st.text(max_size=3)),
    reply_markup=st.one_of(st.none(), keyboard, st.text(max_size=5)),
    results=st.lists(result, max_size=3),
)
def test_formatting_keyboards_and_results_never_crash(
    method: str,
    text: str,
    parse_mode: str | None,
    entities: Any,
    reply_markup: Any,
    results: list[dict[str, Any]],
) -> None:
    world, api, token, chat_id = world_with_a_chat()
    people = People(world)
    ann = next(u for u in world.users.values() if not u.is_bot)

    async def calls() -> list[tuple[int, dict[str, Any]]]:
        first = await api.call(token, "sendMessage", {"chat_id": chat_id, "text": "start"})
        message_id = first[1]["result"]["message_id"]
        params: dict[str, Any] = {"chat_id": chat_id, "text": text, "message_id": message_id}
        for name, value in (
            ("parse_mode", parse_mode),
            ("entities", entities),
            ("reply_markup", reply_markup),
        ):
            if value is not None:
                params[name] = value
        answers = [await api.call(token, method, params)]
        query = await people.inline_query(ann.id, "q", None, "", 0, token)
        answers.append(
            await api.call(
                token,
                "answerInlineQuery",
                {"inline_query_id": query["query_id"], "results": results},
            )
        )
        return answers

    for status, body in asyncio.run(calls()):
        if body["ok"]:
            assert status == 200 and "result" in body
        else:
            assert status == body["error_code"] == 400, body
            assert body["description"].startswith("Bad Request: ")


ids = st.one_of(st.integers(-(2**40), 2**40), st.sampled_from([0, 1, -1]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    action=st.sampled_from(
        ["send", "press", "edit", "topic", "add", "remove", "admin", "choose", "upgrade", "inline"]
    ),
    user=st.one_of(ids, st.just("ann")),
    chat=st.one_of(ids, st.sampled_from(["group", "bot"])),
    number=ids,
    text=st.text(max_size=20),
)
def test_control_actions_refuse_cleanly(
    action: str, user: int | str, chat: int | str, number: int, text: str
) -> None:
    world, _, token, chat_id = world_with_a_chat()
    people = People(world)
    ann = next(u for u in world.users.values() if not u.is_bot)
    bot = world.bots_by_token[token]
    user_id = ann.id if user == "ann" else int(user)
    target = {"group": chat_id, "bot": bot.id}.get(str(chat), chat)
    assert isinstance(target, int)
    before = (
        len(world.users),
        len(world.chats),
        sum(len(c.messages) for c in world.chats.values()),
    )

    async def act() -> None:
        if action == "send":
            people.send_message(user_id, target, text, None, None)
        elif action == "press":
            await people.press_button(user_id, target, number, text, 0)
        elif action == "edit":
            people.edit_message(user_id, target, number, text)
        elif action == "topic":
            people.create_topic(target, text)
        elif action == "add":
            people.add_member(target, user_id)
        elif action == "remove":
            people.remove_member(target, user_id)
        elif action == "admin":
            people.set_admin(target, user_id, number % 2 == 0)
        elif action == "choose":
            people.choose_inline_result(user_id, str(number), text, target, None)
        elif action == "upgrade":
            people.upgrade_group(target)
        else:
            await people.inline_query(user_id, text, target, "", 0, None)

    try:
        asyncio.run(act())
    except Refused as refused:
        assert 400 <= refused.status < 500 and refused.detail
        after = (
            len(world.users),
            len(world.chats),
            sum(len(c.messages) for c in world.chats.values()),
        )
        assert after == before  # a refused action changes nothing
