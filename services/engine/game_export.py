"""The export of a finished game (docs/EXPORT.md): building it, and replaying it to check it.

A game's history is what the service keeps of it in its record: each round's seed and every
move, with who made it (``Move``). The export is that history written out in full by
replaying it through the rules: per round its seed, the commitment the table showed
(``rules.deal_commitment``), the deal (dealer, hands, first cards), the moves and the
result. ``replay`` reads an export back and plays it again through the same rules, saying
at which round or move it parts from them (``Divergence``); ``services/engine/verify.py``
is its command line.

Pure: imports only the rules library.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.engine.rules import (
    Action,
    Applied,
    Event,
    EventType,
    GameState,
    NotationError,
    Options,
    Rejected,
    SetupError,
    UnknownVariant,
    apply,
    deal_commitment,
    get_variant,
    new_game,
    options_to_json,
)

#: The version of the export's layout; a reader refuses any other.
FORMAT = 1

#: Who made a move: the seat's player, the stand-in for them (RULES.md §7), or the service
#: itself (the UNO window's close, a frozen player's reported move).
BY_PLAYER = "player"
BY_STAND_IN = "stand_in"
BY_SERVICE = "service"
_BY_MARK = {BY_PLAYER: "", BY_STAND_IN: "*"}


@dataclass(frozen=True, slots=True)
class Move:
    """One move of a game's history: its action code, its seat (None: the service's)."""

    seat: int | None
    code: str
    by: str = BY_PLAYER

    def stored(self) -> str:
        """The compact form kept in the game record: ``2:p.R5``, ``2*:d``, ``:close``."""
        if self.seat is None:
            return f":{self.code}"
        return f"{self.seat}{_BY_MARK[self.by]}:{self.code}"

    @staticmethod
    def from_stored(text: str) -> Move:
        who, _, code = text.partition(":")
        if not who:
            return Move(None, code, BY_SERVICE)
        if who.endswith("*"):
            return Move(int(who[:-1]), code, BY_STAND_IN)
        return Move(int(who), code)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.code, "by": self.by}

    def action(self) -> Action:
        return Action.from_code(self.seat, self.code)


@dataclass(frozen=True, slots=True)
class ExportSeat:
    name: str | None
    ai: str | None = None


class Divergence(ValueError):
    """Where an export parts from the rules: ``round`` (None: the game as a whole) and
    ``move`` (the move's index in its round, from 0; None: not a move)."""

    def __init__(self, message: str, round: int | None = None, move: int | None = None) -> None:
        where = ""
        if round is not None:
            where = f"round {round}" + (f", move {move + 1}" if move is not None else "") + ": "
        super().__init__(where + message)
        self.round = round
        self.move = move


@dataclass(frozen=True, slots=True)
class Replayed:
    """A game played again: its final state and every event, in order."""

    state: GameState
    events: tuple[Event, ...]


def _seat_name(seat: ExportSeat, i: int) -> str:
    return seat.name or f"Seat {i + 1}"


def _deal_of(events: Sequence[Event], players: int) -> dict[str, Any]:
    """The deal opened by the last ``round_started`` of ``events``: dealer, each hand as
    dealt, the card(s) turned up."""
    start = max(i for i, e in enumerate(events) if e.type is EventType.ROUND_STARTED)
    hands: list[list[str]] = [[] for _ in range(players)]
    dealt = 0
    first_cards: list[str] = []
    for e in events[start + 1 :]:
        if e.type is EventType.DREW_CARDS and dealt < players:
            hands[int(e.data["player"])] = list(e.data["cards"])
            dealt += 1
        elif e.type is EventType.FIRST_CARD:
            first_cards.append(str(e.data["card"]))
        elif e.type is EventType.TURN:
            break
    return {
        "dealer": int(events[start].data["dealer"]),
        "hands": hands,
        "first_cards": first_cards,
    }


def _result_of(events: Sequence[Event]) -> dict[str, Any] | None:
    for e in events:
        if e.type is EventType.ROUND_ENDED:
            return {"winner": e.data["winner"], "scores": list(e.data["scores"])}
    return None


def build(
    game_id: str,
    variant: str,
    options: Options,
    seats: Sequence[ExportSeat],
    seeds: Sequence[int],
    moves: Sequence[Move],
    *,
    ended_early: bool = False,
) -> dict[str, Any]:
    """The export of a game from its history, replayed through the rules. Raises
    ``Divergence`` if the history does not replay (a record the rules no longer accept)."""
    if not seeds:
        raise Divergence("the game has no seeds: it was not dealt by the service")
    names = [_seat_name(s, i) for i, s in enumerate(seats)]
    state, events = new_game(variant, names, options, seed=seeds[0])
    rounds: list[dict[str, Any]] = [_round_entry(1, seeds[0], _deal_of(events, len(seats)))]
    for i, move in enumerate(moves):
        number = state.round
        next_seed = seeds[number] if number < len(seeds) else None
        result = apply(state, move.action(), next_seed)
        if isinstance(result, Rejected):
            raise Divergence(f"{move.code}: {result.message}", number, i)
        state, events = result
        rounds[-1]["moves"].append(move.to_json())
        ended = _result_of(events)
        if ended is not None:
            rounds[-1]["result"] = ended
        if state.round != number:
            deal = _deal_of(events, len(seats))
            rounds.append(_round_entry(state.round, state.seed, deal))
    return {
        "format": FORMAT,
        "game": game_id,
        "variant": variant,
        "options": options_to_json(options),
        "seats": [{"seat": i, "name": s.name, "ai": s.ai} for i, s in enumerate(seats)],
        "ended_early": ended_early,
        "rounds": rounds,
        "winner": state.winner,
        "scores": [p.score for p in state.players],
    }


def _round_entry(number: int, seed: int, deal: dict[str, Any]) -> dict[str, Any]:
    return {
        "round": number,
        "seed": str(seed),
        "commitment": deal_commitment(seed),
        **deal,
        "moves": [],
        "result": None,
    }


# -- the archive's compact form ---------------------------------------------------------------


def compact(export: Mapping[str, Any]) -> dict[str, Any]:
    """What an archive keeps of an export: its history alone (each round's seed, every move
    in ``Move.stored`` form), the variant, options and seats without names; ``expand``
    writes the export out again by replaying it."""
    return {
        "format": export["format"],
        "variant": export["variant"],
        "options": export["options"],
        "ai": [s.get("ai") for s in export["seats"]],
        "ended_early": bool(export.get("ended_early")),
        "seeds": [r["seed"] for r in export["rounds"]],
        "moves": [
            Move(m["seat"], m["action"], m.get("by", BY_PLAYER)).stored()
            for r in export["rounds"]
            for m in r["moves"]
        ],
    }


def expand(game_id: str, kept: Mapping[str, Any], names: Sequence[str | None]) -> dict[str, Any]:
    """The export of an archived game (``compact``'s), its seats named ``names``."""
    if kept.get("format") != FORMAT:
        raise Divergence(f"format {kept.get('format')!r} is not one this service writes")
    ai = kept["ai"]
    seats = [ExportSeat(names[i] if i < len(names) else None, ai[i]) for i in range(len(ai))]
    return build(
        game_id,
        kept["variant"],
        Options(**kept["options"]),
        seats,
        [int(seed) for seed in kept["seeds"]],
        [Move.from_stored(m) for m in kept["moves"]],
        ended_early=kept["ended_early"],
    )


# -- reading an export back ------------------------------------------------------------------


def _field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(name) if isinstance(data, Mapping) else None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Divergence(f"{where}{name!r} is missing or malformed")
    return value


def _seed(entry: Mapping[str, Any], number: int) -> int:
    seed = _field(entry, "seed", str, f"round {number}: ")
    if not seed.isdigit() or len(seed) > 40:
        raise Divergence("the seed is not a whole number", number)
    commitment = _field(entry, "commitment", str, f"round {number}: ")
    if deal_commitment(int(seed)) != commitment:
        raise Divergence("the seed does not match the deal's commitment", number)
    return int(seed)


def _check_deal(entry: Mapping[str, Any], events: Sequence[Event], players: int) -> None:
    number = entry["round"]
    dealt = _deal_of(events, players)
    if entry.get("dealer") != dealt["dealer"]:
        raise Divergence("the dealer is not the one the seed deals", number)
    hands = entry.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise Divergence("the deal lists no hand per seat", number)
    for seat, (given, real) in enumerate(zip(hands, dealt["hands"], strict=True)):
        if given != real:
            raise Divergence(f"seat {seat}'s hand is not the one the seed deals", number)
    if entry.get("first_cards") != dealt["first_cards"]:
        raise Divergence("the card turned up is not the one the seed deals", number)


def replay(export: Mapping[str, Any]) -> Replayed:
    """Play an export again through the rules: each round re-dealt from its seed (checked
    against its commitment and against the deal written down), every move applied, each
    round's result and the game's compared. Raises ``Divergence`` where it parts from them."""
    if not isinstance(export, Mapping):
        raise Divergence("an export is a JSON object")
    version = export.get("format")
    if version != FORMAT:
        raise Divergence(f"format {version!r} is not one this verifier reads (it reads {FORMAT})")
    variant = _field(export, "variant", str, "")
    try:
        get_variant(variant)
    except UnknownVariant:
        raise Divergence(f"unknown variant {variant!r}") from None
    raw_options = _field(export, "options", dict, "")
    try:
        options = Options(**raw_options)
    except TypeError:
        raise Divergence("the options are not the rules' options") from None
    raw_seats = _field(export, "seats", list, "")
    seats = [ExportSeat(s.get("name"), s.get("ai")) for s in raw_seats if isinstance(s, dict)]
    rounds = _field(export, "rounds", list, "")
    if not rounds or not all(isinstance(r, dict) for r in rounds):
        raise Divergence("the export holds no rounds")
    for i, entry in enumerate(rounds):
        if entry.get("round") != i + 1:
            raise Divergence(f"round {i + 1} is numbered {entry.get('round')!r}")
    seeds = [_seed(entry, i + 1) for i, entry in enumerate(rounds)]
    names = [_seat_name(s, i) for i, s in enumerate(seats)]
    try:
        state, events = new_game(variant, names, options, seed=seeds[0])
    except SetupError as e:
        raise Divergence(f"the game cannot be dealt: {e}") from None
    every: list[Event] = list(events)
    _check_deal(rounds[0], events, len(seats))
    for index, entry in enumerate(rounds):
        number = index + 1
        moves = _field(entry, "moves", list, f"round {number}: ")
        last_round = index == len(rounds) - 1
        next_seed = seeds[index + 1] if not last_round else None
        for i, raw in enumerate(moves):
            if state.round != number or state.pending is None:
                raise Divergence("the round is over, yet the export lists more moves", number, i)
            action = _parse_move(raw, number, i)
            result = apply(state, action, next_seed)
            if isinstance(result, Rejected):
                raise Divergence(
                    f"the rules refuse {raw.get('action')!r} by seat {raw.get('seat')!r}: "
                    f"{result.reason.value}",
                    number,
                    i,
                )
            state, events = result
            every += events
            ended = _result_of(events)
            if ended is not None and ended != entry.get("result"):
                raise Divergence(f"the round ends {ended}, not as written", number, i)
            if state.round != number:
                if last_round:
                    raise Divergence("the game does not finish with this round", number, i)
                _check_deal(rounds[index + 1], events, len(seats))
        if not last_round and state.round == number:
            raise Divergence("its moves do not finish the round", number)
        if last_round and state.pending is not None and not export.get("ended_early"):
            raise Divergence("its moves do not finish the game", number)
        if entry.get("result") is not None and state.round == number and state.pending is not None:
            raise Divergence("a result is written for a round its moves do not finish", number)
    if export.get("winner") != state.winner:
        raise Divergence(f"the game's winner is {state.winner!r}, not {export.get('winner')!r}")
    if export.get("scores") != [p.score for p in state.players]:
        raise Divergence("the final scores are not the ones the moves give")
    return Replayed(state, tuple(every))


def _parse_move(raw: Any, number: int, i: int) -> Action:
    if not isinstance(raw, dict) or not isinstance(raw.get("action"), str):
        raise Divergence("the move is malformed", number, i)
    seat = raw.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise Divergence("the move's seat is malformed", number, i)
    try:
        return Action.from_code(seat, raw["action"])
    except (ValueError, NotationError) as e:
        raise Divergence(f"the move {raw['action']!r} is malformed: {e}", number, i) from None


# -- stepping through a game -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """One position of a replayed game: the state after ``move`` (None: the game's first
    deal), the ``index`` of that move in its ``round`` (from 0), and the events it made
    (a move that ends a round also deals the next: its state is the new deal)."""

    round: int
    index: int | None
    move: Move | None
    state: GameState
    events: tuple[Event, ...]


def positions(export: Mapping[str, Any]) -> Iterator[Position]:
    """Every position of an export, in order, for showing it move by move. The export is
    checked whole first (``replay``): one that parts from the rules raises ``Divergence``
    before any position is given, so nothing of a tampered game is shown as played."""
    replay(export)
    rounds = export["rounds"]
    seeds = [int(r["seed"]) for r in rounds]
    names = [_seat_name(ExportSeat(s.get("name")), i) for i, s in enumerate(export["seats"])]
    state, events = new_game(export["variant"], names, Options(**export["options"]), seed=seeds[0])
    yield Position(1, None, None, state, tuple(events))
    for number, entry in enumerate(rounds, start=1):
        next_seed = seeds[number] if number < len(seeds) else None
        for i, raw in enumerate(entry["moves"]):
            move = Move(raw["seat"], raw["action"], raw.get("by", BY_PLAYER))
            result = apply(state, move.action(), next_seed)
            if not isinstance(result, Applied):  # replay() above applied the same moves
                raise Divergence(f"{move.code}: {result.message}", number, i)
            state, applied = result
            yield Position(number, i, move, state, tuple(applied))
