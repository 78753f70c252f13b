"""A game as the service keeps it: the seats around the rules engine's state, and the lobby.

The rules engine knows seats only by number. The service owns who sits there (RULES.md §7
"Timing in a chat"): a Telegram user, or an AI player added by the host; whether a human is
away (their decisions are made by a stand-in at once) and how many deadlines in a row they
missed. It also owns the lobby (create, join, leave, add an AI seat, set options, start,
end), the chat (and forum topic) the game lives in, and who is out of the game: a player
removed with /kick, or who left the chat (``Removal``), is refused every move and seat
until the service says otherwise, whichever front asks.

Everything here is pure: functions take a ``GameRecord`` and return a new one with the
service events to publish, or raise ``GameError``. The HTTP layer reads, calls these, and
compare-and-sets the result (store.py).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from services.engine.rules import (
    VARIANTS,
    GameState,
    Options,
    PendingKind,
    Setup,
    SetupError,
    from_json,
    from_setup,
    new_game,
    options_to_json,
    to_json,
)
from services.engine.wire.schemas import AiLevel

#: The actor of the service's own actions (timers, stand-ins, reported frozen moves); a
#: player's actor is their seat (``seat_actor``). Action ids are remembered per actor.
SERVICE_ACTOR = "service"

#: Misses in a row after which a player is marked away (RULES.md §7).
MISSES_BEFORE_AWAY = 2

#: How many recent action ids a game remembers to answer a repeat with the first result.
#: [decision] A bounded ring inside the game record rather than one Redis key per action:
#: memory per live game stays constant however long the game runs, and the ring is written
#: in the same compare-and-set as the state, so "applied once" needs no second key.
RECENT_ACTIONS = 8


class GameStatus(StrEnum):
    LOBBY = "lobby"  # seats are being filled
    PLAYING = "playing"
    OVER = "over"  # the rules ended it: somebody won
    ENDED = "ended"  # ended early by the host or a chat admin, or abandoned

    @property
    def live(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.PLAYING)


class GameError(Exception):
    """A request the game cannot honour; ``status`` is the HTTP status it maps to."""

    def __init__(self, status: int, error: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.extra = extra


class RemovalReason(StrEnum):
    """Why a person is out of a game: the reason code every refusal of theirs carries."""

    KICKED = "kicked"  # removed by the host or a chat admin (/kick): out for good
    LEFT_GROUP = "left_group"  # left the game's chat, or was removed from it: until back


@dataclass(frozen=True, slots=True)
class Removal:
    """A person out of a game: who removed them (``by``; None: they left the chat by
    themselves) and when (unix seconds, the service's clock: the pure record takes it as
    given)."""

    user_id: int
    reason: RemovalReason
    at: int
    by: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"user_id": self.user_id, "reason": self.reason.value, "at": self.at}
        if self.by is not None:
            out["by"] = self.by
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> Removal:
        return Removal(
            user_id=d["user_id"], reason=RemovalReason(d["reason"]), at=d["at"], by=d.get("by")
        )

    def refusal(self, current_version: int) -> GameError:
        """403 ``seat_removed``, with ``reason``: what any request of theirs as a player
        (a move, a view of their hand, joining, "I'm back", leaving) is answered."""
        return GameError(
            403,
            "seat_removed",
            f"user {self.user_id} is out of this game ({self.reason.value})",
            reason=self.reason.value,
            current_version=current_version,
        )


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: a human (``user_id``) or an AI player (``ai``), never both."""

    name: str
    user_id: int | None = None
    ai: AiLevel | None = None
    away: bool = False
    missed: int = 0
    left: bool = False  # a human who left a game in progress: the stand-in plays for them
    # The stand-in took this seat's missed turn and finishes it (RULES.md §7): what that
    # turn still owes (the card just drawn, a colour, a swap target) is decided after the
    # short pause and counts no second miss.
    finishing_turn: bool = False

    @property
    def stood_in_at_once(self) -> bool:
        """Whether this seat's decisions are made by the stand-in after the short pause."""
        return self.ai is not None or self.away or self.left or self.finishing_turn

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.user_id is not None:
            out["user_id"] = self.user_id
        if self.ai is not None:
            out["ai"] = self.ai
        if self.away:
            out["away"] = True
        if self.missed:
            out["missed"] = self.missed
        if self.left:
            out["left"] = True
        if self.finishing_turn:
            out["finishing_turn"] = True
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> Seat:
        return Seat(
            name=d["name"],
            user_id=d.get("user_id"),
            ai=d.get("ai"),
            away=d.get("away", False),
            missed=d.get("missed", 0),
            left=d.get("left", False),
            finishing_turn=d.get("finishing_turn", False),
        )


