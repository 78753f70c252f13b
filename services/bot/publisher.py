"""Publishing a game in its chat from the engine's event log: the redraw path's modules,
put together once per bot process (README "The redraw path" says what each owns).

``Publisher`` only wires them and offers the few doors the handlers use: an entry of the
log (``on_entry``), a render of a game's current state (``render``, after /new), a private
hand (``show_hand``, on a press), every known game after a gap (``rerender_known_games``).
"""

from __future__ import annotations

from services.bot.background import Background
from services.bot.hands import Hands
from services.bot.intake import Intake
from services.bot.memory import Memory
from services.bot.notices import Notices
from services.bot.nudges import Nudges
from services.bot.outbox import Outbox
from services.bot.table import REPOST_AFTER, Table
from services.bot.tidying import Tidying
from services.engine.client import EngineClient
from services.presentation.screens.mini_app import MiniApp


class Publisher:
    def __init__(
        self,
        engine: EngineClient,
        memory: Memory,
        outbox: Outbox,
        mini_app: MiniApp | None = None,
        *,
        repost_after: int = REPOST_AFTER,
        quiet_seconds: float = 0.0,
    ) -> None:
        self.mini_app = mini_app  # what its buttons open (/replay's too)
        self.background = Background()
        self.notices = Notices(engine, memory, outbox, mini_app)
        self.tidying = Tidying(memory, outbox, self.background)
        self.hands = Hands(engine, memory, outbox, self.notices, mini_app)
        self.table = Table(
            engine,
            memory,
            outbox,
            self.background,
            self.tidying,
            mini_app,
            repost_after=repost_after,
        )
        self.nudges = Nudges(engine, memory, outbox)
        self.intake = Intake(
            engine,
            memory,
            outbox,
            self.background,
            table=self.table,
            hands=self.hands,
            notices=self.notices,
            nudges=self.nudges,
            quiet_seconds=quiet_seconds,
        )
        self.on_entry = self.intake.on_entry
        self.render = self.intake.render
        self.rerender_known_games = self.intake.rerender_known_games
        self.show_hand = self.hands.show_hand
