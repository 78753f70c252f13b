"""The control API: bad requests get a clear 4xx and change nothing; the live feed tells
what happens; the process entry point starts and says where it listens."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from playground.control import ControlError
from tests.helpers.telegram_scene import JOIN, Scene


def snapshot(scene: Scene) -> Any:
    control = scene.control
    return (
        control.state(),
        control.messages(scene.group["id"]),
        control.private_messages(scene.ann["id"], scene.token),
        len(scene.lt.world.bots_by_token[scene.token].updates),
    )


def refused(scene: Scene, status: int, action: Callable[[], object], detail: str) -> None:
    before = snapshot(scene)
    with pytest.raises(ControlError) as caught:
        action()
    assert caught.value.status == status
    assert detail in str(caught.value.detail)
    assert snapshot(scene) == before


def test_bad_requests_change_nothing(scene: Scene) -> None:
    control, group = scene.control, scene.group["id"]
    ann, bob = scene.ann["id"], scene.bob["id"]
    lobby = scene.ok("sendMessage", chat_id=group, text="Lobby", reply_markup=JOIN)
    scene.updates()
    stranger = control.create_user("Stranger")
    refused(scene, 404, lambda: control.send_message(10**12, group, "hi"), "no user")
    refused(scene, 404, lambda: control.send_message(ann, -42, "hi"), "no group -42")
    refused(scene, 403, lambda: control.send_message(stranger["id"], group, "hi"), "not a member")
    refused(scene, 400, lambda: control.send_message(ann, group, "  "), "needs text")
    refused(scene, 400, lambda: control.send_message(ann, group, "x", thread_id=5), "no topics")
    refused(scene, 404, lambda: control.send_message(ann, group, "x", reply_to=10**6), "no message")
    refused(
        scene,
        404,
        lambda: control.press_button(ann, group, lobby["message_id"], "leave"),
        "no button with callback_data 'leave'",
    )
    refused(scene, 404, lambda: control.press_button(ann, group, 10**6, "join"), "no message")
    refused(
        scene,
        400,
        lambda: control.press_button(ann, group, lobby["message_id"], "x" * 65, forged=True),
        "1-64 bytes",
    )
    said = control.send_message(ann, group, "a person's message")
    refused(
        scene,
        409,
        lambda: control.press_button(bob, group, said["message_id"], "join", forged=True),
        "belong to no bot",
    )
    refused(scene, 409, lambda: control.unblock_bot(ann, scene.token), "has not blocked")
    refused(
        scene,
        404,
        lambda: control.create_group("g", [ann, 10**12], bots=[scene.token]),
        "no user",
    )
    refused(scene, 404, lambda: control.create_group("g", [ann], bots=["1:x"]), "no bot")
    refused(scene, 400, lambda: control.create_topic(group, "t"), "not a forum")
    refused(scene, 409, lambda: control.add_member(group, bob), "already in")
    refused(scene, 409, lambda: control.remove_member(group, stranger["id"]), "is not in")
    refused(scene, 404, lambda: control.start_bot(ann, "1:nope"), "no bot")
    refused(
        scene,
        404,
        lambda: control.choose_inline_result(ann, "123", "r1", chat_id=group),
        "no answered inline query",
    )
    refused(scene, 400, lambda: control.set_limits(True, per_hour=5), "unknown limit")


def test_malformed_bodies(scene: Scene) -> None:
    url = scene.lt.url + "/control"
    before = snapshot(scene)
    response = scene.http.post(
        url + "/messages", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    response = scene.http.post(
        url + "/messages", json={"user_id": "ann", "chat_id": 1, "text": "x"}
    )
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == [
        "body",
        "user_id",
    ]
    response = scene.http.post(url + "/users", json={"first_name": "x", "colour": "red"})
    assert response.status_code == 422  # unknown fields are refused, not ignored
    response = scene.http.post(url + "/users", json={"first_name": ""})
    assert response.status_code == 422
    assert snapshot(scene) == before


def test_live_feed(scene: Scene) -> None:
    events: list[dict[str, Any]] = []
    connected = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", scene.lt.url + "/control/feed", timeout=30) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            for line in response.iter_lines():
                if line.startswith(": connected"):
                    connected.set()
                if line.startswith("data: "):
                    events.append(json.loads(line[len("data: ") :]))
                    if events[-1]["kind"] == "delete":
                        return

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    assert connected.wait(10)
    said = scene.control.send_message(scene.ann["id"], scene.group["id"], "hello feed")
    sent = scene.ok("sendMessage", chat_id=scene.group["id"], text="hi", reply_markup=JOIN)
    scene.ok("editMessageText", chat_id=scene.group["id"], message_id=sent["message_id"], text="ho")
    scene.ok("deleteMessage", chat_id=scene.group["id"], message_id=sent["message_id"])
    reader.join(10)
    kinds = [e["kind"] for e in events]
    assert kinds == ["message", "message", "call", "edit", "call", "delete"]
    assert events[0]["message"]["message_id"] == said["message_id"]
    assert (
        events[3]["message"]["text"] == "ho" and events[3]["message"]["history"][0]["text"] == "hi"
    )
    assert events[2]["call"]["method"] == "sendMessage" and events[2]["call"]["ok"] is True


def test_runs_as_a_process() -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "playground",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--bot-token",
            "123456:local-secret-of-twenty-chars",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("local telegram listening on http://127.0.0.1:")
        url = line.rsplit(" ", 1)[1]
        assert httpx.get(url + "/healthz").json() == {"ok": True}
        assert httpx.post(url + "/bot1:x/getMe").status_code == 401
        me = httpx.post(url + "/bot123456:local-secret-of-twenty-chars/getMe").json()["result"]
        assert me["id"] == 123456 and me["username"] == "uno_local_bot"
    finally:
        process.terminate()
        process.wait(15)