@dataclass(frozen=True, slots=True)
class Rematch:
    """A finished game's vote on playing again (RULES.md §7 "Rematch"): who said yes and
    who no, in the order they voted, and the game it started (None: not started)."""

    yes: tuple[int, ...] = ()
    no: tuple[int, ...] = ()
    next_game_id: str | None = None

    def voted(self, user_id: int) -> bool:
        return user_id in self.yes or user_id in self.no

    def to_json(self) -> dict[str, Any]:
        return {"yes": list(self.yes), "no": list(self.no), "next_game_id": self.next_game_id}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Rematch:
        return Rematch(
            yes=tuple(d.get("yes", ())),
            no=tuple(d.get("no", ())),
            next_game_id=d.get("next_game_id"),
        )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything the service stores for one game (one Redis key, see store.py)."""

    id: str
    version: int
    chat_id: int
    topic_id: int
    host: int  # user id of the host
    status: GameStatus
    variant: str
    turn_seconds: int
    rules: Options
    seats: tuple[Seat, ...]
    state: GameState | None = None
    # The version at which the UNO window now open was opened (the timer names it).
    uno_opened: int | None = None
    # (digest of actor and action id, version it produced), newest last.
    recent: tuple[tuple[str, int], ...] = ()
    # The chat's own UNO window (RULES.md §2 "UNO"); None: the service's, when it opens.
    uno_window_seconds: int | None = None
    # The people out of this game (kicked, or gone from its chat), one entry each. A
    # removed seat stays (left: the stand-in plays it) in a game in play; in a lobby it
    # goes, and the entry alone keeps them from taking one again.
    removed: tuple[Removal, ...] = ()
    # The game's history, what its export replays (game_export.py, docs/EXPORT.md): each
    # round's seed, drawn by the service as the round is dealt, and every move in the
    # compact form of ``game_export.Move.stored``, space-separated. Kept in the record,
    # which only the engine reads: a seed leaves it in ``round_ended`` once its round is
    # over. [decision] One string, not a list: a record is encoded and decoded whole at
    # every write, and one string of a long game's 900 moves costs some 30 µs to encode and
    # 12 µs to decode where a list of them costs about twice that.
    seeds: tuple[int, ...] = ()
    moves: str = ""
    # A finished game's vote on a rematch (empty until somebody votes).
    rematch: Rematch = Rematch()

    # -- identity --------------------------------------------------------------------

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    def removal_of(self, user_id: int) -> Removal | None:
        """Why ``user_id`` is out of this game, if they are."""
        for removal in self.removed:
            if removal.user_id == user_id:
                return removal
        return None

    def require_seat(self, user_id: int) -> int:
        """The seat ``user_id`` plays; 403 ``seat_removed`` (with the reason) when they are
        out of the game, ``not_a_player`` when they never had one."""
        removal = self.removal_of(user_id)
        if removal is not None:
            raise removal.refusal(self.version)
        seat = self.seat_of(user_id)
        if seat is None:
            raise GameError(403, "not_a_player", f"user {user_id} has no seat in this game")
        return seat

    def require_host_or_admin(self, user_id: int, admin: bool) -> None:
        if user_id != self.host and not admin:
            raise GameError(403, "not_the_host", "only the host (or a chat admin) may do this")

    def require_status(self, *allowed: GameStatus) -> None:
        if self.status in allowed:
            return
        messages = {
            GameStatus.LOBBY: ("not_started", "the game has not started yet"),
            GameStatus.PLAYING: ("already_started", "the game has already started"),
            GameStatus.OVER: ("game_over", "the game is over"),
            GameStatus.ENDED: ("game_ended", "the game was ended"),
        }
        error, message = messages[self.status]
        raise GameError(409, error, message, current_version=self.version)

    def require_state(self) -> GameState:
        if self.state is None:
            raise GameError(409, "not_started", "the game has not started yet")
        return self.state

    @property
    def owing(self) -> int | None:
        """The seat owing the pending decision (None: not started, or over)."""
        state = self.state
        return state.pending.player if state is not None and state.pending is not None else None

    # -- idempotency -----------------------------------------------------------------

    def recent_version(self, actor: str, action_id: str) -> int | None:
        """The version the actor's action ``action_id`` produced, if the game remembers it."""
        key = action_digest(actor, action_id)
        for digest, version in reversed(self.recent):
            if digest == key:
                return version
        return None

    # -- the next version ------------------------------------------------------------

    def bumped(self, **changes: Any) -> GameRecord:
        """A copy at version + 1 (the engine state, if any, carries the same version)."""
        version = self.version + 1
        state = changes.get("state", self.state)
        if state is not None and state.version != version:
            changes["state"] = replace(state, version=version)
        return replace(self, version=version, **changes)

    # -- storage form ----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "version": self.version,
            "chat_id": self.chat_id,
            "topic_id": self.topic_id,
            "host": self.host,
            "status": self.status.value,
            "variant": self.variant,
            "turn_seconds": self.turn_seconds,
            "rules": options_to_json(self.rules),
            "seats": [s.to_json() for s in self.seats],
        }
        if self.state is not None:
            out["state"] = to_json(self.state)
        if self.uno_opened is not None:
            out["uno_opened"] = self.uno_opened
        if self.recent:
            out["recent"] = [list(r) for r in self.recent]
        if self.uno_window_seconds is not None:
            out["uno_window_seconds"] = self.uno_window_seconds
        if self.removed:
            out["removed"] = [r.to_json() for r in self.removed]
        if self.seeds:
            out["seeds"] = list(self.seeds)
        if self.moves:
            out["moves"] = self.moves
        if self.rematch != Rematch():
            out["rematch"] = self.rematch.to_json()
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> GameRecord:
        state = d.get("state")
        return GameRecord(
            id=d["id"],
            version=d["version"],
            chat_id=d["chat_id"],
            topic_id=d["topic_id"],
            host=d["host"],
            status=GameStatus(d["status"]),
            variant=d["variant"],
            turn_seconds=d["turn_seconds"],
            rules=Options(**d.get("rules", {})),
            seats=tuple(Seat.from_json(s) for s in d["seats"]),
            state=from_json(state) if state is not None else None,
            uno_opened=d.get("uno_opened"),
            recent=tuple((r[0], r[1]) for r in d.get("recent", ())),
            uno_window_seconds=d.get("uno_window_seconds"),
            removed=tuple(Removal.from_json(r) for r in d.get("removed", ())),
            seeds=tuple(d.get("seeds", ())),
            moves=d.get("moves", ""),
            rematch=Rematch.from_json(d["rematch"]) if "rematch" in d else Rematch(),
        )


