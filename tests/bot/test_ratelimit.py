"""The shared flood limits: replicas draw on one budget per token in Redis; a 429 holds
the buckets and the call goes again. (Waits are read from the reservation, not timed.)"""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio import Redis
from telegram.error import RetryAfter

from services.bot.ratelimit import (
    RESERVED,
    TAKEN,
    Bucket,
    NotAfforded,
    RedisRateLimiter,
    paced,
    per_second,
    replies,
    worth,
)


def limiter(redis: Redis, group: Bucket) -> RedisRateLimiter:
    return RedisRateLimiter(redis, "42", group=group, private=Bucket(1.0, 1))


async def test_replicas_share_a_groups_budget(redis: Redis) -> None:
    one, two = limiter(redis, Bucket(60.0, 2)), limiter(redis, Bucket(60.0, 2))
    keys = one.buckets("editMessageText", {"chat_id": -100})
    assert [k for k, _ in keys] == ["bot:rate:42", "bot:rate:42:-100"]
    waits = [
        await replica.reserve("editMessageText", {"chat_id": -100}) for replica in (one, two, one)
    ]
    # The burst of two goes at once, whichever replica sends; the third waits its turn.
    assert waits[0] == 0 and waits[1] == 0 and waits[2] > 50


def test_answers_to_queries_are_not_metered(redis: Redis) -> None:
    one = limiter(redis, Bucket(60.0, 2))
    assert one.buckets("answerCallbackQuery", {"callback_query_id": "1"}) == []
    assert one.buckets("answerInlineQuery", {"inline_query_id": "1"}) == []
    assert [k for k, _ in one.buckets("sendMessage", {"chat_id": 7})][1] == "bot:rate:42:7"


def test_a_groups_bucket_keeps_telegrams_rate_with_two_at_once() -> None:
    """20 a minute is one write every 3 s, not fewer; two may go at once after a quiet
    spell (what lets a table write wait for the next move)."""
    bucket = paced(20, 60.0)
    assert bucket.interval == pytest.approx(3.0) and bucket.burst == 2
    assert bucket.args() == (3000, 3000)


async def test_a_slot_taken_only_if_free_now_takes_nothing_otherwise(redis: Redis) -> None:
    one = limiter(redis, Bucket(60.0, 2))
    call = ("editMessageText", {"chat_id": -100})
    # A full bucket: a slot with one more free after it.
    assert await one.reserve(*call, most=0, spare=1) == 0
    # One left: free now, but not with another after it, and asking so takes nothing.
    assert await one.reserve(*call, most=0, spare=1) == -1
    assert await one.reserve(*call, most=0) == 0
    assert await one.reserve(*call, most=0) == -1
    assert await one.room(*call) > 50


# PTB's own RetryAfter warns when it is made (its int form is going away).
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_429_holds_the_bucket_and_sends_again(redis: Redis) -> None:
    one = limiter(redis, Bucket(0.01, 5))
    calls = 0

    async def callback(**kwargs: Any) -> bool:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RetryAfter(1)
        return True

    result = await one.process_request(callback, (), {}, "sendMessage", {"chat_id": -5}, None)
    assert result is True and calls == 2


async def test_room_reads_the_wait_and_reserves_nothing(redis: Redis) -> None:
    one = limiter(redis, Bucket(60.0, 2))
    call = ("editMessageText", {"chat_id": -100})
    assert await one.room(*call) == 0 and await one.room(*call, spare=1) == 0
    assert await one.reserve(*call) == 0
    # One slot of the burst left: it may go now, but not with another spare after it.
    assert await one.room(*call) == 0 and 50 < await one.room(*call, spare=1) <= 60
    assert await one.reserve(*call) == 0
    peeked = await one.room(*call)
    assert peeked > 50 and await one.room(*call) == pytest.approx(peeked, abs=1)
    # Peeking took no slot: the next reservation waits what the peek said, not a slot more.
    assert await one.reserve(*call) == pytest.approx(peeked, abs=1)


