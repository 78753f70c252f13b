"""JSON round-trip of the whole game state (for the store, never for players: players get
``view``).  Cards are written as their codes and piles as one space-separated string, which
keeps a 4-player game's state near 1 KB."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .cards import Card, Color, Kind, Side, card, codes
from .state import AfterColor, GameState, Options, Pending, PendingKind, PlayerState, Reveal

FORMAT = 1

_OPTION_NAMES = tuple(f.name for f in fields(Options))
_DEFAULT_OPTIONS = Options()


class _CardsByCode(dict[str, Card]):
    """Cards by code, each parsed once (a state holds every card of its deck, and there are
    only a few hundred codes); a lookup of a known code stays in C."""

    def __missing__(self, code: str) -> Card:
        parsed = self[code] = card(code)
        return parsed


_CARDS = _CardsByCode()


def _unpile(text: str) -> tuple[Card, ...]:
    return tuple(map(_CARDS.__getitem__, text.split()))


def _pending_to_json(p: Pending) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": p.kind.value, "player": p.player}
    if p.drawn is not None:
        out["drawn"] = p.drawn.code
    if p.must_play:
        out["must_play"] = True
    if p.source is not None:
        out["source"] = p.source
    if p.card_kind is not None:
        out["card_kind"] = p.card_kind.value
    if p.amount:
        out["amount"] = p.amount
    if p.challengeable:
        out["challengeable"] = True
    if p.bluffed:
        out["bluffed"] = True
    if p.then is not AfterColor.EFFECT:
        out["then"] = p.then.value
    return out


def _pending_from_json(d: dict[str, Any]) -> Pending:
    return Pending(
        kind=PendingKind(d["kind"]),
        player=d["player"],
        drawn=card(d["drawn"]) if "drawn" in d else None,
        must_play=d.get("must_play", False),
        source=d.get("source"),
        card_kind=Kind(d["card_kind"]) if "card_kind" in d else None,
        amount=d.get("amount", 0),
        challengeable=d.get("challengeable", False),
        bluffed=d.get("bluffed", False),
        then=AfterColor(d["then"]) if "then" in d else AfterColor.EFFECT,
    )


def options_to_json(o: Options) -> dict[str, Any]:
    """The options that differ from the defaults (all of them off): ``{}`` for none."""
    if o == _DEFAULT_OPTIONS:
        return {}
    return {k: v for k in _OPTION_NAMES if (v := getattr(o, k)) != getattr(_DEFAULT_OPTIONS, k)}


def to_json(s: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "variant": s.variant,
        "version": s.version,
        "players": [
            {
                "name": p.name,
                "hand": codes(p.hand),
                "score": p.score,
                **({"declared_uno": True} if p.declared_uno else {}),
                **({"knocked_out": True} if p.knocked_out else {}),
                **({"frozen_turns": p.frozen_turns} if p.frozen_turns is not None else {}),
                **({"received_one_card": True} if p.received_one_card else {}),
                **({"knockout_points": p.knockout_points} if p.knockout_points else {}),
            }
            for p in s.players
        ],
        "draw_pile": codes(s.draw_pile),
        "discard": codes(s.discard),
        "current": s.current,
        "dealer": s.dealer,
        "direction": s.direction,
        "side": s.side.value,
        "color": s.color.value if s.color else None,
        "pending": _pending_to_json(s.pending) if s.pending else None,
        "round": s.round,
        "seed": s.seed,
        "rng_counter": s.rng_counter,
    }
    optional = {
        "uno_window": s.uno_window,
        "set_aside": codes(s.set_aside) or None,
        "winner": s.winner,
        "options": options_to_json(s.options) or None,
        "reveal": (
            {"to": s.reveal.to, "of": s.reveal.of, "hand": codes(s.reveal.hand)}
            if s.reveal
            else None
        ),
    }
    out.update({k: v for k, v in optional.items() if v is not None})
    return out


def from_json(d: dict[str, Any]) -> GameState:
    if d.get("format") != FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}")
    reveal = d.get("reveal")
    options = d.get("options", {})
    return GameState(
        variant=d["variant"],
        version=d["version"],
        players=tuple(
            PlayerState(
                name=p["name"],
                hand=_unpile(p["hand"]),
                score=p["score"],
                declared_uno=p.get("declared_uno", False),
                knocked_out=p.get("knocked_out", False),
                frozen_turns=p.get("frozen_turns"),
                received_one_card=p.get("received_one_card", False),
                knockout_points=p.get("knockout_points", 0),
            )
            for p in d["players"]
        ),
        draw_pile=_unpile(d["draw_pile"]),
        discard=_unpile(d["discard"]),
        current=d["current"],
        dealer=d["dealer"],
        direction=d["direction"],
        side=Side(d["side"]),
        color=Color(d["color"]) if d["color"] else None,
        pending=_pending_from_json(d["pending"]) if d["pending"] else None,
        uno_window=d.get("uno_window"),
        set_aside=_unpile(d.get("set_aside", "")),
        reveal=(
            Reveal(to=reveal["to"], of=reveal["of"], hand=_unpile(reveal["hand"]))
            if reveal
            else None
        ),
        round=d["round"],
        winner=d.get("winner"),
        options=(
            Options(**{k: v for k, v in options.items() if k in _OPTION_NAMES})
            if options != {}
            else _DEFAULT_OPTIONS
        ),
        seed=d["seed"],
        rng_counter=d["rng_counter"],
    )