def seat_actor(seat: int) -> str:
    return f"seat:{seat}"


def action_digest(actor: str, action_id: str) -> str:
    """A short fixed-size stand-in for an actor's action id (48 bits: a collision among the
    few ids a game remembers is not a practical concern).

    [decision] Ids are scoped to their actor, a seat or the service: one actor's id never
    answers for another's, so a player who sends the id a timer will use cannot make that
    timer a "duplicate", nor can one player's id swallow another player's move."""
    return hashlib.blake2b(f"{actor}\n{action_id}".encode(), digest_size=6).hexdigest()


def remember(
    record: GameRecord, actor: str, action_id: str, version: int
) -> tuple[tuple[str, int], ...]:
    recent = (*record.recent, (action_digest(actor, action_id), version))
    return recent[-RECENT_ACTIONS:]


# -- the lobby ---------------------------------------------------------------------------

Events = list[dict[str, Any]]


def check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise GameError(422, "unknown_variant", f"no variant {variant!r} (known: {known})")


def check_rules(rules: Options) -> None:
    if rules.target_score is not None and rules.target_score <= 0:
        raise GameError(422, "bad_options", "the target score must be positive")


def max_players(variant: str) -> int:
    return VARIANTS[variant].max_players


def new_lobby(
    game_id: str,
    chat_id: int,
    topic_id: int,
    host_user_id: int,
    host_name: str,
    variant: str,
    turn_seconds: int,
    rules: Options,
    uno_window_seconds: int | None = None,
) -> tuple[GameRecord, Events]:
    check_variant(variant)
    check_rules(rules)
    record = GameRecord(
        id=game_id,
        version=1,  # version 0 is "no game"; event ids are "<version>-<n>" and 0-0 is invalid
        chat_id=chat_id,
        topic_id=topic_id,
        host=host_user_id,
        status=GameStatus.LOBBY,
        variant=variant,
        turn_seconds=turn_seconds,
        rules=rules,
        seats=(Seat(name=host_name, user_id=host_user_id),),
        uno_window_seconds=uno_window_seconds,
    )
    return record, [{"type": "game_created", "host": host_user_id, "variant": variant}]


