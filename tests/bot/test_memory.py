"""The bot's memory in Redis: the render lock that renders by version, the last moves in
order, hand messages, said-once markers."""

from __future__ import annotations

from services.bot.memory import UPDATE_BLOCK_BITS, Memory, Nudge


async def test_render_lock_renders_every_version_seen(memory: Memory) -> None:
    await memory.remember_game("g1", -100, 0, "Friday", "en")
    assert await memory.saw_version("g1", 3, "a", 5000)
    # Another replica sees version 4 while "a" renders: it does not render, but "a" must.
    assert not await memory.saw_version("g1", 4, "b", 5000)
    assert not await memory.done_rendering("g1", 3, "a", 5000)
    assert await memory.shown_version("g1") == 3  # 4 is not acknowledged until shown
    assert await memory.done_rendering("g1", 4, "a", 5000)
    assert await memory.shown_version("g1") == 4
    # Free again: the next version's reader takes it.
    assert await memory.saw_version("g1", 5, "b", 5000)
    # An older version seen late does not lower what was seen.
    assert not await memory.saw_version("g1", 2, "c", 5000)
    assert await memory.done_rendering("g1", 5, "b", 5000)


async def test_a_dead_renderers_lock_expires(memory: Memory) -> None:
    await memory.remember_game("g1", -100, 0, "Friday", "en")
    assert await memory.saw_version("g1", 1, "dead", 50)
    import asyncio

    for _ in range(100):
        if await memory.saw_version("g1", 2, "alive", 50):
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the lock never expired")
    # The dead owner's late release does not free the live owner's lock.
    await memory.drop_lock("g1", "dead")
    assert not await memory.saw_version("g1", 3, "other", 5000)


async def test_the_render_lock_comes_with_the_games_memory_and_moves(memory: Memory) -> None:
    await memory.remember_game("g1", -100, 0, "Friday", "en", table_message=9)
    await memory.add_moves("g1", 3, [{"type": "played", "card": "R3"}], keep=3)
    claim = await memory.claim_render("g1", 3, "a", 5000)
    assert claim.held and not claim.shown and claim.game is not None
    assert (claim.game.chat_id, claim.game.table_message) == (-100, 9)
    assert [m["card"] for m in claim.moves] == ["R3"]
    waiting = await memory.claim_render("g1", 4, "b", 5000)
    assert not waiting.held and not waiting.shown and waiting.game is None
    assert await memory.done_rendering("g1", 3, "a", 5000) is False  # 4 was seen
    assert await memory.done_rendering("g1", 4, "a", 5000)
    # A version shown already: nothing recorded, nothing taken.
    assert (await memory.claim_render("g1", 4, "c", 5000)).shown
    assert await memory.seen_version("g1") == 4


async def test_an_entry_is_noted_only_for_a_game_remembered(memory: Memory) -> None:
    played = [{"type": "played", "card": "R5"}]
    assert await memory.note_entry("g9", 5, played, 3) is None
    assert await memory.moves("g9") == [] and await memory.game("g9") is None
    await memory.remember_game("g9", -100, 0, "Friday", "en")
    mem = await memory.note_entry("g9", 5, played, 3)
    assert mem is not None and mem.chat_id == -100
    await memory.note_entry("g9", 6, [{"type": "drew", "count": 1}], 3)
    assert [m["type"] for m in await memory.moves("g9")] == ["played", "drew"]
    # A new round's entry drops the moves before it, then adds its own.
    await memory.note_entry("g9", 8, [{"type": "played", "card": "B1"}], 3, new_round=True)
    assert [m.get("card") for m in await memory.moves("g9")] == ["B1"]


async def test_a_posted_table_supersedes_the_one_above(memory: Memory) -> None:
    await memory.remember_game("g1", -100, 0, "Friday", "en", table_message=9)
    await memory.count_chat_message("g1")
    assert not await memory.table_posted("g1", 10, None, tfp="x", frozen="")
    assert await memory.table_posted("g1", 11, 10, tfp="y", frozen="")
    mem = await memory.game("g1")
    assert mem is not None and (mem.table_message, mem.table_fingerprint, mem.scrolled) == (
        11,
        "y",
        0,
    )
    assert await memory.superseded("g1") == [10]


async def test_moves_keep_order_and_the_last_few_whole(memory: Memory) -> None:
    await memory.add_moves("g1", 7, [{"type": "played", "card": "R7"}], keep=2)
    await memory.add_moves("g1", 5, [{"type": "played", "card": "R5"}], keep=2)
    await memory.add_moves(
        "g1", 9, [{"type": "played", "card": "R+2"}, {"type": "drew", "count": 2}], keep=2
    )
    # The last two moves, each whole: the second of them has two events.
    assert [m.get("card", m["type"]) for m in await memory.moves("g1")] == ["R7", "R+2", "drew"]
    # The same entry rendered twice (a claimed entry) adds nothing; an old one claimed late
    # adds nothing that stays.
    await memory.add_moves(
        "g1", 9, [{"type": "played", "card": "R+2"}, {"type": "drew", "count": 2}], keep=2
    )
    await memory.add_moves("g1", 3, [{"type": "played", "card": "R3"}], keep=2)
    assert [m.get("card", m["type"]) for m in await memory.moves("g1")] == ["R7", "R+2", "drew"]
    await memory.add_moves("g1", 10, [{"type": "kept", "player": 0}], keep=2)
    assert [m.get("card", m["type"]) for m in await memory.moves("g1")] == ["R+2", "drew", "kept"]


