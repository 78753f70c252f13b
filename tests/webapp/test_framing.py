"""Who may show the Mini App in a frame: Telegram's web clients only (their origins named in
the page's ``frame-ancestors``, never ``*``), and in development mode the local Telegram's
page too. A real browser holds it: a page of another origin gets no Mini App in its frame
from a deployed replica, and the same page does from a development one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from harness.services import WebAppProcess
from services.webapp.app import TELEGRAM_WEB_CLIENTS
from tests.helpers.webapp import WebAppStack, start_webapp


@pytest.fixture(scope="module")
def deployed(webapp_stack: WebAppStack) -> Iterator[WebAppProcess]:
    """A replica as a deployment runs it: development mode off."""
    proc = start_webapp(webapp_stack, "webapp-deployed", UNO_DEV_MODE="0")
    yield proc
    proc.stop()


def frame_ancestors(url: str) -> list[str]:
    policy = httpx.get(url).headers["content-security-policy"]
    (directive,) = (d.strip() for d in policy.split(";") if "frame-ancestors" in d)
    return directive.split()[1:]


def test_only_telegrams_web_clients_may_frame_a_deployed_page(
    deployed: WebAppProcess, webapp_stack: WebAppStack
) -> None:
    assert frame_ancestors(f"{deployed.url}/") == list(TELEGRAM_WEB_CLIENTS)
    assert "https://web.telegram.org" in TELEGRAM_WEB_CLIENTS
    developing = frame_ancestors(f"{webapp_stack.url()}/")
    assert "*" not in developing and "http://127.0.0.1:*" in developing


class FramingPage(ThreadingHTTPServer):
    """A page on an origin of its own (this machine, another port) framing ``target``."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), FramingHandler)
        self.target = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


class FramingHandler(BaseHTTPRequestHandler):
    server: FramingPage

    def do_GET(self) -> None:
        body = f'<!doctype html><iframe id="app" src="{self.server.target}"></iframe>'.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def framing() -> Iterator[FramingPage]:
    server = FramingPage()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_page_of_another_origin_cannot_frame_a_deployed_page(
    deployed: WebAppProcess, webapp_stack: WebAppStack, framing: FramingPage, browser: Any
) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        # A development replica shows in the frame: the page's own status line is there.
        framing.target = f"{webapp_stack.url()}/?game=nosuchgame00"
        page.goto(framing.url)
        page.frame_locator("#app").locator("#status").wait_for(state="attached")
        # A deployed one does not: the browser refuses it for its frame-ancestors.
        framing.target = f"{deployed.url}/?game=nosuchgame00"
        with page.expect_console_message(lambda m: "frame-ancestors" in m.text) as refused:
            page.goto(framing.url)
        assert deployed.url in refused.value.text
        assert page.frame_locator("#app").locator("#status").count() == 0
    finally:
        context.close()
