"""The Mini App's page on a slow phone: Debian's Chromium driven by Playwright at 390×844,
its CPU slowed 4× through the DevTools protocol (``Emulation.setCPUThrottlingRate``),
against the local stack (the local Telegram, the engine, the worker and one Mini App
replica as real processes on the given Redis). Prints each figure beside its goal:

- open → first table painted: from the navigation's start to the first frame after the
  table's first version is on the page (median of ``--runs`` cold opens; goal ≤ 1.0 s),
  beside the same runs' first contentful paint (the page's "…" before any table);
- page weight on the first load, compressed as it travels (HTML, styles, scripts, the
  icon, the words and the ticket; the table's stream aside; no web fonts: the system's);
  goal ≤ 150 KB;
- during a played card's animation (Ann's own tap, and Bob's card arriving from his seat):
  long tasks over 50 ms (``PerformanceObserver``; goal none) and frames per second
  (``requestAnimationFrame`` from the move's table to the flying card's landing; goal ≥ 55;
  a later move's table, such as the AI's answer, may land inside that window);
- open → lobby painted: a group's lobby opened from its message's direct link, from the
  navigation's start to the first frame after its first seat is on the page (median of
  ``--runs`` cold opens, a fresh group each; goal ≤ 1.0 s), beside the same runs' first
  contentful paint;
- a join in the app shown in the chat: from Bob's press of Join in his app to the group's
  lobby message in the local Telegram showing his seat (the playground polled every
  20 ms); goal: within the group's write budget, one slot of the bot's group pace
  (``UNO_BOT_GROUP_MESSAGES_PER_MINUTE``, Telegram's 20 a minute: a slot every 3 s; the
  bot runs with it, and the local Telegram with Telegram's flood limits);
- Lighthouse 12.2.3 (``npm ci --prefix bench``: bench/package-lock.json), mobile, with the
  system Chromium: performance ≥ 90, accessibility ≥ 95, best practices ≥ 95.

    .venv/bin/python bench/mini_app_page.py [--runs 5] [--redis redis://127.0.0.1:6379/12]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harness.players import Players, buttons, callbacks  # noqa: E402
from harness.services import ENGINE_TOKEN, start_webapp  # noqa: E402
from harness.stack import start_stack  # noqa: E402
from services.config import Settings  # noqa: E402
from services.engine.client import EngineClient, GameInfo, SeatSpec  # noqa: E402
from services.presentation.callbacks import Kind  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LIGHTHOUSE = REPO / "bench" / "node_modules" / ".bin" / "lighthouse"
PHONE = {"width": 390, "height": 844}
APP = "table"
#: A card of each colour: Bob has one for whatever colour the AI leaves in play.
BOB_HAND = "R7 G1 B1 Y1 W"

#: Before the page's own scripts: when the table's first version lands, the first frame
#: after it; long tasks and frames from then on, for the animation's window.
PROBE = """
(() => {
  window.__bench = { painted: null, longTasks: [], frames: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  const seen = () => {
    if (window.__bench.painted === null && document.body && document.body.dataset.version) {
      window.__bench.painted = -1;
      requestAnimationFrame(() => { window.__bench.painted = performance.now(); });
    }
  };
  new MutationObserver(seen).observe(
    document, { subtree: true, attributes: true, attributeFilter: ["data-version"] });
  const tick = (t) => { window.__bench.frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();
"""

#: Starts watching for the table at `version`: the frames and long tasks from it until the
#: flying card has landed, left in ``__bench.result``.
ANIMATION = """
(version) => {
  const b = window.__bench;
  b.result = null;
  const watch = async () => {
    await new Promise((resolve) => {
      const check = () => (Number(document.body.dataset.version) >= version
        ? resolve() : setTimeout(check, 5));
      check();
    });
    const start = performance.now();
    // the played card in flight: the first copy laid over the page after the table came
    const flying = document.querySelector(".ghost");
    await new Promise((resolve) => {
      const check = () => (flying === null || !flying.isConnected
        ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
    const end = performance.now();
    const frames = b.frames.filter((t) => t >= start && t <= end);
    const fps = frames.length > 1 ? ((frames.length - 1) * 1000) / (frames.at(-1) - frames[0]) : 0;
    const long = b.longTasks.filter(([s, d]) => s + d >= start && s <= end && d > 50)
      .map(([, d]) => d);
    const renders = performance.getEntriesByName("uno:render")
      .filter((e) => e.startTime >= start - 100 && e.startTime <= end).map((e) => e.duration);
    b.result = { ms: end - start, frames: frames.length, fps, long, renders };
  };
  watch();
}
"""

WEIGHT = """
() => {
  const entries = [
    performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource"),
  ];
  return entries.filter((e) => !e.name.includes("/stream"))
    .map((e) => [new URL(e.name).pathname, e.transferSize, e.decodedBodySize]);
}
"""


def engine_call(engine_url: str, call: Any) -> Any:
    async def run() -> Any:
        async with EngineClient(engine_url, ENGINE_TOKEN) as engine:
            return await call(engine)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


class Scene:
    """Ann and Bob in a group with the bot; a Classic game dealt so that Ann (seven cards)
    plays first and Bob answers."""

    def __init__(self, stack: Any, webapp_url: str) -> None:
        control = stack.control
        self.stack = stack
        self.ann = control.create_user("Ann", language_code="en")
        self.bob = control.create_user("Bob", language_code="en")
        self.group = control.create_group(
            "UNO night", [self.ann["id"], self.bob["id"]], bots=[stack.token]
        )
        control.register_web_app(stack.token, APP, webapp_url)

    def deal(self) -> GameInfo:
        seats = [
            SeatSpec(name="Ann", user_id=self.ann["id"]),
            SeatSpec(name="AI 1", ai="first-legal"),
            SeatSpec(name="Bob", user_id=self.bob["id"]),
        ]
        setup = {
            "hands": ["R5 R6 W G7 B9 RS Y2", "Y5 G5 B5 Y6 Y7", BOB_HAND],
            "discard": "R3",
            "current": 0,
        }

        async def create(engine: EngineClient) -> GameInfo:
            existing = await engine.chat_game(self.group["id"])
            if existing is not None:
                await engine.end(existing.game_id, existing.host, admin=True)
            return await engine.create_test_game(self.group["id"], seats, setup, turn_seconds=600)

        game: GameInfo = engine_call(self.stack.engine_url, create)
        return game

    def url(self, game: GameInfo) -> str:
        link = f"https://t.me/{self.stack.username}/{APP}?startapp={game.game_id}"
        launch = self.stack.control.open_web_app(
            self.ann["id"], "direct_link", link=link, chat_id=self.group["id"]
        )
        return str(launch["url"])

    def bob_plays(self, game: GameInfo, code: str, version: int) -> None:
        bob = self.bob["id"]
        engine_call(
            self.stack.engine_url,
            lambda engine: engine.act(game.game_id, bob, code, version=version, action_id=code),
        )


#: Before the page's own scripts: the first frame after the lobby's first seat is on it.
LOBBY_PROBE = """
(() => {
  window.__lobby = { painted: null };
  const seen = () => {
    if (window.__lobby.painted === null && document.querySelector("#lobby-seats .lobby-seat")) {
      window.__lobby.painted = -1;
      requestAnimationFrame(() => { window.__lobby.painted = performance.now(); });
    }
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true });
})();
"""
#: How often the local Telegram is asked for the group's lobby message while a join is on
#: its way: the join's figure is this much coarser.
CHAT_POLL_SECONDS = 0.02


class LobbyScene:
    """An evening begun in the chat: Ann opens a lobby with /new in a fresh group of hers
    and Bob's, the bot posts it with the app's direct link."""

    def __init__(self, stack: Any) -> None:
        self.stack = stack
        control = stack.control
        self.ann = control.create_user("Ann", language_code="en", username=None)
        self.bob = control.create_user("Bob", language_code="en", username=None)
        for person in (self.ann, self.bob):
            control.start_bot(person["id"], stack.token)

    def open_lobby(self) -> tuple[int, dict[str, Any]]:
        """A fresh group's lobby: the group and its lobby message (with the app's link)."""
        control = self.stack.control
        group = control.create_group(
            "UNO night", [self.ann["id"], self.bob["id"]], bots=[self.stack.token]
        )
        chat = int(group["id"])
        players = self.stack.players(chat)
        control.send_message(self.ann["id"], chat, "/new")
        question = control.wait_until(
            lambda: next(
                (
                    m
                    for m in players.bot_messages()
                    if any(cb.kind is Kind.VARIANT for cb in callbacks(m))
                ),
                None,
            ),
            timeout=60,
            what="the variant keyboard",
        )
        choice = next(cb for cb in callbacks(question) if cb.arg == "classic")
        players.press(self.ann["id"], question, choice)
        return chat, self.lobby_message(chat, "Ann")

    def lobby_message(self, chat: int, having: str, timeout: float = 60) -> dict[str, Any]:
        players: Players = self.stack.players(chat)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in reversed(players.bot_messages()):
                if any("url" in b for b in buttons(m)) and having in m.get("text", ""):
                    found: dict[str, Any] = m
                    return found
            time.sleep(CHAT_POLL_SECONDS)
        raise AssertionError(f"no lobby message with {having!r} in {timeout} s")

    def launch(self, person: dict[str, Any], chat: int, message: dict[str, Any]) -> str:
        link = next(b["url"] for b in buttons(message) if "url" in b)
        opened = self.stack.control.open_web_app(
            person["id"], "direct_link", link=link, chat_id=chat
        )
        return str(opened["url"])


def measure_lobby(browser: Any, scene: LobbyScene, runs: int) -> dict[str, list[float]]:
    painted: list[float] = []
    contentful: list[float] = []
    joins: list[float] = []
    since: list[float] = []  # from the lobby's post to the press
    # one lobby first, not counted: the bot just started (catching up with the event log
    # of the table's games) and the replica's first lobby asks Telegram for the bot's name
    for run in range(runs + 1):
        chat, message = scene.open_lobby()
        posted = time.monotonic()  # the bot's last write in the group: the lobby's post
        ann_context, ann_page = slow_page(browser, LOBBY_PROBE)
        bob_context, bob_page = slow_page(browser, LOBBY_PROBE)
        try:
            ann_page.goto(scene.launch(scene.ann, chat, message))
            ann_page.wait_for_function("() => window.__lobby.painted > 0", timeout=30_000)
            if run == 0:
                continue
            painted.append(ann_page.evaluate("() => window.__lobby.painted"))
            contentful.append(
                ann_page.evaluate(
                    "() => (performance.getEntriesByName('first-contentful-paint')[0]"
                    " || {startTime: NaN}).startTime"
                )
            )
            bob_page.goto(scene.launch(scene.bob, chat, message))
            join = bob_page.locator("[data-word='join']")
            join.wait_for(timeout=30_000)
            pressed = time.monotonic()
            join.click()
            scene.lobby_message(chat, "Bob")
            joins.append(time.monotonic() - pressed)
            since.append(pressed - posted)
            bob_page.wait_for_selector("[data-word='leave']", timeout=30_000)
        finally:
            ann_context.close()
            bob_context.close()
    return {"painted": painted, "contentful": contentful, "joins": joins, "since": since}


def slow_page(browser: Any, probe: str = PROBE) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(probe)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return context, page


def landed(page: Any) -> dict[str, Any]:
    page.wait_for_function("() => window.__bench.result !== null", timeout=30_000)
    result: dict[str, Any] = page.evaluate("() => window.__bench.result")
    return result


def measure(browser: Any, scene: Scene, runs: int) -> dict[str, Any]:
    painted: list[float] = []
    contentful: list[float] = []
    weight: list[tuple[str, int, int]] = []
    animations: dict[str, list[dict[str, Any]]] = {"own tap": [], "Bob's card": []}
    for run in range(runs):
        game = scene.deal()
        context, page = slow_page(browser)
        try:
            page.goto(scene.url(game))
            page.wait_for_function("() => window.__bench.painted > 0", timeout=30_000)
            painted.append(page.evaluate("() => window.__bench.painted"))
            contentful.append(
                page.evaluate(
                    "() => (performance.getEntriesByName('first-contentful-paint')[0]"
                    " || {startTime: NaN}).startTime"
                )
            )
            if run == 0:
                page.wait_for_load_state("networkidle")
                weight = page.evaluate(WEIGHT)
            # Ann taps her red 5: it flies from her hand to the pile
            page.wait_for_selector(".hand-card.playable[data-code='R5']")
            page.wait_for_timeout(300)  # the first table's own motion and layout settle
            page.evaluate(ANIMATION, game.version + 1)
            page.click(".hand-card.playable[data-code='R5']")
            animations["own tap"].append(landed(page))
            # the AI's turn goes by (played by the worker), then Bob's card flies from his seat
            page.wait_for_function("() => document.body.dataset.owing === '2'", timeout=60_000)
            version = int(page.get_attribute("body", "data-version") or 0)
            page.wait_for_timeout(300)
            page.evaluate(ANIMATION, version + 1)
            colour = page.get_attribute("#colour", "data-colour") or ""
            card = next((c for c in BOB_HAND.split() if c[0] == colour), "W")
            scene.bob_plays(game, f"p.{card}", version)
            animations["Bob's card"].append(landed(page))
        finally:
            context.close()
    return {
        "painted": painted,
        "contentful": contentful,
        "weight": weight,
        "animations": animations,
    }


def lighthouse(url: str, keep: str | None) -> dict[str, Any] | str:
    if not LIGHTHOUSE.exists():
        return "not installed: npm ci --prefix bench"
    with tempfile.TemporaryDirectory() as out:
        report = Path(out) / "report.json"
        done = subprocess.run(
            [
                str(LIGHTHOUSE),
                url,
                "--output=json",
                f"--output-path={report}",
                "--quiet",
                "--only-categories=performance,accessibility,best-practices",
                "--chrome-flags=--headless=new --no-sandbox",
            ],
            env={**os.environ, "CHROME_PATH": CHROMIUM},
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0 or not report.exists():
            return f"failed: {done.stderr.strip()[-400:]}"
        if keep:
            Path(keep).write_text(report.read_text())
        categories = json.loads(report.read_text())["categories"]
        audits = json.loads(report.read_text())["audits"]
        failing = [
            k
            for k, a in audits.items()
            if a.get("score") is not None
            and a["score"] < 0.9
            and a.get("scoreDisplayMode") == "binary"
        ]
        scores: dict[str, Any] = {k: round(v["score"] * 100) for k, v in categories.items()}
        scores["failing"] = failing
        return scores


def report(figures: dict[str, Any], scores: dict[str, Any] | str, runs: int) -> None:
    def line(name: str, value: str, goal: str, met: bool | None) -> None:
        mark = "" if met is None else ("  met" if met else "  MISSED")
        print(f"  {name:<44} {value:>16}   goal {goal}{mark}")

    painted = statistics.median(figures["painted"]) / 1000
    fcp = statistics.median(figures["contentful"]) / 1000
    print(f"Mini App page, 390×844, CPU throttled 4×, {runs} cold opens")
    line("open → first table painted (median)", f"{painted:.2f} s", "≤ 1.0 s", painted <= 1.0)
    spread = ", ".join(f"{p / 1000:.2f}" for p in figures["painted"])
    print(f"    each open: {spread} s; baseline first contentful paint (median) {fcp:.2f} s")
    total = sum(size for _, size, _ in figures["weight"])
    raw = sum(decoded for _, _, decoded in figures["weight"])
    line(
        "page weight, first load, compressed",
        f"{total / 1000:.1f} KB",
        "≤ 150 KB",
        total <= 150_000,
    )
    print(f"    ({raw / 1000:.1f} KB decoded; no web fonts: the system's)")
    for path, size, decoded in sorted(figures["weight"], key=lambda w: -w[1]):
        print(f"      {path:<40} {size / 1000:7.1f} KB  ({decoded / 1000:.1f} KB)")
    for what, samples in figures["animations"].items():
        longs = [d for s in samples for d in s["long"]]
        fps = statistics.median(s["fps"] for s in samples)
        ms = statistics.median(s["ms"] for s in samples)
        line(f"{what}: long tasks > 50 ms", f"{len(longs)}", "none", not longs)
        if longs:
            print(f"    their lengths: {', '.join(f'{d:.0f}' for d in longs)} ms")
        line(f"{what}: frames per second (median)", f"{fps:.1f}", "≥ 55", fps >= 55)
        renders = [f"{r:.0f}" for s in samples for r in s.get("renders", [])]
        print(f"    tables drawn in that window: {', '.join(renders)} ms each")
        print(f"    over {ms:.0f} ms (median) from the table to the card's landing")
    lobby = figures["lobby"]
    painted = statistics.median(lobby["painted"]) / 1000
    fcp = statistics.median(lobby["contentful"]) / 1000
    line("open → lobby painted (median)", f"{painted:.2f} s", "≤ 1.0 s", painted <= 1.0)
    spread = ", ".join(f"{p / 1000:.2f}" for p in lobby["painted"])
    print(f"    each open: {spread} s; baseline first contentful paint (median) {fcp:.2f} s")
    slot = 60 / Settings().bot_group_messages_per_minute
    joined = statistics.median(lobby["joins"])
    line(
        "join in the app → chat's lobby shows it (median)",
        f"{joined:.2f} s",
        f"≤ {slot:.1f} s (a group slot)",
        joined <= slot,
    )
    each = ", ".join(
        f"{j:.2f} ({s:.1f})" for j, s in zip(lobby["joins"], lobby["since"], strict=True)
    )
    print(f"    each join: {each} s (the chat polled every {CHAT_POLL_SECONDS * 1000:.0f} ms)")
    print(
        "    (in brackets: the press this long after the lobby's post, the group's previous"
        f" write; sooner than {slot:.1f} s, the edit waits for the group's next slot)"
    )
    if isinstance(scores, str):
        print(f"  Lighthouse: {scores}")
        return
    for key, goal in (("performance", 90), ("accessibility", 95), ("best-practices", 95)):
        value = scores.get(key, 0)
        line(f"Lighthouse mobile {key}", f"{value}", f"≥ {goal}", value >= goal)
    if scores.get("failing"):
        print(f"    audits not passed: {', '.join(scores['failing'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--lighthouse-report", help="keep Lighthouse's JSON report here")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    log_dir = Path(tempfile.mkdtemp(prefix="mini-app-page-bench-"))
    stack = start_stack(args.redis, log_dir, bot_username="uno_page_bench_bot")
    webapp = None
    try:
        webapp = start_webapp(
            "webapp", args.redis, stack.engine_url, stack.bot_api_url, stack.token, log_dir
        )
        scene = Scene(stack, f"{webapp.url}/")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
            try:
                figures = measure(browser, scene, args.runs)
                # then the bot, at the group pace a deployment keeps, posting the lobbies
                # with the app's link (the table's figures are taken without it, as ever)
                stack.start_bot("bot", UNO_WEBAPP_PUBLIC_URL=f"{webapp.url}/")
                figures["lobby"] = measure_lobby(browser, LobbyScene(stack), args.runs)
            finally:
                browser.close()
        started = time.monotonic()
        scores = lighthouse(scene.url(scene.deal()), args.lighthouse_report)
        print(f"(Lighthouse ran {time.monotonic() - started:.0f} s)")
        report(figures, scores, args.runs)
    finally:
        if webapp is not None:
            webapp.stop()
        stack.stop()


if __name__ == "__main__":
    main()
