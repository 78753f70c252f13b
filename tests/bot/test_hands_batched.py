"""A render reads the group's table and every private hand from one engine request (the
engine's batched views, as the Mini App reads a game), not one request for the table and
one more per hand (services/bot/README.md "The redraw path").

The real publisher and the bot's memory on the test Redis; the engine is a double that
answers from a rules-library state as the wire carries it and counts the requests."""

from __future__ import annotations

from typing import Any

from services.bot.memory import Memory
from services.bot.publisher import Publisher
from services.engine.client import PlayerView, ViewOf, ViewsOf
from services.engine.rules import Setup, from_setup
from services.engine.rules.state import GameState
from tests.bot.test_publisher_order import Facts, Outbox
from tests.helpers.engine_views import GAME_ID, engine_view, game_info


class CountingEngine:
    """The engine's answers about one game; ``requests`` names each view request made."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.requests: list[str] = []

    async def spectator_view(self, game_id: str) -> PlayerView:
        self.requests.append("spectator_view")
        return PlayerView(game=game_info(self.state), seat=None, view=engine_view(self.state, None))

    async def view(self, game_id: str, user_id: int) -> PlayerView:
        self.requests.append("view")
        seat = user_id - 1  # game_info seats user i + 1 in seat i
        return PlayerView(game=game_info(self.state), seat=seat, view=engine_view(self.state, seat))

    async def views(self, game_id: str, user_ids: list[int], *, spectator: bool = False) -> ViewsOf:
        self.requests.append("views")
        return ViewsOf(
            game=game_info(self.state),
            views=[
                ViewOf(user_id=u, seat=u - 1, view=engine_view(self.state, u - 1)) for u in user_ids
            ],
            spectator=engine_view(self.state, None) if spectator else None,
        )

    async def game(self, game_id: str) -> Any:
        return game_info(self.state)

    async def variant(self, name: str) -> Facts:
        return Facts()


def three_players() -> GameState:
    state, _ = from_setup(
        Setup(hands=["R2 R5", "R7 B2 Y9", "G1 G4"], discard="R1", current=0, draw_pile="G2 G3")
    )
    return state


async def test_a_render_reads_the_table_and_every_private_hand_in_one_request(
    memory: Memory,
) -> None:
    state = three_players()
    engine, outbox = CountingEngine(state), Outbox()
    publisher = Publisher(engine, memory, outbox)  # type: ignore[arg-type]
    await memory.remember_game(GAME_ID, -100, 0, "Friday", "en", table_message=50)
    for user in (1, 2, 3):
        await memory.set_hand_message(GAME_ID, user, 60 + user, "")
    assert await publisher.render(GAME_ID, state.version)
    assert engine.requests == ["views"]
    hands = [t for t in outbox.texts if "Friday" in t]
    assert len(outbox.texts) == 4 and len(hands) == 3, outbox.texts  # the table, 3 hands


async def test_a_game_without_private_hands_reads_only_the_table(memory: Memory) -> None:
    state = three_players()
    engine, outbox = CountingEngine(state), Outbox()
    publisher = Publisher(engine, memory, outbox)  # type: ignore[arg-type]
    await memory.remember_game(GAME_ID, -100, 0, "Friday", "en", table_message=50)
    assert await publisher.render(GAME_ID, state.version)
    assert engine.requests == ["spectator_view"]
    assert len(outbox.texts) == 1
