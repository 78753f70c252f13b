"""A mention by link (``tg://user?id=``) arrives as Telegram sends it: a ``text_mention``
with the whole ``User`` (python-telegram-bot refuses a ``User`` without its name); one of a
user Telegram does not know stays plain text."""

from __future__ import annotations

from typing import Any

import httpx


def test_a_text_mention_carries_the_whole_user(local_telegram: Any) -> None:
    control = local_telegram.control
    bot = control.create_bot("mention_check_bot")
    sara = control.create_user("Sara", language_code="fa")
    group = control.create_group("Mentions", [sara["id"]], bots=[bot["token"]])
    text = f'<a href="tg://user?id={sara["id"]}">Sara</a> and <a href="tg://user?id=1">nobody</a>'
    answer = httpx.post(
        f"{local_telegram.bot_api_url}{bot['token']}/sendMessage",
        json={"chat_id": group["id"], "text": text, "parse_mode": "HTML"},
    ).json()
    assert answer["ok"], answer
    mentions = [e for e in answer["result"]["entities"] if e["type"] == "text_mention"]
    assert mentions == [
        {"type": "text_mention", "offset": 0, "length": 4, "user": sara},
    ]
    shown = control.messages(group["id"])[-1]
    assert shown["entities"] == answer["result"]["entities"]