def join(record: GameRecord, user_id: int, name: str) -> tuple[GameRecord, Events] | None:
    """Take a seat; ``None`` when the user already has one (joining twice changes nothing)."""
    record.require_status(GameStatus.LOBBY)
    removal = record.removal_of(user_id)
    if removal is not None:
        raise removal.refusal(record.version)
    if record.seat_of(user_id) is not None:
        return None
    if len(record.seats) >= max_players(record.variant):
        raise GameError(409, "game_full", "every seat is taken")
    seats = (*record.seats, Seat(name=name, user_id=user_id))
    event = {"type": "player_joined", "seat": len(seats) - 1, "user_id": user_id, "name": name}
    return record.bumped(seats=seats), [event]


def add_ai(
    record: GameRecord, user_id: int, admin: bool, level: AiLevel, name: str | None
) -> tuple[GameRecord, Events]:
    record.require_host_or_admin(user_id, admin)
    record.require_status(GameStatus.LOBBY)
    if len(record.seats) >= max_players(record.variant):
        raise GameError(409, "game_full", "every seat is taken")
    n_ai = sum(1 for s in record.seats if s.ai is not None)
    seat = Seat(name=name or f"AI {n_ai + 1}", ai=level)
    seats = (*record.seats, seat)
    event = {"type": "ai_added", "seat": len(seats) - 1, "ai": level, "name": seat.name}
    return record.bumped(seats=seats), [event]


def leave(record: GameRecord, user_id: int) -> tuple[GameRecord, Events]:
    """Leave the lobby (the seat goes), or a game in progress (the stand-in plays on for
    them). [decision] The host's role passes to the next human; when no human is left the
    game ends, since nobody is there to see it."""
    record.require_status(GameStatus.LOBBY, GameStatus.PLAYING)
    seat = record.require_seat(user_id)
    return _vacate(record, seat, {"type": "player_left", "seat": seat, "user_id": user_id})


def _vacate(
    record: GameRecord, seat: int, event: dict[str, Any] | None, **changes: Any
) -> tuple[GameRecord, Events]:
    """``seat``'s player gone (``event`` says so; None: it was left already): in a lobby
    the seat goes, in play the stand-in keeps it; the host's role passes on, and a game with
    no human left ends."""
    events: Events = [event] if event is not None else []
    user_id = record.seats[seat].user_id
    if record.status is GameStatus.LOBBY:
        seats = record.seats[:seat] + record.seats[seat + 1 :]
    else:
        seats = tuple(
            replace(s, left=True, away=True) if i == seat else s for i, s in enumerate(record.seats)
        )
    humans = [s for s in seats if s.user_id is not None and not s.left]
    if not humans:
        events.append({"type": "game_ended", "reason": "abandoned"})
        return (
            record.bumped(seats=seats, status=GameStatus.ENDED, uno_opened=None, **changes),
            events,
        )
    host = record.host
    if host == user_id:
        host = humans[0].user_id or host
        events.append({"type": "host_changed", "host": host})
    return record.bumped(seats=seats, host=host, **changes), events


# -- who is out of a game ------------------------------------------------------------------


def _removed(record: GameRecord, removal: Removal) -> tuple[Removal, ...]:
    """The record's removals with ``removal`` in place of any earlier one of that person."""
    return (*(r for r in record.removed if r.user_id != removal.user_id), removal)


