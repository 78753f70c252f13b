"""Files in messages over real HTTP: stickers, photos, animations and documents sent by a
file id, an HTTP URL or an upload, and Telegram's 400 for a file id that cannot be one."""

from __future__ import annotations

import pytest

from playground.media import WRONG_FILE
from tests.helpers.telegram_scene import JOIN, Scene

#: A sticker's file id as Telegram issues them (URL-safe base64 of its record).
TELEGRAM_STICKER = "CAACAgIAAxkBAAEQzllpwQJNaY9bim5ZTmvn9GTweReALAAC6JwAAtEFCEp1FOtm_fs1qDoE"


def test_a_sticker_by_telegrams_file_id(scene: Scene) -> None:
    group = scene.group["id"]
    sent = scene.ok("sendSticker", chat_id=group, sticker=TELEGRAM_STICKER, emoji="🃏")
    sticker = sent["sticker"]
    assert sticker["file_id"] == TELEGRAM_STICKER and sticker["file_unique_id"]
    assert sticker["type"] == "regular" and sticker["emoji"] == "🃏"
    assert "text" not in sent and sent["from"]["id"] == scene.bot["id"]
    shown = scene.control.messages(group)[-1]
    assert shown["sticker"]["file_id"] == TELEGRAM_STICKER and not shown["deleted"]
    # the same file id twice names the same file
    again = scene.ok("sendSticker", chat_id=group, sticker=TELEGRAM_STICKER)
    assert again["sticker"]["file_unique_id"] == sticker["file_unique_id"]


@pytest.mark.parametrize(
    ("method", "field"),
    [("sendPhoto", "photo"), ("sendAnimation", "animation"), ("sendDocument", "document")],
)
def test_files_by_url_get_an_id_that_sends_them_again(
    scene: Scene, method: str, field: str
) -> None:
    group = scene.group["id"]
    url = "https://example.org/cards/red%205.png"
    sent = scene.ok(
        method,
        chat_id=group,
        **{field: url},
        caption="<b>red</b> 5",
        parse_mode="HTML",
        reply_markup=JOIN,
    )
    media = sent[field][-1] if field == "photo" else sent[field]
    assert sent["caption"] == "red 5"
    assert sent["caption_entities"] == [{"type": "bold", "offset": 0, "length": 3}]
    assert sent["reply_markup"] == JOIN
    if field != "photo":
        assert media["file_name"] == "red 5.png"
    if field == "animation":
        assert sent["document"]["file_id"] == media["file_id"]  # as Telegram sends it
    shown = scene.control.messages(group)[-1]
    assert shown["media_url"] == url
    resent = scene.ok(method, chat_id=group, **{field: media["file_id"]})
    resent_media = resent[field][-1] if field == "photo" else resent[field]
    assert resent_media["file_unique_id"] == media["file_unique_id"]


def test_an_uploaded_file(scene: Scene) -> None:
    response = scene.http.post(
        f"{scene.lt.bot_api_url}{scene.token}/sendDocument",
        data={"chat_id": str(scene.group["id"])},
        files={"document": ("rules.txt", b"play a card of the same colour")},
    )
    body = response.json()
    assert response.status_code == 200, body
    assert body["result"]["document"]["file_name"] == "rules.txt"
    logged = scene.control.calls(token=scene.token)[-1]["params"]["document"]
    assert logged == {"filename": "rules.txt", "size": 30}  # the bytes are not kept
    # an upload under a name of its own, named by attach://
    response = scene.http.post(
        f"{scene.lt.bot_api_url}{scene.token}/sendPhoto",
        data={"chat_id": str(scene.group["id"]), "photo": "attach://card"},
        files={"card": ("red5.png", b"\x89PNG")},
    )
    assert response.status_code == 200, response.json()
    assert response.json()["result"]["photo"][0]["file_id"]


@pytest.mark.parametrize("bad", ["not a file id", "abc", "CAACAgIAAxkBAAEQzllpwQJ=", "x" * 21])
def test_a_malformed_file_id_is_telegrams_400(scene: Scene, bad: str) -> None:
    status, body = scene.call("sendSticker", chat_id=scene.group["id"], sticker=bad)
    assert (status, body["description"]) == (400, f"Bad Request: {WRONG_FILE}")
    assert scene.refused("sendPhoto", chat_id=scene.group["id"]) == (
        "Bad Request: there is no photo in the request"
    )


def test_a_file_message_has_no_text_to_edit_and_a_long_caption_is_refused(scene: Scene) -> None:
    group = scene.group["id"]
    sent = scene.ok("sendSticker", chat_id=group, sticker=TELEGRAM_STICKER)
    assert (
        scene.refused("editMessageText", chat_id=group, message_id=sent["message_id"], text="x")
        == "Bad Request: there is no text in the message to edit"
    )
    assert scene.ok("deleteMessage", chat_id=group, message_id=sent["message_id"])
    assert (
        scene.refused("sendPhoto", chat_id=group, photo=TELEGRAM_STICKER, caption="x" * 1025)
        == "Bad Request: message caption is too long"
    )


def test_sending_files_spends_the_chats_messages(scene: Scene) -> None:
    scene.control.set_limits(True, group_per_minute=1)
    group = scene.group["id"]
    scene.ok("sendSticker", chat_id=group, sticker=TELEGRAM_STICKER)
    status, _ = scene.call("sendPhoto", chat_id=group, photo=TELEGRAM_STICKER)
    assert status == 429
