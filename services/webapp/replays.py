"""A finished game's replay as the replay page shows it: every position, move by move,
with every hand (the game is over: nothing is hidden any more), in the live table's own
words (the chat's screens, as ``words.py`` gives the live page), and the verdict of the
game's check against its commitments (RULES.md §2 "Checking a deal").

Built from the game's export (docs/EXPORT.md), which the engine gives only for a finished
game: a game still played has no export, so its hands and the seed of its round in play
never reach this module. Pure: the export in, the page's JSON out.
"""

from __future__ import annotations

from typing import Any

import orjson

from services.engine.client import EngineView, GameInfo
from services.engine.game_export import BY_STAND_IN, Divergence, Position, positions, replay
from services.engine.rules import events_for, view
from services.presentation.screens.event_lines import event_lines
from services.presentation.screens.replay import (
    replay_words,
    round_verdict,
    step_text,
    verdict_text,
)
from services.presentation.screens.scores import round_end
from services.presentation.screens.table import FINGERPRINT_DIGITS
from services.webapp.words import RTL, card_names, view_words

#: What each position keeps of the table's words (the rest are the live page's: its
#: decisions, its hand's labels).
POSITION_WORDS = ("head", "owing", "catch", "pile", "colour")


#: What a position leaves out of the spectator's view: what the round entry says once
#: (its commitment), what a replay has no use for, and the hand and decisions (``hands``).
LEFT_OUT_OF_THE_VIEW = {"hand", "legal", "deal_commitment", "viewer", "variant", "version"}


def _engine_view(position: Position, seat: int | None) -> EngineView:
    return EngineView.model_validate(
        orjson.loads(orjson.dumps(view(position.state, seat).to_json()))
    )


def _position(
    locale: str,
    game: GameInfo,
    position: Position,
    moves: int,
    cards: dict[str, dict[str, str]],
) -> dict[str, Any]:
    """One position: the table as a spectator saw it, every hand, and the lines of the
    move that led there."""
    state = position.state
    table = _engine_view(position, None)
    hands = [list(_engine_view(position, seat).hand) for seat in range(len(state.players))]
    said = view_words(locale, game, table)
    # The live table's line of whose decision it is, less its turn's time: no clock runs here.
    said["owing"] = said["owing"].split(" · ⏱", 1)[0]
    cards.update(said.get("cards", {}))
    cards.update(
        card_names(locale, game.variant, {c for hand in hands for c in hand} - cards.keys())
    )
    public = [e.to_json() for e in events_for(position.events, None)]
    move = position.move
    if move is not None and move.by == BY_STAND_IN:
        # Told as the chat told it: the AI played this move for the seat's player.
        public.insert(0, {"type": "stand_in", "seat": move.seat, "timed_out": False})
    shown: dict[str, Any] = {
        "round": position.round,
        "index": position.index,
        "seat": move.seat if move else None,
        "action": move.code if move else None,
        "by": move.by if move else None,
        "view": table.model_dump(mode="json", exclude=LEFT_OUT_OF_THE_VIEW),
        "hands": hands,
        "words": {k: said[k] for k in POSITION_WORDS if k in said}
        | {
            "step": step_text(locale, position.index, moves),
            "lines": [line.plain for line in event_lines(locale, game, public)],
            "results": [round_end(locale, game, e).plain for e in public if _ended(e)],
        },
    }
    if "game_over" in said:
        shown["words"]["game_over"] = said["game_over"]
    return shown


def _ended(event: dict[str, Any]) -> bool:
    return event.get("type") == "round_ended"


def replay_payload(export: dict[str, Any], game: GameInfo, locale: str) -> dict[str, Any]:
    """The page's replay of ``game`` from its ``export``: the rounds (each with its
    commitment, the fingerprint the table showed, the seed its end revealed, and where its
    positions start), every position, and each card's words. Raises ``Divergence`` for an
    export that does not replay."""
    playing = game.model_copy(update={"status": "playing", "winner": None})
    cards: dict[str, dict[str, str]] = {}
    shown: list[dict[str, Any]] = []
    every = list(positions(export))
    moves = {r["round"]: len(r["moves"]) for r in export["rounds"]}
    for i, position in enumerate(every):
        at = game if i == len(every) - 1 else playing
        shown.append(_position(locale, at, position, moves[position.round], cards))
    starts: dict[int, int] = {}
    for i, position in enumerate(every):
        starts.setdefault(position.state.round, i)
    rounds = [
        {
            "round": r["round"],
            "commitment": r["commitment"],
            "fingerprint": r["commitment"][:FINGERPRINT_DIGITS],
            "seed": r["seed"],
            "moves": len(r["moves"]),
            "first": starts.get(r["round"], 0),
        }
        for r in export["rounds"]
    ]
    return {
        "game": export["game"],
        "variant": export["variant"],
        "seats": [
            {"seat": s["seat"], "name": s["name"] or f"#{s['seat'] + 1}", "ai": s["ai"]}
            for s in export["seats"]
        ],
        "rounds": rounds,
        "positions": shown,
        "cards": cards,
        "words": {"lang": locale, "dir": "rtl" if locale in RTL else "ltr"}
        | {"variant": view_words(locale, game, None)["variant"]}
        | replay_words(locale),
    }


def verdict(export: Any, locale: str) -> dict[str, Any]:
    """The check of an export (``game_export.replay``, what ``python -m
    services.engine.verify`` runs), round by round: each round before the first place the
    export parts from the rules checks out, that round says why, the rest are unchecked."""
    rounds = export.get("rounds") if isinstance(export, dict) else None
    count = len(rounds) if isinstance(rounds, list) else 0
    try:
        replay(export)
    except Divergence as parted:
        failed = parted.round
        checked = []
        for n in range(1, count + 1):
            ok = None if failed is None or n > failed else n < failed
            why = str(parted) if n == failed else None
            move = parted.move + 1 if n == failed and parted.move is not None else None
            checked.append(_round(locale, n, ok, move, why))
        return {
            "valid": False,
            "message": str(parted),
            "words": verdict_text(locale, False),
            "rounds": checked,
        }
    return {
        "valid": True,
        "message": "",
        "words": verdict_text(locale, True),
        "rounds": [_round(locale, n, True, None, None) for n in range(1, count + 1)],
    }


def _round(
    locale: str, number: int, ok: bool | None, move: int | None, why: str | None
) -> dict[str, Any]:
    return {
        "round": number,
        "ok": ok,
        "move": move,
        "why": why,
        "words": round_verdict(locale, number, ok, why),
    }