def _remove(record: GameRecord, removal: Removal) -> tuple[GameRecord, Events]:
    """``removal`` written into the record: a seat still played is left to the stand-in (a
    ``player_left`` event with the reason, as a player's own leaving reads), one left
    already (or none, in a lobby) only remembered."""
    removed = _removed(record, removal)
    seat = record.seat_of(removal.user_id)
    if seat is None or record.seats[seat].left:
        return record.bumped(removed=removed), []
    event: dict[str, Any] = {
        "type": "player_left",
        "seat": seat,
        "user_id": removal.user_id,
        "reason": removal.reason.value,
    }
    if removal.by is not None:
        event["by"] = removal.by
    return _vacate(record, seat, event, removed=removed)


def kick(
    record: GameRecord, user_id: int, admin: bool, target: int, at: int
) -> tuple[GameRecord, Events] | None:
    """The host or a chat admin removes ``target`` from the game for good (/kick): their
    seat goes to the stand-in (in a lobby, it goes), and every move, view of their hand,
    join and "I'm back" of theirs is refused ``seat_removed``/``kicked`` from then on.
    ``None`` when they were kicked already."""
    record.require_host_or_admin(user_id, admin)
    record.require_status(GameStatus.LOBBY, GameStatus.PLAYING)
    earlier = record.removal_of(target)
    if earlier is not None and earlier.reason is RemovalReason.KICKED:
        return None
    if record.seat_of(target) is None:
        raise GameError(403, "not_a_player", f"user {target} has no seat in this game")
    return _remove(record, Removal(target, RemovalReason.KICKED, at=at, by=user_id))


def left_group(
    record: GameRecord, user_id: int, at: int, by: int | None = None
) -> tuple[GameRecord, Events] | None:
    """``user_id`` left the game's chat (or ``by`` removed them from it): out of the game,
    as a kick, until ``rejoined_group``. ``None`` for a person with no seat (a spectator is
    Telegram's to judge), or one out already (Telegram tells of one departure twice)."""
    record.require_status(GameStatus.LOBBY, GameStatus.PLAYING)
    if record.removal_of(user_id) is not None or record.seat_of(user_id) is None:
        return None
    return _remove(record, Removal(user_id, RemovalReason.LEFT_GROUP, at=at, by=by))


def rejoined_group(record: GameRecord, user_id: int) -> tuple[GameRecord, Events] | None:
    """``user_id`` is back in the game's chat: a departure no longer holds them out.
    [decision] The seat stays the stand-in's until they take it back themselves ("I'm
    back", or any move of theirs: RULES.md §7), as a player who left with /leave does; a
    kick still holds. ``None`` when nothing held them out for leaving."""
    removal = record.removal_of(user_id)
    if not record.status.live or removal is None or removal.reason is not RemovalReason.LEFT_GROUP:
        return None
    removed = tuple(r for r in record.removed if r.user_id != user_id)
    return record.bumped(removed=removed), []


def set_options(
    record: GameRecord,
    user_id: int,
    admin: bool,
    variant: str | None,
    turn_seconds: int | None,
    rules: Options | None,
) -> tuple[GameRecord, Events]:
    record.require_host_or_admin(user_id, admin)
    record.require_status(GameStatus.LOBBY)
    new_variant = variant if variant is not None else record.variant
    check_variant(new_variant)
    new_rules = rules if rules is not None else record.rules
    check_rules(new_rules)
    if len(record.seats) > max_players(new_variant):
        raise GameError(409, "too_many_players", f"{new_variant} seats fewer players than joined")
    new = record.bumped(
        variant=new_variant,
        turn_seconds=turn_seconds if turn_seconds is not None else record.turn_seconds,
        rules=new_rules,
    )
    event = {
        "type": "options_changed",
        "variant": new.variant,
        "turn_seconds": new.turn_seconds,
        "rules": options_to_json(new.rules),
    }
    return new, [event]