async def test_game_hands_and_once(memory: Memory) -> None:
    await memory.remember_game("g1", -100, 4, "Friday", "en")
    await memory.update_game("g1", table=55, tfp="abc", frozen="11:1")
    mem = await memory.game("g1")
    assert mem is not None
    assert (mem.chat_id, mem.topic_id, mem.table_message, mem.frozen) == (-100, 4, 55, {11: 1})
    assert await memory.chat_game(-100, 4) == "g1"
    await memory.set_hand_message("g1", 11, 900, "fp", "fa")
    assert await memory.hand_messages("g1") == {11: (900, "fp", "fa")}
    # A hand remembered before hands kept their app's language reads as "unknown".
    await memory.redis.hset(memory.hands_key("g1"), "12", "901:fp2")
    assert (await memory.hand_messages("g1"))[12] == (901, "fp2", "")
    assert await memory.hand_message("g1", 12) == (901, "fp2", "")
    assert await memory.hand_message("g1", 13) is None
    assert await memory.first_time("x") and not await memory.first_time("x")
    await memory.forget_game("g1", -100, 4)
    assert await memory.chat_game(-100, 4) is None
    assert await memory.game("nope") is None


async def test_a_webhook_update_is_taken_once_in_bitmaps_of_its_block(memory: Memory) -> None:
    block = 2**UPDATE_BLOCK_BITS
    ids = [5, 6, block - 1, block, 3 * block + 7]
    assert [await memory.first_update(i, ttl=60) for i in ids] == [True] * len(ids)
    assert [await memory.first_update(i, ttl=60) for i in ids] == [False] * len(ids)
    assert await memory.first_update(7, ttl=60)  # a neighbour of a seen id is new
    keys = sorted([k.decode() async for k in memory.redis.scan_iter(match="bot:seen:*")])
    assert keys == ["bot:seen:0", "bot:seen:1", "bot:seen:3"]
    assert 0 < await memory.redis.ttl("bot:seen:3") <= 60
    assert not [k async for k in memory.redis.scan_iter(match="bot:once:*")]


async def test_one_hand_edit_at_a_time(memory: Memory) -> None:
    """A stale press's refresh (not waiting) gives way to an edit under way; the event
    log's edit (waiting) goes next, once the first is done."""
    async with memory.editing_hand("g1", 11, wait=True) as first:
        assert first
        async with memory.editing_hand("g1", 11, wait=False) as refresh:
            assert not refresh
        async with memory.editing_hand("g1", 12, wait=False) as someone_else:
            assert someone_else  # another player's hand is not held
    async with memory.editing_hand("g1", 11, wait=False) as after:
        assert after


async def test_a_chats_games(memory: Memory) -> None:
    """Every topic's game of a chat is found when a member leaves it (or comes back): the
    engine, told of it, holds them out of each."""
    await memory.remember_game("g1", -100, 0, "Friday", "en")
    await memory.remember_game("g2", -100, 4, "Friday", "en")
    await memory.remember_game("g3", -200, 0, "Other", "en")
    assert await memory.chat_games(-100) == ["g1", "g2"]
    await memory.forget_game("g1", -100, 0)  # over: no longer looked at
    assert await memory.chat_games(-100) == ["g2"]
    # A topic's next game replaces its last; forgetting the last leaves the next in place.
    await memory.remember_game("g4", -100, 4, "Friday", "en")
    await memory.forget_game("g2", -100, 4)
    assert await memory.chat_game(-100, 4) == "g4" and await memory.chat_games(-100) == ["g4"]
    # A game begun before chats kept one hash is still found through its old key.
    await memory.redis.set(f"{memory.chat_key(-300)}:7", "g0")
    assert await memory.chat_game(-300, 7) == "g0"


async def test_a_game_keeps_one_turn_reminder_and_one_caller_takes_it(memory: Memory) -> None:
    """README "Rendering", 7: the reminder's message lives in the game's memory; one that
    comes after the game moved on is refused, a second replaces the first, and it is taken
    (to be deleted) once, by a version past its decision."""
    await memory.redis.delete(Memory.game_key("gn"))
    await memory.remember_game("gn", -100, 0, "Friday", "en")
    assert await memory.saw_version("gn", 4, "a", 5000)
    assert await memory.keep_nudge("gn", Nudge(7, 70, 4)) is None
    assert (await memory.game("gn")).nudge == Nudge(7, 70, 4)  # type: ignore[union-attr]
    assert await memory.keep_nudge("gn", Nudge(8, 80, 4)) == Nudge(7, 70, 4)  # replaced
    assert await memory.take_nudge("gn", 4) is None  # still the decision it is about
    assert await memory.take_nudge("gn", 5) == Nudge(8, 80, 4)
    assert await memory.take_nudge("gn", 5) is None  # taken once
    assert not await memory.saw_version("gn", 6, "b", 5000)  # the game moved on meanwhile
    assert await memory.keep_nudge("gn", Nudge(7, 71, 5)) is False
    assert (await memory.game("gn")).nudge is None  # type: ignore[union-attr]