async def test_a_call_sent_on_a_reserved_slot_takes_no_second_one(redis: Redis) -> None:
    one = limiter(redis, Bucket(60.0, 1))
    call = ("editMessageText", {"chat_id": -100})
    assert await one.reserve(*call) == 0

    async def callback(**kwargs: Any) -> bool:
        return True

    assert await one.process_request(callback, (), {}, *call, RESERVED) is True
    # Only the reserved slot was used: the next reservation waits one interval, not two.
    assert 50 < await one.reserve(*call) <= 60


async def test_a_chats_free_slot_and_the_tokens_are_taken_together(redis: Redis) -> None:
    """go_now: the chat's slot if free now, with the token's in the same call (its wait is
    the token's); a call sent so takes neither again. A chat with no room now takes
    nothing, of the token's budget either."""
    one = RedisRateLimiter(redis, "42", overall=Bucket(60.0, 2), group=Bucket(60.0, 1))
    call, other = ("sendMessage", {"chat_id": -100}), ("sendMessage", {"chat_id": -200})

    async def callback(**kwargs: Any) -> bool:
        return True

    assert await one.go_now(*call) == 0
    assert await one.process_request(callback, (), {}, *call, TAKEN) is True
    # The token's second slot is still free; the chat's one slot is gone.
    assert await one.room(*other) == 0
    assert await one.go_now(*call) == -1
    assert await one.room(*other) == 0  # nothing was taken
    # The token's budget spent (the other chat took its last slot): the chat's free slot
    # is taken, and the answer is the wait for the token's.
    assert await one.go_now(*other) == 0
    third = ("sendMessage", {"chat_id": -300})
    assert await one.go_now(*third) > 50


@pytest.mark.parametrize("limit", [30.0, 10.0, 2.0])
def test_the_overall_bucket_keeps_the_rate_with_a_third_of_it_at_once(limit: float) -> None:
    bucket = per_second(limit)
    assert 1 / bucket.interval == pytest.approx(limit)
    # Within what Telegram (and the local Telegram, a second's worth at once) lets through.
    assert 1 <= bucket.burst <= max(1, limit // 3)


async def test_a_call_waiting_for_its_chat_holds_no_slot_of_the_token(redis: Redis) -> None:
    """The chat's slot first, the token's when the call goes: one group's queue of
    messages leaves the overall budget to every other chat meanwhile."""
    one = RedisRateLimiter(redis, "42", overall=Bucket(60.0, 1), group=Bucket(60.0, 1))
    busy, other = ("sendMessage", {"chat_id": -100}), ("sendMessage", {"chat_id": -200})
    assert await one.reserve(*busy) == 0
    assert await one.reserve(*busy) > 50  # waits for its chat
    assert await one.room(*other) == 0  # the token's one slot is still free


async def test_a_reply_not_worth_its_wait_is_dropped_and_takes_nothing(redis: Redis) -> None:
    one = limiter(redis, Bucket(60.0, 2))
    call = ("sendMessage", {"chat_id": -100})
    sent = 0

    async def callback(**kwargs: Any) -> bool:
        nonlocal sent
        sent += 1
        return True

    assert await one.process_request(callback, (), {}, *call, worth(5)) is True
    # One slot left: a reply would leave none for the group's next move.
    token = replies.set(worth(5))  # what a handler's reply_text carries (flood.py)
    try:
        with pytest.raises(NotAfforded):
            await one.process_request(callback, (), {}, *call, None)
    finally:
        replies.reset(token)
    assert sent == 1
    assert await one.reserve(*call) == 0  # the dropped reply took nothing: the move's slot


async def test_a_reservation_further_off_than_its_worth_takes_nothing(redis: Redis) -> None:
    """How an inline message's edit meets its chat's budget (Outbox.edit_inline): the call
    names no chat, so the chat's slot is reserved first, and only if it comes soon enough."""
    one = limiter(redis, Bucket(60.0, 1))
    call = ("editMessageText", {"chat_id": -100})
    assert await one.reserve(*call, most=10) == 0
    assert await one.reserve(*call, most=10) == -1  # the next slot is a minute off
    assert 50 < await one.reserve(*call) <= 60  # the refused reservation took no slot