def start(
    record: GameRecord,
    user_id: int,
    admin: bool,
    seed: int | None = None,
    dealt: Setup | None = None,
) -> tuple[GameRecord, Events]:
    """Deal (RULES.md §2 "Deal"); the engine's own events follow the service's. ``dealt``:
    the first round's cards fixed in advance (the test endpoints only), dealt to the lobby's
    seats under its own variant and rules."""
    record.require_host_or_admin(user_id, admin)
    record.require_status(GameStatus.LOBBY)
    if seed is None:
        # The first round's seed, fresh (game_export.py); each later round draws its own.
        seed = secrets.randbits(63)
    try:
        if dealt is None:
            state, engine_events = new_game(
                record.variant, [s.name for s in record.seats], record.rules, seed=seed
            )
        else:
            if len(dealt.hands) != len(record.seats):
                raise SetupError("the fixed deal must deal one hand per seat")
            state, engine_events = from_setup(
                replace(
                    dealt,
                    variant=record.variant,
                    names=[s.name for s in record.seats],
                    options=record.rules,
                    seed=seed,
                )
            )
    except SetupError as e:
        raise GameError(422, "cannot_start", str(e)) from None
    events: Events = [{"type": "game_started", "players": len(record.seats)}]
    events += [e.to_json() for e in engine_events]
    return record.bumped(state=state, status=GameStatus.PLAYING, seeds=(seed,)), events


def end(record: GameRecord, user_id: int, admin: bool) -> tuple[GameRecord, Events]:
    record.require_host_or_admin(user_id, admin)
    record.require_status(GameStatus.LOBBY, GameStatus.PLAYING)
    event = {
        "type": "game_ended",
        "reason": "admin" if user_id != record.host else "host",
        "by": user_id,
    }
    # Nothing is owed in an ended game: its views carry no decision, no turn and no UNO
    # window, so nothing shown from them looks live (the timers go in the same write).
    state = record.state
    if state is not None:
        state = replace(state, pending=None, uno_window=None)
    return record.bumped(status=GameStatus.ENDED, state=state, uno_opened=None), [event]


def come_back(record: GameRecord, user_id: int) -> tuple[GameRecord, Events] | None:
    """RULES.md §7: "I'm back" clears away; ``None`` if there was nothing to clear."""
    record.require_status(GameStatus.PLAYING)
    seat = record.require_seat(user_id)
    current = record.seats[seat]
    if not (current.away or current.left or current.missed):
        return None
    events: Events = [{"type": "player_back", "seat": seat}]
    return record.bumped(seats=_present(record.seats, seat)), events


def after_own_action(record: GameRecord, seat: int) -> tuple[tuple[Seat, ...], Events]:
    """RULES.md §7: any action of the player's own clears their misses and away."""
    current = record.seats[seat]
    if not (current.away or current.missed or current.left):
        return record.seats, []
    events: Events = [{"type": "player_back", "seat": seat}] if current.away else []
    return _present(record.seats, seat), events


def _present(seats: tuple[Seat, ...], seat: int) -> tuple[Seat, ...]:
    """The seats with ``seat``'s player present again: no misses, not away, their own turn."""
    back = replace(seats[seat], away=False, left=False, missed=0, finishing_turn=False)
    return tuple(back if i == seat else s for i, s in enumerate(seats))


def after_stand_in(record: GameRecord, seat: int) -> tuple[tuple[Seat, ...], Events]:
    """RULES.md §7: a stand-in's move for a human is a missed deadline; two in a row mark
    them away. The rest of a turn the stand-in took is no further miss: it finishes the
    turn. An AI seat's move is just its move.

    The ``stand_in`` event says which it was: ``timed_out`` true when this move is for a
    deadline the player let pass ("out of time"); false when the stand-in plays for an
    away player or finishes the turn it took ("AI plays for them")."""
    current = record.seats[seat]
    if current.ai is not None or current.left:
        return record.seats, []
    timed_out = not (current.away or current.finishing_turn)
    events: Events = [{"type": "stand_in", "seat": seat, "timed_out": timed_out}]
    missed = current.missed + 1 if timed_out else current.missed
    away = current.away or missed >= MISSES_BEFORE_AWAY
    if away and not current.away:
        events.append({"type": "player_away", "seat": seat})
    stood_in = replace(current, missed=missed, away=away, finishing_turn=True)
    seats = tuple(stood_in if i == seat else s for i, s in enumerate(record.seats))
    return seats, events


def finished_turns(seats: tuple[Seat, ...], state: GameState) -> tuple[Seat, ...]:
    """The seats once a write has settled: a turn the stand-in took stays its to finish
    only while that seat still owes the rest of it (a drawn card, a colour, a swap), never
    into a new turn of theirs (a Skip with two players, a challenge won)."""
    pending = state.pending
    if not any(s.finishing_turn for s in seats):
        return seats
    return tuple(
        replace(s, finishing_turn=False)
        if s.finishing_turn
        and (pending is None or pending.player != i or pending.kind is PendingKind.TURN)
        else s
        for i, s in enumerate(seats)
    )


