"""One person flooding the bot while other groups play, against the local Telegram with
Telegram's flood limits on (bench/telegram_load.py's stack, people and measures).

A few 4-player Classic games are played from private hands, one move every ``--pace``
seconds each (telegram_load.Load). One more group has a game of its own whose first
player floods: ``--floods`` times in the measured window, 100 commands (/help) in their
group and 100 presses of a stale button on their private hand, all within one second.
The same games are measured first with no flood (the baseline), then with it, in the same
run. Prints, for the playing groups: the press-answer p99 (the press sent to the local
Telegram until the bot's answerCallbackQuery reached it; goal ≤ 1 s, Telegram gives up
after about 15 s) and the press-to-table p99 (goal ≤ 4 s); and the flooding person's
metered calls (messages and edits in their group and their private chat) beside what
their chats' budgets allow over the window (goal: within them), with the answers their
presses got.

    .venv/bin/python bench/bot_flood.py [--games 4] [--pace 4] [--seconds 30]
        [--floods 3] [--redis redis://127.0.0.1:6379/13]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.percentiles import percentile  # noqa: E402
from bench.stopping import STOP, until_stopped  # noqa: E402
from bench.telegram_load import (  # noqa: E402
    METERED,
    Game,
    Load,
    control_for,
    measure,
    ms,
    running_load,
)
from harness.processes import stop_signals_interrupt  # noqa: E402
from services.bot.ratelimit import GROUP, PRIVATE  # noqa: E402
from services.presentation.callbacks import Callback, Kind  # noqa: E402

GOAL_ANSWER_P99_S = 1.0
GOAL_TABLE_P99_S = 4.0
FLOOD_COMMANDS = 100
FLOOD_PRESSES = 100
#: A flood's press not answered by then is counted as unanswered (the cooldown answers one).
UNANSWERED_AFTER_S = 3.0
FLOOD_THREADS = ThreadPoolExecutor(FLOOD_COMMANDS + FLOOD_PRESSES)


class TimedLoad(Load):
    """telegram_load's people, with every press's wait for its answer timed."""

    def __init__(self, load: Load) -> None:
        super().__init__(load.stack, load.hand, load.pace)
        self.feed = load.feed
        self.answers: list[tuple[int, float, float]] = []  # (user, pressed at, seconds)

    async def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if name != "press_button":
            return await super().call(name, *args, **kwargs)
        began = time.time()
        result = await super().call(name, *args, **kwargs)
        self.answers.append((int(args[0]), began, time.time() - began))
        return result


def budget(seconds: float, group: bool) -> float:
    """The most messages a chat's bucket lets through over ``seconds`` (ratelimit.py)."""
    bucket = GROUP if group else PRIVATE
    return bucket.burst + seconds / bucket.interval


async def flood(load: TimedLoad, game: Game, within: float = 1.0) -> Counter[str]:
    """``game``'s first player's 100 commands and 100 stale presses in ``within`` seconds;
    what their presses were answered."""
    user = game.people[0]["id"]
    assert game.info is not None
    hand = load.feed.hand(user)
    assert hand is not None, "the flooder's hand"
    stale = Callback(Kind.ACT, game.info.game_id, 0, "d").encode()  # version 0: long gone
    loop = asyncio.get_running_loop()
    url = load.stack.telegram_url

    async def flood_call(name: str, *args: Any, **kwargs: Any) -> Any:
        # Threads of the flood's own, not timed: the other groups' people keep theirs.
        return await loop.run_in_executor(
            FLOOD_THREADS, lambda: getattr(control_for(url), name)(*args, **kwargs)
        )

    async def command(at: float) -> None:
        await asyncio.sleep(at)
        await flood_call("send_message", user, game.chat_id, "/help")

    async def press(at: float) -> str:
        await asyncio.sleep(at)
        answer = await flood_call(
            "press_button", user, load.stack.bot_id, hand.message_id, stale, forged=True,
            timeout=UNANSWERED_AFTER_S,
        )  # fmt: skip
        return str(answer.get("text") or "(empty)") if answer.get("answered") else "(unanswered)"

    total = FLOOD_COMMANDS + FLOOD_PRESSES
    steps = [n * within / total for n in range(total)]
    jobs = [command(at) for at in steps[::2]] + [press(at) for at in steps[1::2]]
    done = await asyncio.gather(*jobs, return_exceptions=True)
    return Counter(d if isinstance(d, str) else type(d).__name__ for d in done[FLOOD_COMMANDS:])


