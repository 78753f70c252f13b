"""The publisher never shows a table older than what it tells: a render that finds the
game's state newer than the log entries the bot has noted waits for them, so a round's
first table tells none of the last round's moves (services/bot/README.md "Rendering").

The real publisher and the bot's memory on the test Redis; the engine's answers are a
rules-library state as the wire carries it, and the outbox records what would be sent."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from services.bot.logreader import LogEntry
from services.bot.memory import Memory
from services.bot.outbox import Outcome
from services.bot.publisher import Publisher
from services.bot.telegram_html import telegram_html
from services.engine.client import PlayerView
from services.engine.rules import Action, Applied, Setup, apply, from_setup
from services.engine.rules.state import GameState
from services.presentation.rich import Rich
from tests.helpers.engine_views import GAME_ID, engine_view, game_info


@dataclass
class Facts:
    two_sided: bool = False


class Engine:
    """The engine's answers about one game, whose state the test sets."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    async def spectator_view(self, game_id: str) -> PlayerView:
        return PlayerView(game=game_info(self.state), seat=None, view=engine_view(self.state, None))

    async def game(self, game_id: str) -> Any:
        return game_info(self.state)

    async def variant(self, name: str) -> Facts:
        return Facts()


@dataclass
class Sent:
    message_id: int


class Outbox:
    """Telegram as the publisher's one sending path sees it: every group slot free."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def go_now(self, chat_id: int) -> bool:
        return True

    async def take_now(self, chat_id: int, *, spare: int = 0) -> bool:
        return True

    async def room(self, chat_id: int, *, spare: int = 0) -> float:
        return 0.0

    async def send(self, chat_id: int, text: Rich | str, *args: Any, **kw: Any) -> Sent:
        self.texts.append(telegram_html(text))
        return Sent(100 + len(self.texts))

    async def edit(
        self, chat_id: int, message_id: int, text: Rich | str, *args: Any, **kw: Any
    ) -> Any:
        self.texts.append(telegram_html(text))
        return Outcome.SHOWN

    async def delete_many(self, chat_id: int, message_ids: list[int], **kw: Any) -> bool:
        return True

    async def delete(self, chat_id: int, message_id: int) -> None:
        return None


def public(events: tuple[Any, ...]) -> list[dict[str, Any]]:
    return [{"type": e.type.value, **e.data} for e in events if e.to is None]


async def test_a_rounds_first_table_tells_none_of_the_last_rounds_moves(memory: Memory) -> None:
    """RULES.md §2 "End of a round": the card that ends round 1 deals round 2 in the same
    write. A render begun for the move before it finds round 2 already dealt while the
    log's entry of that write is still on its way: its table waits for it."""
    state, _ = from_setup(
        Setup(hands=["R2 R5", "R7 B2 Y9"], discard="R1", current=0, draw_pile="G1 G2 G3")
    )
    played = apply(state, Action.from_code(0, "p.R2"))
    assert isinstance(played, Applied)
    answered = apply(played.state, Action.from_code(1, "p.R7"))
    assert isinstance(answered, Applied)
    won = apply(answered.state, Action.from_code(0, "p.R5"))
    assert isinstance(won, Applied)
    assert won.state.round == 2
    engine, outbox = Engine(won.state), Outbox()
    publisher = Publisher(engine, memory, outbox)  # type: ignore[arg-type]
    await memory.redis.delete(Memory.game_key(GAME_ID), Memory.moves_key(GAME_ID))
    await memory.remember_game(GAME_ID, -100, 0, "Friday UNO", "en", table_message=7)

    def entry(result: Applied) -> LogEntry:
        version = result.state.version
        return LogEntry("s", f"{version}-0", GAME_ID, version, public(result.events))

    for result in (played, answered):
        # The bot read these entries; the render of the second one starts as round 2 is
        # already dealt, its entry not yet noted.
        await memory.note_entry(GAME_ID, result.state.version, entry(result).events, 3)
    rendering = asyncio.create_task(publisher.render(GAME_ID, answered.state.version))
    await asyncio.sleep(0.3)
    await publisher.on_entry(entry(won))  # the render under way shows it
    await rendering
    tables = [t for t in outbox.texts if "🎴" in t]
    assert tables and all("round 2" in t for t in tables), outbox.texts
    assert not any("played" in t for t in tables), tables
    scores = next(n for n, t in enumerate(outbox.texts) if "Round 1 goes to" in t)
    assert scores < outbox.texts.index(tables[0])  # the scores first, round 2's table below


async def test_a_table_write_tells_every_move_since_the_last_one(memory: Memory) -> None:
    """Four moves made while the table waited for the group's budget: its next write tells
    all four, so every change of a hand's size has its line (the last three moves alone
    would leave the first card told by no table)."""
    state, _ = from_setup(
        Setup(hands=["R1 R2 R4 R5", "R6 R7 R8 R9"], discard="R3", current=0, draw_pile="G1 G2")
    )
    engine, outbox = Engine(state), Outbox()
    publisher = Publisher(engine, memory, outbox)  # type: ignore[arg-type]
    await memory.redis.delete(Memory.game_key(GAME_ID), Memory.moves_key(GAME_ID))
    await memory.remember_game(GAME_ID, -100, 0, "Friday UNO", "en", table_message=7)
    await publisher.on_entry(LogEntry("s", "1-0", GAME_ID, state.version, []))
    # Another replica's render holds the game meanwhile (its write waiting for the slot).
    await memory.claim_render(GAME_ID, state.version + 1, "another replica", 10_000)
    for seat, code in ((0, "p.R1"), (1, "p.R6"), (0, "p.R2"), (1, "p.R7")):
        result = apply(state, Action.from_code(seat, code))
        assert isinstance(result, Applied)
        state = engine.state = result.state
        entry = LogEntry("s", f"{state.version}-0", GAME_ID, state.version, public(result.events))
        assert not await publisher.on_entry(entry)  # noted, left to the render under way
    await memory.drop_lock(GAME_ID, "another replica")
    await publisher.render(GAME_ID, state.version)
    told = outbox.texts[-1].translate(dict.fromkeys(map(ord, "\u2068\u2069"))).split("\n")[-1]
    for line in ("P0 played 🟥 1", "P1 played 🟥 6", "P0 played 🟥 2", "P1 played 🟥 7"):
        assert line in told, told