# -- a rematch (RULES.md §7 "Rematch") ---------------------------------------------------


def rematch_id(game_id: str) -> str:
    """The id of the game a finished game's rematch is played as: derived from the finished
    game's, so the vote that starts it, whether it is sent once, twice at the same moment or
    again after a crash between the two writes, always names the same game, which can be
    created once (README.md "Rematch")."""
    digest = hashlib.blake2b(f"rematch\n{game_id}".encode(), digest_size=9).digest()
    return base64.urlsafe_b64encode(digest).decode()


def rematch_voters(record: GameRecord) -> tuple[int, ...]:
    """Who a rematch waits for: every human seat still held (not left, not removed)."""
    return tuple(s.user_id for s in record.seats if s.user_id is not None and not s.left)


def vote_rematch(record: GameRecord, user_id: int, vote: bool) -> tuple[GameRecord, Events]:
    """A player's vote on playing the finished game again (``vote`` false: they leave
    instead). [decision rematch] Every human seat still held votes, and only they: a player
    who left or was removed is neither waited for nor heard. When the last voter has voted
    and somebody said yes, the vote names the new game (``next_game_id``, ``rematch_id``),
    which the caller creates first (``rematch_game``): the ``rematch_started`` event rides
    on the same write."""
    if record.status.live:
        raise GameError(
            409, "game_not_over", "the game is not over yet", current_version=record.version
        )
    removal = record.removal_of(user_id)
    if removal is not None:
        raise removal.refusal(record.version)
    seat = record.seat_of(user_id)
    if seat is None or record.seats[seat].left:
        raise GameError(403, "not_a_player", f"user {user_id} holds no seat in this game")
    rematch = record.rematch
    if rematch.next_game_id is not None:
        raise GameError(
            409,
            "rematch_started",
            "the rematch has started already",
            game_id=rematch.next_game_id,
            current_version=record.version,
        )
    if rematch.voted(user_id):
        raise GameError(
            409,
            "already_voted",
            f"user {user_id} has voted already",
            current_version=record.version,
        )
    if vote:
        rematch = replace(rematch, yes=(*rematch.yes, user_id))
    else:
        rematch = replace(rematch, no=(*rematch.no, user_id))
    events: Events = [{"type": "rematch_vote", "user_id": user_id, "vote": vote}]
    everyone = all(rematch.voted(u) for u in rematch_voters(record))
    if everyone and rematch.yes:
        rematch = replace(rematch, next_game_id=rematch_id(record.id))
        events.append({"type": "rematch_started", "next_game_id": rematch.next_game_id})
    return record.bumped(rematch=rematch), events


def rematch_game(record: GameRecord, seed: int) -> tuple[GameRecord, Events]:
    """The game a finished game's rematch starts (``record`` carries the finished vote):
    the same chat, topic, variant, options, turn time and UNO window; the humans who said
    yes and every AI seat (same level and name) in their old order; the old host if they
    said yes, else the first to say yes. Dealt at once when two or more seats are taken,
    else left a lobby. Written as version 1, like any new game."""
    rematch = record.rematch
    assert rematch.next_game_id is not None and rematch.yes
    seats = tuple(
        Seat(name=s.name, user_id=s.user_id, ai=s.ai)
        for s in record.seats
        if s.ai is not None or (s.user_id is not None and s.user_id in rematch.yes)
    )
    host = record.host if record.host in rematch.yes else rematch.yes[0]
    host_seat = next(s for s in seats if s.user_id == host)
    lobby, events = new_lobby(
        rematch.next_game_id,
        record.chat_id,
        record.topic_id,
        host,
        host_seat.name,
        record.variant,
        record.turn_seconds,
        record.rules,
        record.uno_window_seconds,
    )
    events[0]["rematch_of"] = record.id
    lobby = replace(lobby, seats=seats)
    if len(seats) < 2:
        return lobby, events
    try:
        started, start_events = start(lobby, host, False, seed)
    except GameError:
        return lobby, events  # a table the rules cannot deal (a test's set-up): a lobby
    state = started.state
    assert state is not None
    return replace(started, version=1, state=replace(state, version=1)), events + start_events
