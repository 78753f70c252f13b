"""RULES.md §7 "Rematch": the finished game's vote and the game it starts, as the game
record's pure decisions decide them (game_record.py ``vote_rematch``, ``rematch_game``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.engine import game_record
from services.engine.game_record import (
    GameError,
    GameRecord,
    GameStatus,
    Removal,
    RemovalReason,
    Seat,
    rematch_game,
    rematch_id,
    vote_rematch,
)
from services.engine.rules import Options


def finished(*seats: Seat, host: int = 1, status: GameStatus = GameStatus.OVER) -> GameRecord:
    return GameRecord(
        id="old-game-id1",
        version=9,
        chat_id=-100,
        topic_id=7,
        host=host,
        status=status,
        variant="classic",
        turn_seconds=42,
        rules=Options(seven_o=True),
        seats=seats,
        uno_window_seconds=5,
    )


ANA, BO, CY = Seat("Ana", user_id=1), Seat("Bo", user_id=2), Seat("Cy", user_id=3)
BOT = Seat("Robo", ai="random")


def votes(record: GameRecord, *ballots: tuple[int, bool]) -> tuple[GameRecord, list[dict]]:
    events: list[dict] = []
    for user_id, vote in ballots:
        record, new_events = vote_rematch(record, user_id, vote)
        events += new_events
    return record, events


def test_rules_s7_rematch_starts_when_every_human_voted_and_one_said_yes() -> None:
    """RULES.md §7 "Rematch" [decision rematch]: the vote waits for every human seat; the
    last vote names the new game, and its write tells so."""
    record = finished(ANA, BOT, BO, CY)
    record, events = votes(record, (2, True), (3, False))
    assert record.rematch.yes == (2,) and record.rematch.no == (3,)
    assert record.rematch.next_game_id is None
    assert events == [
        {"type": "rematch_vote", "user_id": 2, "vote": True},
        {"type": "rematch_vote", "user_id": 3, "vote": False},
    ]
    last, events = vote_rematch(record, 1, True)
    assert last.version == record.version + 1
    assert last.rematch.next_game_id == rematch_id(record.id)
    assert events[-1] == {"type": "rematch_started", "next_game_id": rematch_id(record.id)}


def test_rules_s7_rematch_new_game_keeps_the_table_and_the_yes_voters() -> None:
    """RULES.md §7 "Rematch": same chat, topic, variant, options and times; the humans who
    said yes and every AI seat, in the old order; dealt at once."""
    record, _ = votes(finished(ANA, BOT, BO, CY), (2, True), (3, False), (1, True))
    new, events = rematch_game(record, seed=5)
    assert new.id == rematch_id(record.id) and new.version == 1
    assert new.state is not None and new.state.version == 1
    assert new.status is GameStatus.PLAYING
    assert [(s.name, s.user_id, s.ai) for s in new.seats] == [
        ("Ana", 1, None),
        ("Robo", None, "random"),
        ("Bo", 2, None),
    ]
    assert (new.chat_id, new.topic_id, new.variant) == (-100, 7, "classic")
    assert (new.turn_seconds, new.uno_window_seconds, new.rules) == (42, 5, Options(seven_o=True))
    assert new.host == 1 and new.seeds == (5,)
    assert events[0]["type"] == "game_created" and events[0]["rematch_of"] == record.id
    assert events[1] == {"type": "game_started", "players": 3}


def test_rules_s7_rematch_host_is_the_first_yes_voter_when_the_host_leaves() -> None:
    record, _ = votes(finished(ANA, BO, CY), (3, True), (1, False), (2, True))
    new, _ = rematch_game(record, seed=1)
    assert new.host == 3
    assert [s.user_id for s in new.seats] == [2, 3]


def test_rules_s7_rematch_of_one_player_stays_a_lobby() -> None:
    record, _ = votes(finished(ANA, BO), (1, False), (2, True))
    new, events = rematch_game(record, seed=1)
    assert new.status is GameStatus.LOBBY and new.state is None and new.version == 1
    assert [s.user_id for s in new.seats] == [2] and new.host == 2
    assert [e["type"] for e in events] == ["game_created"]


def test_nobody_saying_yes_starts_nothing() -> None:
    record, events = votes(finished(ANA, BO), (1, False), (2, False))
    assert record.rematch.next_game_id is None
    assert all(e["type"] == "rematch_vote" for e in events)


def test_seats_left_or_removed_are_not_waited_for_and_may_not_vote() -> None:
    """RULES.md §7 "Rematch" [decision rematch]: only the humans still seated vote."""
    gone = replace(CY, left=True)
    kicked = replace(BO, left=True)
    record = replace(
        finished(ANA, kicked, gone),
        removed=(Removal(2, RemovalReason.KICKED, at=1, by=1),),
    )
    assert game_record.rematch_voters(record) == (1,)
    with pytest.raises(GameError) as e:
        vote_rematch(record, 2, True)
    refusal = (e.value.status, e.value.error, e.value.extra["reason"])
    assert refusal == (403, "seat_removed", "kicked")
    with pytest.raises(GameError) as e:
        vote_rematch(record, 3, True)
    assert (e.value.status, e.value.error) == (403, "not_a_player")
    started, _ = vote_rematch(record, 1, True)
    assert started.rematch.next_game_id is not None


@pytest.mark.parametrize("status", [GameStatus.LOBBY, GameStatus.PLAYING])
def test_a_live_game_has_no_rematch(status: GameStatus) -> None:
    with pytest.raises(GameError) as e:
        vote_rematch(finished(ANA, BO, status=status), 1, True)
    assert (e.value.status, e.value.error) == (409, "game_not_over")


def test_refusals_of_strangers_second_votes_and_a_started_rematch() -> None:
    record = finished(ANA, BO, BOT, status=GameStatus.ENDED)
    with pytest.raises(GameError) as e:
        vote_rematch(record, 99, True)
    assert (e.value.status, e.value.error) == (403, "not_a_player")
    once, _ = vote_rematch(record, 1, True)
    with pytest.raises(GameError) as e:
        vote_rematch(once, 1, False)
    assert (e.value.status, e.value.error) == (409, "already_voted")
    started, _ = vote_rematch(once, 2, False)
    with pytest.raises(GameError) as e:
        vote_rematch(started, 2, True)
    assert (e.value.status, e.value.error) == (409, "rematch_started")
    assert e.value.extra["game_id"] == rematch_id(record.id)


def test_the_vote_survives_the_stored_form() -> None:
    record, _ = votes(finished(ANA, BO), (1, True), (2, False))
    assert GameRecord.from_json(record.to_json()) == record
    assert "rematch" not in finished(ANA, BO).to_json()


def test_rematch_ids_are_fixed_by_the_old_game_and_fit_a_callback() -> None:
    assert rematch_id("abc") == rematch_id("abc") != rematch_id("abd")
    assert len(rematch_id("abc")) == 12
