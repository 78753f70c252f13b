"""A finished game's replay from the Mini App over real HTTP, against the real engine and
the local Telegram: every position and every hand once the game is over, in the person's
language, with each round's commitment and the seed its end revealed (RULES.md §2
"Checking a deal"); the check of its deals round by round; and the refusals, each clear and
leaking nothing: a game still played (its hands stay hidden), a chat not the person's, an
unknown or malformed id, a launch not signed by Telegram."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import httpx
import pytest

from harness.services import ENGINE_TOKEN
from services.engine.client import EngineClient, GameInfo
from services.move_ids import is_game_id
from services.records.prepare import prepare_database
from services.records.writer import GameFacts, record_write
from tests.helpers.webapp import WebAppStack, deal_classic, finished_game, start_webapp


def get(stack: WebAppStack, path: str, init_data: str) -> httpx.Response:
    return httpx.get(
        f"{stack.url()}{path}", headers={"Authorization": f"tma {init_data}"}, timeout=60
    )


@pytest.fixture(scope="module")
def played(webapp_stack: WebAppStack) -> GameInfo:
    """A round of Ann's and Bob's played out to the game's end (target score 1)."""
    return asyncio.run(finished_game(webapp_stack))


def test_a_member_replays_every_position_with_every_hand(
    webapp_stack: WebAppStack, played: GameInfo
) -> None:
    stack, gid = webapp_stack, played.game_id
    assert played.status == "over"
    answer = get(stack, f"/v1/games/{gid}/replay", stack.launch("Sam", gid))  # a spectator
    assert answer.status_code == 200, answer.text
    replay = answer.json()
    positions = replay["positions"]
    first, last = positions[0], positions[-1]
    assert first["index"] is None and first["words"]["step"] == "the deal"
    # every hand, as many cards as the table counts (7 dealt, 9 after a +2 turned up)
    assert [len(hand) for hand in first["hands"]] == [s["cards"] for s in first["view"]["seats"]]
    assert all(len(hand) >= 7 for hand in first["hands"])
    assert len(positions) == sum(r["moves"] for r in replay["rounds"]) + 1
    assert last["words"]["game_over"].startswith("🏆")
    assert any(len(hand) == 0 for hand in last["hands"])  # the winner's hand played out
    assert all(code in replay["cards"] for p in positions for hand in p["hands"] for code in hand)
    assert [s["name"] for s in replay["seats"]] == ["Ann", "Bob"]


def test_each_rounds_revealed_seed_matches_its_commitment(
    webapp_stack: WebAppStack, played: GameInfo
) -> None:
    """RULES.md §2 "Checking a deal": the seed revealed hashes to the commitment shown."""
    stack, gid = webapp_stack, played.game_id
    replay = get(stack, f"/v1/games/{gid}/replay", stack.launch("Ann", gid)).json()
    for entry in replay["rounds"]:
        commitment = hashlib.sha256(entry["seed"].encode()).hexdigest()
        assert entry["commitment"] == commitment
        assert entry["fingerprint"] == commitment[:8]


def test_the_replay_speaks_the_persons_language(
    webapp_stack: WebAppStack, played: GameInfo
) -> None:
    stack, gid = webapp_stack, played.game_id
    replay = get(stack, f"/v1/games/{gid}/replay", stack.launch("Bob", gid)).json()  # fa
    assert replay["words"]["dir"] == "rtl" and replay["words"]["lang"] == "fa"
    assert replay["positions"][0]["words"]["step"] != "the deal"


def test_the_check_of_the_deals_passes_round_by_round(
    webapp_stack: WebAppStack, played: GameInfo
) -> None:
    stack, gid = webapp_stack, played.game_id
    answer = get(stack, f"/v1/games/{gid}/replay/verdict", stack.launch("Ann", gid))
    assert answer.status_code == 200, answer.text
    verdict = answer.json()
    assert verdict["valid"] is True and verdict["words"].startswith("✅")
    assert [r["ok"] for r in verdict["rounds"]] == [True] * len(verdict["rounds"])


def only_a_refusal(answer: httpx.Response, status: int, error: str) -> dict[str, Any]:
    """The answer is ``status`` with ``error``, and nothing of the game in it."""
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert body["error"] == error
    assert set(body) <= {"error", "message", "words", "retry_after_ms"}
    return body


def test_a_game_still_played_is_refused_and_nothing_of_it_shown(
    webapp_stack: WebAppStack,
) -> None:
    stack = webapp_stack
    game = asyncio.run(finished_game(stack, moves=2))  # ended: a replay
    assert game.status == "ended"
    # A game in play, its hands dealt.
    live = asyncio.run(deal_classic(stack, ["R5 R6 B9 G1", "R7 G7 G8 Y2"]))
    for path in (f"/v1/games/{live.game_id}/replay", f"/v1/games/{live.game_id}/replay/verdict"):
        answer = get(stack, path, stack.launch("Ann", live.game_id))
        body = only_a_refusal(answer, 409, "game_in_progress")
        assert body["words"] == "This game is still being played: its replay opens when it ends."
        assert "R5" not in answer.text and "R7" not in answer.text
    # the game ended early replays, to where it ended
    ended = get(stack, f"/v1/games/{game.game_id}/replay", stack.launch("Ann", game.game_id))
    assert ended.status_code == 200 and len(ended.json()["positions"]) == 3


