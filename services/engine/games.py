"""The service's operations on one game: read, decide, compare-and-set (stateless).

Each operation loads the record, lets the game record (game_record.py: seats, the lobby)
or the rules engine decide, and writes the result with the version it read as the expected
version (store.py). Nothing is held between requests, so any number of service processes can
serve the same games.

- Lobby operations carry no version from the client: on a lost compare-and-set they read
  again and retry, since "join" or "start" means the same whatever happened meanwhile.
- Actions carry the version the player saw: a different version is a 409, never a guess.
- An action id already applied by the same actor (the game remembers its recent ones, per
  actor: a seat, or the service) returns that first result again, whether the repeat
  arrives after or during the first one's write.
- Deadlines (RULES.md §7 "Timing in a chat", §2 "UNO") are recorded with every write; see
  README.md "Timers".
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from services.engine import game_record
from services.engine.game_export import BY_PLAYER, BY_SERVICE, BY_STAND_IN, Move
from services.engine.game_record import SERVICE_ACTOR, GameError, GameRecord, GameStatus, seat_actor
from services.engine.rules import (
    Action,
    ActionType,
    EventType,
    GameState,
    Options,
    Rejected,
    Setup,
    SetupError,
    apply,
    from_json,
    from_setup,
    legal_actions,
    to_json,
    view,
)
from services.engine.store import (
    ChatOp,
    ChatTaken,
    GameStore,
    Missing,
    Stale,
    WriteResult,
    Written,
    seated_users,
)

#: Actions that settle no decision: the one owed before is owed after them, with the time
#: it had left (a UNO call must not buy its caller a fresh turn time).
DECISION_UNCHANGED = frozenset(
    {
        ActionType.CALL_UNO,
        ActionType.CATCH,
        ActionType.CLOSE_UNO_WINDOW,
        ActionType.FROZEN_MOVED,
    }
)

#: A lobby write that loses a compare-and-set this many times in a row gives up (409).
LOBBY_RETRIES = 8


@dataclass(frozen=True, slots=True)
class Timing:
    """How long decisions may take (services/config.py holds the defaults; a game's own
    turn time and UNO window, when it has them, come first)."""

    away_pause_seconds: float
    uno_window_seconds: float
    #: a human who has not acted this long into a decision is reminded of it (0: never)
    turn_nudge_seconds: float = 0.0

    def uno_delay(self, record: GameRecord) -> float:
        """How long a UNO window opened in this game stays open: the chat's own window,
        chosen when the game was created, else the service's."""
        if record.uno_window_seconds is not None:
            return float(record.uno_window_seconds)
        return self.uno_window_seconds


@dataclass(frozen=True, slots=True)
class Outcome:
    """An applied action: the game after it, the acting seat (None: the service itself),
    the version it produced and every event it published (unredacted; the HTTP layer
    redacts them for the caller)."""

    record: GameRecord
    seat: int | None
    version: int
    events: list[dict[str, Any]]
    duplicate: bool = False


def new_game_id() -> str:
    """12 URL-safe characters: short enough for Telegram's 64-byte callback data."""
    return secrets.token_urlsafe(9)


def no_such_game(game_id: str) -> GameError:
    return GameError(404, "no_such_game", f"no game {game_id!r} (unknown or expired)")


def chat_busy(game_id: str) -> GameError:
    return GameError(
        409,
        "chat_busy",
        "this chat (topic) already has another game in progress: finish or end it first",
        game_id=game_id,
    )


def stale(record: GameRecord) -> GameError:
    return GameError(
        409,
        "stale_version",
        f"the game has moved on to version {record.version}",
        current_version=record.version,
    )


def require_playing_at(record: GameRecord, version: int) -> None:
    """409 unless ``version`` is the record's current one and a round is being played."""
    if record.version != version:
        raise stale(record)
    record.require_status(GameStatus.PLAYING)


def parse_action(seat: int, code: str) -> Action:
    try:
        action = Action.from_code(seat, code)
    except ValueError as e:  # NotationError is a ValueError
        raise GameError(422, "bad_action_code", str(e), reason="bad_action_code") from None
    if action.type in (ActionType.CLOSE_UNO_WINDOW, ActionType.FROZEN_MOVED):
        raise GameError(
            422, "illegal_action", "only the service takes this action", reason="system_only"
        )
    return action