async def window(
    load: TimedLoad, seconds: float, flooder: Game | None, floods: int
) -> dict[str, Any]:
    """Play on for ``seconds`` (flooding ``floods`` times if ``flooder``); the measures."""
    seq0 = load.feed.last_seq
    began = time.time()
    answered: Counter[str] = Counter()

    async def floods_now() -> None:
        assert flooder is not None
        for n in range(floods):
            await asyncio.sleep(seconds / floods / 2 if n == 0 else seconds / floods)
            answered.update(await flood(load, flooder))

    task = asyncio.create_task(floods_now()) if flooder is not None else None
    shown = await measure(load, seconds, (0, 0))
    if task is not None:
        if STOP.by:  # the window ended at the stop: so do its floods
            task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    ended = began + (shown.seconds if STOP.by else seconds)
    players = {p["id"] for g in load.games for p in g.people}
    answers = [s for u, at, s in load.answers if u in players and began <= at < ended]
    flooder_calls = {"group": 0, "private": 0}
    if flooder is not None:
        user = flooder.people[0]["id"]
        for call in await load.call("calls", token=load.stack.token, since=seq0):
            method = str(call["method"]).lower()
            if not call.get("ok") or not method.startswith(METERED):
                continue
            if not began <= call["time"] < ended:
                continue
            if call.get("chat_id") == flooder.chat_id:
                flooder_calls["group"] += 1
            elif call.get("chat_id") == user:
                flooder_calls["private"] += 1
    return {
        "answer_p99": percentile(answers, 0.99) if answers else math.nan,
        "presses": len(answers),
        "table_p99": shown.quantile(0.99),
        "turns": shown.turns,
        "late": shown.late,
        "too_many": shown.too_many,
        "flooder": flooder_calls,
        "answered": answered,
        "seconds": shown.seconds,
    }


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(base: dict[str, Any], flooded: dict[str, Any], floods: int) -> None:
    def row(name: str, key: str, goal: float) -> None:
        a, b = base[key], flooded[key]
        print(f"{name:<26}{ms(a):>12}{ms(b):>12}   ≤ {goal:g} s  {verdict(b <= goal)}")

    print(f"{'':<26}{'baseline':>12}{'flooded':>12}   goal")
    row("press answer p99", "answer_p99", GOAL_ANSWER_P99_S)
    row("press → table p99", "table_p99", GOAL_TABLE_P99_S)
    print(
        f"{'presses / turns shown':<26}{base['presses']:>6} / {base['turns']:<4}"
        f"{flooded['presses']:>6} / {flooded['turns']:<4}"
    )
    print(f"{'late (> 10 s) / 429s':<26}{base['late']:>6} / {base['too_many']:<4}"
          f"{flooded['late']:>6} / {flooded['too_many']:<4}")  # fmt: skip
    seconds = flooded["seconds"]
    calls = flooded["flooder"]
    group, private = budget(seconds, True), budget(seconds, False)
    print(
        f"flooder ({floods} × {FLOOD_COMMANDS} commands + {FLOOD_PRESSES} presses in 1 s): "
        f"metered calls in their group {calls['group']} (budget {group:.0f} over "
        f"{seconds:.0f} s) {verdict(calls['group'] <= group)}, in their private chat "
        f"{calls['private']} (budget {private:.0f}) {verdict(calls['private'] <= private)}"
    )
    print("their presses were answered: " + ", ".join(
        f"{n} × {text!r}" for text, n in flooded["answered"].most_common()
    ))  # fmt: skip


async def run(args: argparse.Namespace) -> None:
    flooded: dict[str, Any] | None = None
    async with running_load("private", args.pace, args.redis) as plain:
        load = TimedLoad(plain)
        try:
            flooder = await load.open_game()  # not played: its first player floods
            await load.add_games(args.games)
            await asyncio.sleep(max(args.pace, 3.0))
            print("  baseline window", file=sys.stderr, flush=True)
            base = await window(load, args.seconds, None, 0)
            if not STOP.by:
                print("  flooded window", file=sys.stderr, flush=True)
                flooded = await window(load, args.seconds, flooder, args.floods)
        finally:
            await load.stop()
    if flooded is None or STOP.by:
        report_window("flooded" if flooded else "baseline", flooded or base)
        return
    report(base, flooded, args.floods)


def report_window(name: str, w: dict[str, Any]) -> None:
    """One window's figures: a run stopped before it could compare the two."""
    print(
        f"{name} window, {w['seconds']:.0f} s before the stop: press answered p99 "
        f"{ms(w['answer_p99'])} of {w['presses']} presses, press → table p99 "
        f"{ms(w['table_p99'])} ({w['turns']} turns, {w['late']} late, {w['too_many']} 429s)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--pace", type=float, default=4.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--floods", type=int, default=3)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    args = parser.parse_args(argv)
    stop_signals_interrupt()
    with until_stopped():
        asyncio.run(run(args))
    if STOP.by:
        print(f"\nstopped by {STOP.by}; every process the bench started is stopped")


if __name__ == "__main__":
    main()
