"""A round played as the service plays it, for the tests and benches that need a finished
game with a history to replay (a game made from a test set-up has none): the lobby made, the
seats taken and the deal made by the engine from a fresh seed, then each decision owed made
as a chat press would make it, straight to the engine."""

from __future__ import annotations

from services.engine.client import (
    EngineClient,
    GameInfo,
    IllegalAction,
    StaleVersion,
)
from services.engine.rules import Options


def preferred(legal: list[str]) -> str:
    """A move that brings a round to its end: a card played when one can be (a wild's
    colour chosen at once), else a draw, else whatever is owed."""
    for prefix in ("p.", "c.", "k", "d", "a"):
        for code in legal:
            if code.startswith(prefix):
                return code
    return legal[0]


async def play_a_round(
    engine: EngineClient, chat_id: int, players: list[tuple[int, str]], *, moves: int | None = None
) -> GameInfo:
    """A Classic game of ``players`` (user id, name) in ``chat_id``, to one round (target
    score 1): played out to its end, or ended by its host after ``moves`` moves. The chat's
    earlier game, if any, is ended first. A move the game moved past meanwhile (the service
    closing an UNO window) is chosen again."""
    users = dict(enumerate(user for user, _ in players))
    host, host_name = players[0]
    existing = await engine.chat_game(chat_id)
    if existing is not None:
        await engine.end(existing.game_id, existing.host, admin=True)
    game = await engine.create_game(
        chat_id, host, host_name, turn_seconds=3600, rules=Options(target_score=1)
    )
    for user, name in players[1:]:
        await engine.join(game.game_id, user, name)
    game = await engine.start(game.game_id, host)
    made = 0
    while game.status == "playing" and (moves is None or made < moves):
        seen = await engine.spectator_view(game.game_id)
        assert seen.view is not None and seen.view.pending is not None
        owing = users[seen.view.pending.player]
        mine = await engine.view(game.game_id, owing)
        assert mine.view is not None
        code = preferred(mine.view.legal)
        try:
            await engine.act(
                game.game_id, owing, code, version=mine.game.version, action_id=f"r{made}"
            )
            made += 1
        except (StaleVersion, IllegalAction):
            pass
        assert made < 3000, "the round does not end"
        game = await engine.game(game.game_id)
    if game.status == "playing":
        game = await engine.end(game.game_id, host)
    return game