def _move(record: GameRecord, seat: int | None, action: Action, stand_in: bool) -> Move:
    """The history's entry for an action (game_export.py): who made it and its code; an AI
    seat's own moves (made through the stand-in's route) are its player's."""
    if seat is None:
        return Move(None, action.code, BY_SERVICE)
    by_stand_in = stand_in and record.seats[seat].ai is None
    return Move(seat, action.code, BY_STAND_IN if by_stand_in else BY_PLAYER)


def _moves_after(record: GameRecord, move: Move) -> str:
    return f"{record.moves} {move.stored()}" if record.moves else move.stored()


def check_playable(state: GameState) -> None:
    """Raise unless the service can serve this state: a card to play on, every view and
    every seat's legal actions computable, and the stored form reads back the same. A
    set-up (the test-only endpoint) is checked whole before anything is stored."""
    if not state.discard:
        raise SetupError("no card to play on: give a discard pile, or a draw pile to turn up")
    for seat in (None, *range(len(state.players))):
        view(state, seat).to_json()
        if seat is not None:
            legal_actions(state, seat)
    if from_json(to_json(state)) != state:
        raise SetupError("the set-up does not survive storage")


class Games:
    def __init__(self, store: GameStore, timing: Timing) -> None:
        self.store = store
        self.timing = timing

    # -- reading -----------------------------------------------------------------------

    async def get(self, game_id: str) -> GameRecord:
        record = await self.store.load(game_id)
        if record is None:
            raise no_such_game(game_id)
        return record

    async def live_game(self, chat_id: int, topic_id: int) -> GameRecord:
        game_id = await self.store.live_game_id(chat_id, topic_id)
        record = await self.store.load(game_id) if game_id is not None else None
        if record is None or not record.status.live:
            raise GameError(404, "no_live_game", "this chat has no game in progress")
        return record

    async def user_games(self, user_id: int) -> list[GameRecord]:
        """The live games ``user_id`` holds a seat in (one not left)."""
        return await self.store.user_games(user_id)

    # -- the lobby ---------------------------------------------------------------------

    async def create(
        self,
        chat_id: int,
        topic_id: int,
        host_user_id: int,
        host_name: str,
        variant: str,
        turn_seconds: int,
        rules: Options,
        uno_window_seconds: int | None = None,
    ) -> GameRecord:
        record, events = game_record.new_lobby(
            new_game_id(),
            chat_id,
            topic_id,
            host_user_id,
            host_name,
            variant,
            turn_seconds,
            rules,
            uno_window_seconds,
        )
        await self._create(record, events)
        return record

    async def create_from_setup(
        self,
        chat_id: int,
        topic_id: int,
        seats: tuple[game_record.Seat, ...],
        setup: Setup,
        turn_seconds: int,
        uno_window_seconds: int | None = None,
    ) -> GameRecord:
        """A game already in play from an explicit table (the test-only endpoint)."""
        if len(setup.hands) != len(seats):
            raise GameError(422, "bad_setup", "the set-up must deal one hand per seat")
        if setup.names is None:
            setup = replace(setup, names=[s.name for s in seats])
        try:
            state, engine_events = from_setup(setup)
            check_playable(state)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:  # SetupError too
            raise GameError(422, "bad_setup", f"bad set-up: {e}") from None
        host = next((s.user_id for s in seats if s.user_id is not None), None)
        if host is None:
            raise GameError(422, "bad_setup", "at least one seat must be a human")
        record = GameRecord(
            id=new_game_id(),
            version=1,
            chat_id=chat_id,
            topic_id=topic_id,
            host=host,
            status=GameStatus.PLAYING if state.pending is not None else GameStatus.OVER,
            variant=state.variant,
            turn_seconds=turn_seconds,
            rules=state.options,
            seats=seats,
            state=replace(state, version=1),
            uno_opened=1 if state.uno_window is not None else None,
            uno_window_seconds=uno_window_seconds,
        )
        events = [
            {"type": "game_created", "host": host, "variant": state.variant},
            {"type": "game_started", "players": len(seats)},
            *(e.to_json() for e in engine_events),
        ]
        await self._create(record, events)
        return record

    async def _write_new(self, record: GameRecord, events: list[dict[str, Any]]) -> WriteResult:
        """Write a game that does not exist yet, claiming its chat in the same write."""
        return await self.store.write(
            record,
            expected_version=0,
            events=events,
            chat=ChatOp.CLAIM,
            **self._deadlines(None, record),
        )

    async def _create(self, record: GameRecord, events: list[dict[str, Any]]) -> None:
        result = await self._write_new(record, events)
        if isinstance(result, ChatTaken):
            raise GameError(
                409,
                "game_exists",
                "this chat (topic) already has a game in progress",
                game_id=result.game_id,
            )
        if not isinstance(result, Written):  # a fresh random id cannot exist already
            raise GameError(409, "game_exists", "a game with this id already exists")

    async def change(
        self,
        game_id: str,
        decide: Callable[[GameRecord], tuple[GameRecord, list[dict[str, Any]]] | None],
    ) -> GameRecord:
        """Apply a lobby decision (``None``: nothing to change) with retries on a lost CAS."""
        for _ in range(LOBBY_RETRIES):
            record = await self.get(game_id)
            decided = decide(record)
            if decided is None:
                return record
            new, events = decided
            result = await self._write(record, new, events)
            if isinstance(result, Written):
                return new
            if isinstance(result, Missing):
                raise no_such_game(game_id)
        raise GameError(409, "busy", "the game changed too often meanwhile; try again")

    async def rematch(self, game_id: str, user_id: int, vote: bool) -> tuple[GameRecord, bool]:
        """A player's vote on a rematch of a finished game (RULES.md §7 "Rematch"); the
        finished game as it is after the vote, and whether this call made the new game.

        [decision] The vote that completes it writes two keys, which no one script can
        write together since the new game's lies elsewhere: so the new game comes first,
        under an id derived from the old one's (``rematch_id``), and claiming the chat
        with it is what decides whether the chat is free; then the old game's vote and
        ``next_game_id``, compare-and-set. A lost race or a crash between the two leaves
        the vote unwritten and the new game in place: the vote sent again (or the other
        last vote) finds the game made already and writes the old record to agree with it,
        so neither write is ever half-done, and the chat never gets two rematches."""
        created = False
        for _ in range(LOBBY_RETRIES):
            record = await self.get(game_id)
            new, events = game_record.vote_rematch(record, user_id, vote)
            await self._require_chat_free(record)
            next_id = new.rematch.next_game_id
            if next_id is not None:
                made = await self._create_rematch(new)
                created = created or made is None
                if made is not None:
                    # Made by the same vote sent before (or at the same moment): what it
                    # made stands, and this write says what that game is.
                    voted_yes = made.seat_of(user_id) is not None
                    if voted_yes != vote:
                        raise GameError(
                            409,
                            "already_voted",
                            f"user {user_id} has voted already",
                            current_version=record.version,
                        )
            result = await self._write(record, new, events)
            if isinstance(result, Written):
                return new, created
            if isinstance(result, Missing):
                raise no_such_game(game_id)
        raise GameError(409, "busy", "the game changed too often meanwhile; try again")

    async def _require_chat_free(self, record: GameRecord) -> None:
        """409 ``chat_busy`` when the finished game's chat (topic) has another live game
        than its rematch."""
        live_id = await self.store.live_game_id(record.chat_id, record.topic_id)
        if live_id is None or live_id == game_record.rematch_id(record.id):
            return
        live = await self.store.load(live_id)
        if live is not None and live.status.live:
            raise chat_busy(live_id)

    async def _create_rematch(self, finished: GameRecord) -> GameRecord | None:
        """Create the rematch ``finished`` names; None when created now, else the game that
        was there already under its id."""
        record, events = game_record.rematch_game(finished, secrets.randbits(63))
        result = await self._write_new(record, events)
        if isinstance(result, Written):
            return None
        if isinstance(result, ChatTaken):
            raise chat_busy(result.game_id)
        return await self.get(record.id)

    # -- actions -----------------------------------------------------------------------

    async def act(
        self, game_id: str, user_id: int, code: str, version: int, action_id: str
    ) -> Outcome:
        """A player's own action (RULES.md §2-§6 decide whether it is legal)."""
        seen = self.store.last_seen(game_id)
        if seen is not None and seen.version == version:
            # The record this process saw at the player's version is what Redis holds if
            # the game is still there: skip the read; the compare-and-set checks it.
            try:
                return await self._act(seen, user_id, code, version, action_id)
            except GameError:
                pass  # any refusal is answered from what Redis holds now (stale first)
        return await self._act(await self.get(game_id), user_id, code, version, action_id)

    async def _act(
        self, record: GameRecord, user_id: int, code: str, version: int, action_id: str
    ) -> Outcome:
        seat = record.require_seat(user_id)
        actor = seat_actor(seat)
        duplicate = await self._duplicate(record, actor, action_id, seat)
        if duplicate is not None:
            return duplicate
        require_playing_at(record, version)
        action = parse_action(seat, code)
        return await self._settle(record, seat, action, actor, action_id, stand_in=False)

    async def stand_in_turn(self, game_id: str, version: int) -> tuple[GameRecord, int]:
        """The seat owing the decision at ``version`` (RULES.md §7), or 409 when stale."""
        record = await self.get(game_id)
        require_playing_at(record, version)
        owing = record.owing
        assert owing is not None  # PLAYING means a decision is owed
        return record, owing

    async def stand_in_act(self, game_id: str, version: int, code: str, action_id: str) -> Outcome:
        """The stand-in's move for the seat owing the decision at ``version``."""
        record = await self.get(game_id)
        owing = record.owing
        duplicate = await self._duplicate(record, SERVICE_ACTOR, action_id, owing)
        if duplicate is not None:
            return duplicate
        require_playing_at(record, version)
        assert owing is not None  # PLAYING means a decision is owed
        action = parse_action(owing, code)
        return await self._settle(record, owing, action, SERVICE_ACTOR, action_id, stand_in=True)

    async def frozen_moved(self, game_id: str, version: int, seat: int, action_id: str) -> Outcome:
        """RULES.md §6 (Minions' Dumb Fu): the bot saw the frozen player move; the rules
        decide whether it costs them (422 ``not_frozen`` otherwise)."""
        record = await self.get(game_id)
        duplicate = await self._duplicate(record, SERVICE_ACTOR, action_id, None)
        if duplicate is not None:
            return duplicate
        require_playing_at(record, version)
        action = Action(ActionType.FROZEN_MOVED, target=seat)
        return await self._settle(record, None, action, SERVICE_ACTOR, action_id, stand_in=False)

    async def close_uno_window(self, game_id: str, opened_version: int, action_id: str) -> Outcome:
        """The UNO window's timer (RULES.md §2 "UNO"): close it iff the window opened at
        ``opened_version`` is still the open one."""
        for _ in range(LOBBY_RETRIES):
            record = await self.get(game_id)
            duplicate = await self._duplicate(record, SERVICE_ACTOR, action_id, None)
            if duplicate is not None:
                return duplicate
            state = record.state
            if (
                record.status is not GameStatus.PLAYING
                or state is None
                or state.uno_window is None
                or record.uno_opened != opened_version
            ):
                raise GameError(
                    409,
                    "window_not_open",
                    f"the UNO window opened at version {opened_version} is not open",
                    current_version=record.version,
                )
            close = Action(ActionType.CLOSE_UNO_WINDOW)
            outcome = await self._commit(record, None, close, SERVICE_ACTOR, action_id)
            if isinstance(outcome, Outcome):
                return outcome
        raise GameError(409, "busy", "the game changed too often meanwhile; try again")

    async def _settle(
        self,
        record: GameRecord,
        seat: int | None,
        action: Action,
        actor: str,
        action_id: str,
        *,
        stand_in: bool,
    ) -> Outcome:
        """Commit an action bound to the version read (``seat`` None: the service's own)."""
        outcome = await self._commit(record, seat, action, actor, action_id, stand_in=stand_in)
        if isinstance(outcome, Outcome):
            return outcome
        # Lost the compare-and-set: a repeat of this very action may have won it.
        fresh = await self.get(record.id)
        duplicate = await self._duplicate(fresh, actor, action_id, seat)
        if duplicate is not None:
            return duplicate
        raise stale(fresh)

    async def _commit(
        self,
        record: GameRecord,
        seat: int | None,
        action: Action,
        actor: str,
        action_id: str,
        *,
        stand_in: bool = False,
    ) -> Outcome | Stale:
        state = record.require_state()
        # A fresh seed for the next round in case this action deals it: drawn here, never
        # before it is needed, so no round's seed says anything of another's.
        next_seed = secrets.randbits(63)
        result = apply(state, action, next_seed)
        if isinstance(result, Rejected):
            raise GameError(
                422,
                "illegal_action",
                result.message,
                reason=result.reason.value,
                current_version=record.version,
            )
        new_state, engine_events = result
        events: list[dict[str, Any]] = []
        seats = record.seats
        if seat is not None:
            if stand_in:
                seats, events = game_record.after_stand_in(record, seat)
            else:
                seats, events = game_record.after_own_action(record, seat)
        seats = game_record.finished_turns(seats, new_state)
        events += [e.to_json() for e in engine_events]
        version = record.version + 1
        opened = any(e.type is EventType.UNO_WINDOW_OPENED for e in engine_events)
        if new_state.uno_window is None:
            uno_opened = None
        else:
            uno_opened = version if opened else record.uno_opened
        new = record.bumped(
            state=new_state,
            seats=seats,
            status=GameStatus.PLAYING if new_state.pending is not None else GameStatus.OVER,
            uno_opened=uno_opened,
            recent=game_record.remember(record, actor, action_id, version),
            seeds=(*record.seeds, next_seed) if new_state.round != state.round else record.seeds,
            moves=_moves_after(record, _move(record, seat, action, stand_in)),
        )
        # A UNO call, a catch, a window's close or a frozen player's penalty settles nothing
        # owed: the decision still owed keeps the time it had left (RULES.md §7).
        same_decision = action.type in DECISION_UNCHANGED and new_state.pending == state.pending
        written = await self._write(record, new, events, keep_turn_due=same_decision)
        if isinstance(written, Written):
            return Outcome(new, seat, version, events)
        if isinstance(written, Missing):
            raise no_such_game(record.id)
        assert isinstance(written, Stale)
        return written

    async def _duplicate(
        self, record: GameRecord, actor: str, action_id: str, seat: int | None
    ) -> Outcome | None:
        version = record.recent_version(actor, action_id)
        if version is None:
            return None
        # [decision] The first result's events come from the event log; once the log has
        # trimmed that write (README.md "Events"), the repeat is answered with the same
        # version and no events, still applied once: the caller renders the current view.
        stored = await self.store.events_of_version(record.id, version)
        return Outcome(record, seat, version, [s.event for s in stored], duplicate=True)

    # -- writing -----------------------------------------------------------------------

    async def _write(
        self,
        old: GameRecord,
        new: GameRecord,
        events: list[dict[str, Any]],
        *,
        keep_turn_due: bool = False,
    ) -> Written | Stale | Missing:
        result = await self.store.write(
            new,
            expected_version=old.version,
            events=events,
            chat=ChatOp.KEEP if new.status.live else ChatOp.RELEASE,
            keep_turn_due=keep_turn_due,
            seated_before=seated_users(old),
            **self._deadlines(old, new),
        )
        assert not isinstance(result, ChatTaken)  # only a creation claims the chat
        return result

    def _deadlines(self, old: GameRecord | None, new: GameRecord) -> dict[str, Any]:
        """README.md "Timers": the decision owed at the new version times out after the
        game's turn time, or after the short pause when a stand-in plays that seat anyway;
        a human owing it is reminded of it after the nudge time (or half the turn time);
        a UNO window opened by this write closes after the game's UNO window time."""
        turn_delay: float | None = None
        owing = new.owing
        if new.status is GameStatus.PLAYING and owing is not None:
            turn_delay = (
                self.timing.away_pause_seconds
                if new.seats[owing].stood_in_at_once
                else float(new.turn_seconds)
            )
        nudge_delay: float | None = None
        if (
            turn_delay is not None
            and owing is not None
            and self.timing.turn_nudge_seconds > 0
            and new.seats[owing].user_id is not None
            and not new.seats[owing].stood_in_at_once
        ):
            # Half the turn time, if that is sooner: a short turn is reminded before it ends.
            nudge_delay = min(self.timing.turn_nudge_seconds, new.turn_seconds / 2)
        uno_delay: float | None = None
        if new.status is GameStatus.PLAYING and new.uno_opened == new.version:
            uno_delay = self.timing.uno_delay(new)
        old_opened = old.uno_opened if old is not None else None
        drop = old_opened if old_opened is not None and old_opened != new.uno_opened else None
        return {
            "turn_delay": turn_delay,
            "uno_delay": uno_delay,
            "drop_uno_version": drop,
            "nudge_delay": nudge_delay,
        }
