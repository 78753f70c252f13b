"""Replays and the check of a game's deals: how fast, each figure beside a baseline of the
same run and its goal.

1. Verifying a game (``game_export.replay``, what ``python -m services.engine.verify`` and
   the replay page's check run): time per round over ``--games`` AI games per variant
   (bench/archive_size.py's), beside applying the same moves with no check at all.
2. The replay page (services/webapp/static/replay.html) at a phone's size (390×844, touch),
   Debian's Chromium with its CPU slowed 4× (CDP ``Emulation.setCPUThrottlingRate``): the
   page opened to its first position painted (goal ≤ 1.0 s), beside the same page opened on
   a game still played (refused: the page and its scripts, no replay); and stepping a move
   (goal ≤ 50 ms), beside one animation frame alone. The game is a round of two players
   played through the real engine and Mini App, opened as the local Telegram opens the
   Replay button's direct link.

    .venv/bin/python bench/replay.py --games 20 --opens 10 --steps 60
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.archive_size import play
from bench.percentiles import percentile
from harness.rounds import play_a_round
from harness.services import ENGINE_TOKEN, start_webapp
from harness.stack import start_stack
from services.engine.client import EngineClient
from services.engine.game_export import ExportSeat, build, replay
from services.engine.rules import VARIANTS, Applied, Options, apply, new_game

PHONE: Any = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
CHROMIUM = "/usr/bin/chromium"
OPEN_GOAL_MS = 1000.0
STEP_GOAL_MS = 50.0
#: The page's performance mark for each state it ends its opening in (replay.js).
MARKS = {"ready": "replay-first-position", "refused": "replay-refused"}
#: One animation frame, then the tasks it let run: when what a click changed is painted.
FRAME = "() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))"


def verifying(games: int, players: int) -> None:
    print(f"1. verifying a game: {games} games per variant, {players} AI players (random)")
    print(f"{'variant':<10} {'rounds':>6} | verify ms/round med max | baseline (moves alone)")
    for variant in sorted(VARIANTS):
        checked, applied, rounds = [], [], []
        for g in range(games):
            seeds, history = play(variant, players, "random", g)
            seats = [ExportSeat(f"P{i}") for i in range(players)]
            export = build(f"g{g}", variant, Options(), seats, seeds, history)
            start = time.perf_counter()
            replay(export)
            checked.append((time.perf_counter() - start) * 1000 / len(seeds))
            start = time.perf_counter()
            state, _ = new_game(variant, [s.name or "" for s in seats], seed=seeds[0])
            for move in history:
                number = state.round
                next_seed = seeds[number] if number < len(seeds) else None
                result = apply(state, move.action(), next_seed)
                assert isinstance(result, Applied)
                state = result.state
            applied.append((time.perf_counter() - start) * 1000 / len(seeds))
            rounds.append(len(seeds))
        print(
            f"{variant:<10} {statistics.median(rounds):>6.0f} |"
            f" {statistics.median(checked):>12.2f} {max(checked):>6.2f} |"
            f" {statistics.median(applied):>8.2f} {max(applied):>6.2f}"
        )


def _ms(values: list[float]) -> str:
    return f"p50 {percentile(values, 0.5):7.1f} ms  p99 {percentile(values, 0.99):7.1f} ms"


def page_figures(opens: int, steps: int, redis_url: str) -> None:
    from playwright.sync_api import sync_playwright

    log_dir = Path(tempfile.mkdtemp(prefix="replay-bench-"))
    stack = start_stack(redis_url, log_dir, bot_username="uno_bench_replay_bot")
    webapp = None
    try:
        stack.control.set_limits(False)
        webapp = start_webapp(
            "webapp", redis_url, stack.engine_url, stack.bot_api_url, stack.token, log_dir
        )
        stack.control.register_web_app(stack.token, "replay", f"{webapp.url}/replay")
        control = stack.control
        people = [control.create_user(n, username=None) for n in ("Ann", "Bob")]
        chat = control.create_group("UNO bench", [p["id"] for p in people], bots=[stack.token])
        chat_id = int(chat["id"])
        players = [(int(p["id"]), str(p["first_name"])) for p in people]

        # the refused page's game: dealt in another group of the same people, not played
        other = control.create_group("UNO bench 2", [p["id"] for p in people], bots=[stack.token])
        other_id = int(other["id"])

        async def games() -> tuple[str, str]:
            async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
                done = await play_a_round(engine, chat_id, players)
                live = await engine.create_game(other_id, *players[0])
                await engine.join(live.game_id, *players[1])
                await engine.start(live.game_id, players[0][0])
                return done.game_id, live.game_id

        finished, running = asyncio.run(games())

        def launch(game_id: str, chat: int) -> str:
            link = f"https://t.me/{stack.username}/replay?startapp={game_id}"
            opened = control.open_web_app(people[1]["id"], "direct_link", link=link, chat_id=chat)
            return str(opened["url"])

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)

            def open_page(url: str, state: str) -> tuple[Any, float]:
                """A new page at ``url`` on the slowed CPU; when its mark was made."""
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
                page.goto(url)
                page.wait_for_selector(f"body[data-state='{state}']")
                mark = MARKS[state]
                at: float = page.evaluate(
                    "(m) => performance.getEntriesByName(m)[0].startTime", mark
                )
                return page, at

            painted, refused = [], []
            positions = 0
            for _ in range(opens):
                page, at = open_page(launch(finished, chat_id), "ready")
                painted.append(at)
                positions = int(page.locator("#position").get_attribute("max") or 0) + 1
                page.close()
                page, at = open_page(launch(running, other_id), "refused")
                refused.append(at)
                page.close()
            page, _ = open_page(launch(finished, chat_id), "ready")
            stepped: list[float] = page.evaluate(
                f"""async (n) => {{
                  const frame = {FRAME};
                  const out = [];
                  for (let i = 0; i < n; i++) {{
                    const t = performance.now();
                    document.getElementById("forward").click();
                    await frame();
                    out.push(performance.now() - t);
                  }}
                  return out;
                }}""",
                steps,
            )
            frames: list[float] = page.evaluate(
                f"""async (n) => {{
                  const frame = {FRAME};
                  const out = [];
                  for (let i = 0; i < n; i++) {{
                    const t = performance.now();
                    await frame();
                    out.push(performance.now() - t);
                  }}
                  return out;
                }}""",
                steps,
            )
            browser.close()
        print(
            f"\n2. the replay page: phone {PHONE['width']}x{PHONE['height']}, CPU slowed "
            f"{CPU_SLOWDOWN}x, a round of 2 players ({positions} positions), {opens} opens, "
            f"{steps} steps"
        )
        print(f"open -> first position painted   {_ms(painted)}   goal <= {OPEN_GOAL_MS:.0f} ms")
        print(f"baseline: open -> refusal shown  {_ms(refused)}")
        print(f"stepping a move (click -> frame) {_ms(stepped)}   goal <= {STEP_GOAL_MS:.0f} ms")
        print(f"baseline: one frame alone        {_ms(frames)}")
    finally:
        if webapp is not None:
            webapp.terminate()
        stack.stop()
        if webapp is not None:
            webapp.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="AI games per variant")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opens", type=int, default=10, help="page opens measured")
    parser.add_argument("--steps", type=int, default=60, help="moves stepped")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--no-page", action="store_true", help="the verifier's figures only")
    args = parser.parse_args()
    verifying(args.games, args.players)
    if not args.no_page:
        page_figures(args.opens, args.steps, args.redis)


if __name__ == "__main__":
    main()