def test_a_person_not_in_the_chat_is_refused(webapp_stack: WebAppStack, played: GameInfo) -> None:
    stack, gid = webapp_stack, played.game_id
    for path in (f"/v1/games/{gid}/replay", f"/v1/games/{gid}/replay/verdict"):
        answer = get(stack, path, stack.signed("Out"))
        body = only_a_refusal(answer, 403, "not_in_chat")
        assert body["words"] == "Only members of this game's chat can watch its replay."


def test_unknown_and_malformed_ids_and_forged_launches_are_refused(
    webapp_stack: WebAppStack, played: GameInfo
) -> None:
    stack = webapp_stack
    ann = stack.signed("Ann")
    only_a_refusal(get(stack, "/v1/games/Gzzzzzzzzzzz/replay", ann), 404, "no_game")
    only_a_refusal(get(stack, "/v1/games/not%20an%20id!/replay", ann), 404, "no_game")
    only_a_refusal(get(stack, f"/v1/games/{'G' * 300}/replay", ann), 404, "no_game")
    only_a_refusal(get(stack, "/v1/games/x'%3B--/replay", ann), 404, "no_game")
    forged = stack.signed("Ann", token="123:not-the-bots-token")
    only_a_refusal(get(stack, f"/v1/games/{played.game_id}/replay", forged), 401, "bad_init_data")
    bare = httpx.get(f"{stack.url()}/v1/games/{played.game_id}/replay", timeout=30)
    only_a_refusal(bare, 401, "bad_init_data")


def test_the_replay_is_sent_compressed_to_a_client_that_takes_it(
    webapp_stack: WebAppStack, played: GameInfo
) -> None:
    stack, gid = webapp_stack, played.game_id
    url = f"{stack.url()}/v1/games/{gid}/replay"
    auth = f"tma {stack.launch('Ann', gid)}"
    packed = httpx.get(url, headers={"Authorization": auth, "Accept-Encoding": "gzip"}, timeout=60)
    plain = httpx.get(
        url, headers={"Authorization": auth, "Accept-Encoding": "identity"}, timeout=60
    )
    assert packed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert packed.json() == plain.json()


def test_the_replay_page_is_served(webapp_stack: WebAppStack) -> None:
    page = httpx.get(f"{webapp_stack.url()}/replay", timeout=30)
    assert page.status_code == 200 and "/static/replay.js" in page.text
    assert "frame-ancestors" in page.headers["content-security-policy"]


def test_a_game_the_engine_no_longer_holds_replays_from_the_records(
    webapp_stack: WebAppStack, played: GameInfo
) -> None:
    """Every finished game is kept: once the engine has let it go, a replica that reads the
    records (``UNO_WEBAPP_REPLAY_ARCHIVE``) replays it from its archive, to the members of
    its chat alone."""
    stack = webapp_stack
    records_url = f"sqlite:///{stack.log_dir / 'replay-records.db'}"
    records = prepare_database(records_url)

    async def exported() -> dict[str, Any]:
        async with EngineClient(stack.engine_url, ENGINE_TOKEN) as engine:
            return await engine.export(played.game_id)

    export = asyncio.run(exported())
    gone = "Zarchived_01"  # an id the engine never had: it has let the game go
    assert is_game_id(gone)
    facts = GameFacts.from_game_info(played, export)
    ended = [{"type": "game_over", "winner": export["winner"], "scores": export["scores"]}]
    record_write(records, gone, played.version, ended, facts)
    replica = start_webapp(
        stack,
        "webapp-archive",
        UNO_WEBAPP_REPLAY_ARCHIVE="1",
        UNO_DATABASE_URL=records_url,
    )
    stack.replicas.append(replica)
    try:
        url = f"{replica.url}/v1/games/{gone}/replay"
        ann = httpx.get(url, headers={"Authorization": f"tma {stack.signed('Ann')}"}, timeout=60)
        assert ann.status_code == 200, ann.text
        replay = ann.json()
        assert replay["game"] == gone and [s["name"] for s in replay["seats"]] == ["Ann", "Bob"]
        assert replay["positions"][-1]["words"]["game_over"].startswith("🏆")
        out = httpx.get(url, headers={"Authorization": f"tma {stack.signed('Out')}"}, timeout=60)
        only_a_refusal(out, 403, "not_in_chat")
        # the replica that does not read the records: no such game
        only_a_refusal(get(stack, f"/v1/games/{gone}/replay", stack.signed("Ann")), 404, "no_game")
    finally:
        stack.replicas.remove(replica)
        replica.stop()
