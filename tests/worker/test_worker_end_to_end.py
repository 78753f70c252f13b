"""The worker end to end: a real engine service, real Redis and real Celery worker processes.

RULES.md §7 "Timing in a chat" (turn deadlines, stand-ins, away players, AI seats) and §2
"UNO" (the window closes at its deadline unless the next player closed it first). The worker
acts only through the engine's HTTP API; these tests read the outcome from the engine (its
views and its events in the event log) and from the worker's fire log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from celery import Celery

from harness.processes import ServiceProcess
from tests.helpers.timer_table import Table
from tests.helpers.waiting import wait_for

pytestmark = pytest.mark.slow

TURN_SECONDS = 5  # the engine's floor for a game's turn time


@pytest.fixture
def table(engine_url: str, redis_url: str) -> Iterator[Table]:
    t = Table(engine_url, redis_url)
    yield t
    t.close()


def stand_ins(events: list[dict[str, object]]) -> list[dict[str, object]]:
    return [e for e in events if e.get("type") == "stand_in"]


def test_s7_a_passed_deadline_makes_the_stand_in_play_a_legal_move(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """RULES.md §7: when the deadline passes, the stand-in decides for the player through
    the engine; the move and its events reach the event log."""
    worker_factory()
    gid = table.lobby_game(humans=2, turn_seconds=TURN_SECONDS)
    version, due = table.deadline(gid) or pytest.fail("the engine set no turn deadline")
    owing = table.owing_seat(gid)
    assert due - table.redis_now() > TURN_SECONDS - 1  # the full turn time, not a pause

    wait_for(lambda: table.version(gid) > version, TURN_SECONDS + 10, "the stand-in's move")
    events = [e for e in table.events(gid) if e["version"] == version + 1]
    assert stand_ins(events) == [
        {"type": "stand_in", "seat": owing, "timed_out": True, "version": version + 1}
    ]
    assert events[0]["type"] == "stand_in"
    assert len(events) > 1  # the rules engine's own events for the move follow
    (fire,) = wait_for(lambda: table.fired(f"{gid}|turn|{version}"), 5, "the fire record")
    assert fire.outcome == "applied"
    assert table.info(gid)["seats"][owing].get("missed", 0) == 1


def test_s7_one_missed_turn_is_finished_by_the_stand_in_as_one_miss(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """RULES.md §7: one timeout costs one turn time. The stand-in draws for the player with
    nothing to play, then decides the card drawn itself after the short pause, so the turn
    passes to the next player; the player counts one missed deadline and is not away."""
    worker_factory()
    gid = table.set_up_game(
        {"hands": ["B5 B6 B7", "G1 G2 G3"], "discard": "R3", "dealer": 1, "draw_pile": "R9 Y1"},
        users=2,
        turn_seconds=TURN_SECONDS,
    )
    version, _ = table.deadline(gid) or pytest.fail("no turn deadline")
    wait_for(lambda: table.version(gid) > version, TURN_SECONDS + 10, "the stand-in's draw")
    wait_for(lambda: table.owing_seat(gid) == 1, 10, "the next player's turn")
    seat = table.info(gid)["seats"][0]
    assert seat.get("missed", 0) == 1 and not seat.get("away")
    moves = stand_ins(table.events(gid))
    assert [m["timed_out"] for m in moves] == [True, False]  # "out of time", then the AI
    assert [f.outcome for f in table.fired(f"{gid}|turn|{version}")] == ["applied"]


def test_s7_a_move_just_before_the_deadline_leaves_the_timer_nothing_to_do(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """RULES.md §7: a player who acts in time is not stood in for, however close it was."""
    worker_factory()
    gid = table.lobby_game(humans=2, turn_seconds=TURN_SECONDS)
    version, due = table.deadline(gid) or pytest.fail("no turn deadline")
    owing = table.owing_seat(gid)
    assert owing is not None
    wait_for(lambda: table.redis_now() > due - 0.5, TURN_SECONDS + 2, "just before the deadline")
    table.act(gid, owing + 1)  # users are 1-based

    next_version, _next_due = table.deadline(gid) or pytest.fail("no next deadline")
    assert next_version > version
    wait_for(lambda: table.redis_now() > due + 1.0, 5, "well past the old deadline")
    assert [f.outcome for f in table.fired(f"{gid}|turn|{version}")] in ([], ["stale"])
    assert stand_ins(table.events(gid)) == []
    assert table.version(gid) == next_version  # nothing acted on the later state
    assert table.info(gid)["seats"][owing].get("missed", 0) == 0


def test_a_late_or_early_timer_for_an_old_version_changes_nothing(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """A timer acts only on the version it was set for: one for an older version (late,
    redelivered) or one whose game moved on meanwhile does nothing to the later state."""
    worker_factory()
    gid = table.lobby_game(humans=2, turn_seconds=60)
    version, _ = table.deadline(gid) or pytest.fail("no turn deadline")
    owing = table.owing_seat(gid)
    assert owing is not None
    table.act(gid, owing + 1)
    assert_old_timers_change_nothing(table, gid, version)


def assert_old_timers_change_nothing(table: Table, gid: str, version: int) -> None:
    """Put the timers of ``version`` back on the board, due now, as a late copy would be:
    both fire as stale, and the game stays as it is."""
    now_version = table.version(gid)
    now = table.redis_now()
    table.redis.zadd("uno:deadlines", {f"{gid}|turn|{version}": now, f"{gid}|uno|{version}": now})
    wait_for(lambda: len(table.fired()) == 2, 10, "both stale timers to fire")
    assert sorted(f.outcome for f in table.fired()) == ["stale", "stale"]
    assert table.version(gid) == now_version
    assert stand_ins(table.events(gid)) == []


def test_timers_of_an_ended_game_do_nothing(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """`/end` takes the game's turn and UNO timers off the board in the same write; a copy
    of either fired anyway (one already claimed, a redelivery) finds the game over and
    changes nothing: no stand-in moves in an ended game."""
    worker_factory()
    gid = table.set_up_game(
        {"hands": ["R5 G9", "B1 B2 B3"], "discard": "R1", "dealer": 1}, users=2, turn_seconds=60
    )
    opened = int(table.act(gid, 1, "p.R5")["version"])  # uncalled: the window opens
    assert table.deadline(gid, "uno") is not None and table.deadline(gid) is not None
    assert table.http.post(f"/v1/games/{gid}/end", json={"user_id": 1}).status_code == 200
    assert table.deadline(gid, "uno") is None and table.deadline(gid) is None
    assert_old_timers_change_nothing(table, gid, opened)


def test_the_same_task_delivered_twice_is_applied_once(
    table: Table, worker_factory: Callable[..., ServiceProcess], redis_url: str
) -> None:
    """Two deliveries of one timer task (a redelivery, a second drainer) apply one move and
    count one missed deadline, never two (RULES.md §7: two misses mark a player away)."""
    worker_factory()
    gid = table.lobby_game(humans=2, turn_seconds=60)  # its own timer stays out of the way
    version, _ = table.deadline(gid) or pytest.fail("no turn deadline")
    owing = table.owing_seat(gid)
    assert owing is not None
    client = Celery(broker=redis_url)
    try:
        for _ in range(2):
            client.send_task("uno.fire_deadline", args=(gid, "turn", version))
        wait_for(lambda: len(table.fired(f"{gid}|turn|{version}")) == 2, 15, "both deliveries")
    finally:
        client.close()
    outcomes = sorted(f.outcome for f in table.fired(f"{gid}|turn|{version}"))
    assert outcomes in (["applied", "stale"], ["applied", "duplicate"])  # 2nd: stale or a repeat
    assert table.version(gid) == version + 1
    assert len(stand_ins(table.events(gid))) == 1
    assert table.info(gid)["seats"][owing].get("missed", 0) == 1


def test_s2_uno_window_closes_at_its_deadline(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """RULES.md §2 "UNO": the window closes after the UNO-window time if nobody closed it."""
    worker_factory()
    gid = table.set_up_game({"hands": ["R5 G9", "B1 B2 B3"], "discard": "R1", "dealer": 1}, users=2)
    result = table.act(gid, 1, "p.R5")  # down to one card without calling: the window opens
    opened = int(result["version"])
    assert table.deadline(gid, "uno") == (opened, pytest.approx(table.redis_now() + 1, abs=0.5))
    wait_for(lambda: table.version(gid) > opened, 10, "the window to close")
    events = [e for e in table.events(gid) if e["version"] == opened + 1]
    assert [e["type"] for e in events] == ["uno_window_closed"]
    assert [f.outcome for f in table.fired(f"{gid}|uno|{opened}")] == ["applied"]
    assert table.owing_seat(gid) == 1  # the next player's turn goes on untouched


def test_s2_uno_window_closed_by_the_next_player_is_left_alone(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """RULES.md §2 "UNO": the next player's action closes the window; its timer then does
    nothing."""
    worker_factory()
    gid = table.set_up_game({"hands": ["R5 G9", "B1 B2 R3"], "discard": "R1", "dealer": 1}, users=2)
    opened = int(table.act(gid, 1, "p.R5")["version"])
    after = int(table.act(gid, 2, "p.R3")["version"])  # the next player acts: window closed
    assert table.deadline(gid, "uno") is None
    due = table.redis_now() + 1.5
    wait_for(lambda: table.redis_now() > due, 5, "past the window's deadline")
    assert [f.outcome for f in table.fired(f"{gid}|uno|{opened}")] in ([], ["stale"])
    assert table.version(gid) == after


def test_s7_away_player_comes_back_and_plays_normally(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """RULES.md §7: two missed deadlines in a row mark a player away; the stand-in then plays
    their decisions after the short pause; "I'm back" ends that and they play as before."""
    worker_factory()
    gid = table.lobby_game(humans=2, turn_seconds=TURN_SECONDS)
    absent = table.owing_seat(gid)
    assert absent is not None
    present_user = (1 - absent) + 1

    def seat(info_seat: int) -> dict[str, object]:
        seats: list[dict[str, object]] = table.info(gid)["seats"]
        return seats[info_seat]

    def absent_owes() -> bool:
        """The present player plays whenever it is their turn, until the absent one owes."""
        owing = table.owing_seat(gid)
        if owing == 1 - absent:
            table.act(gid, present_user)
            return False
        return owing == absent

    # The absent player lets deadlines pass; the other plays at once whenever it is their turn.
    def absent_is_away() -> bool:
        if table.owing_seat(gid) == 1 - absent:
            table.act(gid, present_user)
        return bool(seat(absent).get("away"))

    wait_for(absent_is_away, 3 * TURN_SECONDS + 10, "two missed deadlines", poll=0.1)
    assert seat(absent).get("missed", 0) == 2
    # Away: their next decision is made after the short pause, not the turn time.
    wait_for(absent_owes, 10, "their turn")
    version, due = table.deadline(gid) or pytest.fail("no deadline")
    assert due - table.redis_now() < 1.0
    wait_for(lambda: table.version(gid) > version, 5, "the stand-in's quick move")

    table.back(gid, absent + 1)
    assert not seat(absent).get("away") and seat(absent).get("missed", 0) == 0
    # Their own turn again: the full turn time, and their own move goes in.
    wait_for(absent_owes, 10, "their turn")
    version, due = table.deadline(gid) or pytest.fail("no deadline")
    assert due - table.redis_now() > TURN_SECONDS - 1
    table.act(gid, absent + 1)
    assert table.version(gid) > version
    assert [e for e in stand_ins(table.events(gid)) if int(str(e["version"])) > version] == []
    assert seat(absent).get("missed", 0) == 0 and not seat(absent).get("away")


def test_s7_ai_seats_play_through_the_same_path(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """RULES.md §7: AI seats added at the lobby (every level, the searching hard one
    included) decide through the timer path, after the short pause, as themselves: no
    missed deadlines, never marked away."""
    worker_factory()
    gid = table.lobby_game(humans=1, ais=("strong", "random", "hard"), turn_seconds=TURN_SECONDS)

    def enough_ai_moves() -> bool:
        owing = table.owing_seat(gid)
        if owing == 0:
            table.act(gid, 1)
        movers = Counter(
            e.get("player") for e in table.events(gid) if e.get("type") in ("played", "drew")
        )
        every_ai_moved = all(movers[seat] >= 2 for seat in (1, 2, 3))
        return every_ai_moved or table.info(gid)["status"] != "playing"

    wait_for(enough_ai_moves, 60, "the AI seats to play", poll=0.1)
    info = table.info(gid)
    assert all(not s.get("away") and not s.get("missed") for s in info["seats"][1:])
    assert stand_ins(table.events(gid)) == []  # an AI's move is its own, not a stand-in's
    assert {f.outcome for f in table.fired()} <= {"applied", "stale"}


def test_kill_9_with_timers_pending_then_restart_fires_every_timer_once(
    table: Table, engine_process: ServiceProcess, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """Timers survive a worker killed with SIGKILL: those it had claimed and was firing
    (the engine paused so they are stuck mid-request), those that fall due while no worker
    runs, and those still ahead all fire after the restart, each applied exactly once.
    Prints the worst lateness (the figure; bench/timer_lateness.py measures it at scale)."""
    worker = worker_factory()
    games: dict[str, tuple[str, int, float]] = {}  # gid -> (group, version, due)

    def create(group: str, count: int) -> None:
        for _ in range(count):
            gid = table.lobby_game(humans=2, turn_seconds=TURN_SECONDS)
            version, due = table.deadline(gid) or pytest.fail("no turn deadline")
            games[gid] = (group, version, due)

    create("in flight at the kill", 6)
    first_due = min(due for _, _, due in games.values())
    wait_for(lambda: table.redis_now() > first_due - 4.0, 5, "a second later")
    create("due while no worker runs", 6)
    wait_for(lambda: table.redis_now() > first_due - 1.0, 5, "just before the first deadline")
    create("due after the restart", 6)

    in_flight = {g for g, (group, _, _) in games.items() if group == "in flight at the kill"}
    engine_process.pause()  # the worker's requests for the first group now hang mid-flight
    try:
        wait_for(
            lambda: in_flight <= {m.split("|")[0] for m in table.claimed()},
            10,
            "the worker to claim the first group",
        )
        worker.kill()
    finally:
        engine_process.resume()
    wait_for(lambda: table.redis_now() > first_due + 2.0, 5, "the second group to fall due")
    restarted = worker_factory()

    advanced_at: dict[str, float] = {}

    def all_advanced() -> bool:
        for gid, (_, version, _) in games.items():
            if gid not in advanced_at and table.version(gid) > version:
                advanced_at[gid] = table.redis_now()
        return len(advanced_at) == len(games)

    wait_for(all_advanced, 30, "every timer to fire", poll=0.02)
    restarted.stop()  # before the next turn's deadlines (a full turn time later) fall due
    lateness = {gid: advanced_at[gid] - due for gid, (_, _, due) in games.items()}
    for gid, (group, version, _) in games.items():
        events = table.events(gid)
        # The missed deadline fired once; a stand-in move after it (not timed out) is the
        # stand-in finishing that turn (a drawn card to play or keep), not a second firing.
        misses = [e["version"] for e in stand_ins(events) if e["timed_out"]]
        assert misses == [version + 1], (group, events)
        finishing = [e for e in stand_ins(events) if not e["timed_out"]]
        assert all(e["version"] > version + 1 for e in finishing), (group, events)
    worst = {
        group: max(lateness[g] for g, (grp, _, _) in games.items() if grp == group)
        for group, _, _ in games.values()
    }
    print(f"\nworst lateness after kill -9 and restart: {worst}")


def test_two_workers_fire_each_deadline_once(
    table: Table, worker_factory: Callable[..., ServiceProcess]
) -> None:
    """Several worker processes drain the same board: each deadline is claimed by one of them
    and fired once (RULES.md §7: one stand-in move, one missed deadline)."""
    workers = [worker_factory(), worker_factory()]
    games = {}
    for _ in range(10):
        gid = table.lobby_game(humans=2, turn_seconds=TURN_SECONDS)
        games[gid] = table.deadline(gid) or pytest.fail("no turn deadline")
    last_due = max(due for _, due in games.values())
    members = {f"{gid}|turn|{version}" for gid, (version, _) in games.items()}
    wait_for(
        lambda: members <= {f.member for f in table.fired()},
        last_due - table.redis_now() + 15,
        "every deadline to fire",
    )
    for proc in workers:
        proc.stop()
    fired = [f for f in table.fired() if f.member in members]
    assert sorted(f.member for f in fired) == sorted(members)  # one fire each
    assert {f.outcome for f in fired} == {"applied"}
    for gid, (version, _) in games.items():
        # One move for the missed deadline; the rest of that turn (a drawn card to decide)
        # is the stand-in finishing it, no second miss.
        misses = [e["version"] for e in stand_ins(table.events(gid)) if e["timed_out"]]
        assert misses == [version + 1]
