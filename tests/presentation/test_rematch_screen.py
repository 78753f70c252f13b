"""The rematch's words on a finished game's final message (RULES.md §7 "Rematch"): who
voted which way, in each language, and the buttons shown only while the vote is open."""

from __future__ import annotations

from services.engine.views import Conflict, Forbidden, GameInfo
from services.presentation.callbacks import Callback, Kind
from services.presentation.rich import Rich
from services.presentation.screens.rematch import final_keyboard, vote_refused, votes_text


def game(yes: list[int], no: list[int], next_game_id: str | None = None) -> GameInfo:
    return GameInfo.model_validate(
        {
            "game_id": "abcdefghijkl",
            "version": 9,
            "status": "over",
            "chat_id": -1,
            "topic_id": 0,
            "host": 1,
            "variant": "classic",
            "turn_seconds": 60,
            "rules": {},
            "seats": [
                {"seat": 0, "name": "Ann", "user_id": 1},
                {"seat": 1, "name": "Robo", "ai": "random"},
                {"seat": 2, "name": "Bob", "user_id": 2},
                {"seat": 3, "name": "Cy", "user_id": 3, "left": True},
            ],
            "rematch": {"yes": yes, "no": no, "next_game_id": next_game_id},
        }
    )


def shown(text: Rich | None) -> str:
    """The words without the isolates around names."""
    assert text is not None
    return text.plain.replace("\u2068", "").replace("\u2069", "")


def test_the_vote_is_offered_until_every_seated_human_voted() -> None:
    fresh = game([], []).model_dump()
    del fresh["rematch"]
    assert GameInfo.model_validate(fresh).rematch.next_game_id is None  # the default
    keyboard = final_keyboard("en", game([1], []), None)
    assert keyboard is not None
    presses = [b.callback for b in keyboard[-1]]
    assert presses == [
        Callback(Kind.REMATCH, "abcdefghijkl", 0, "yes"),
        Callback(Kind.REMATCH, "abcdefghijkl", 0, "no"),
    ]
    # Cy left the game: not waited for. Once Ann and Bob voted, the buttons go.
    assert final_keyboard("en", game([1], [2]), None) is None
    assert final_keyboard("en", game([1, 2], [], "next"), None) is None


def test_who_voted_is_told_in_each_language() -> None:
    assert votes_text("en", game([], [])) is None
    started = shown(votes_text("en", game([2, 1], [], "next")))
    assert started == "🔁 Again: Bob, Ann\nThe rematch has started."
    nobody = shown(votes_text("en", game([], [1, 2])))
    assert nobody == "🚪 Leaving: Ann, Bob\nNobody wants a rematch."
    persian = shown(votes_text("fa", game([2, 1], [])))
    assert "Bob؛ Ann" in persian and "Again" not in persian
    gujarati = shown(votes_text("gu", game([1], [2])))
    assert "Ann" in gujarati and "Leaving" not in gujarati


def test_refusals_in_words() -> None:
    def refused(status: int, error: str, cls: type = Conflict) -> str:
        return vote_refused("en", cls(status, error, error, {"error": error}))

    assert refused(409, "already_voted") == "You have voted already."
    assert refused(409, "rematch_started") == "The rematch has started already."
    assert refused(409, "game_not_over") == "This game is not over yet."
    assert refused(409, "chat_busy").startswith("Another game is being played")
    assert refused(403, "not_a_player", Forbidden) == "You did not play in that game."
    kicked = Forbidden(403, "seat_removed", "x", {"error": "seat_removed", "reason": "kicked"})
    assert vote_refused("en", kicked) != "You did not play in that game."
