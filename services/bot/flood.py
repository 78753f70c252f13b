"""One person's flood, kept from every other chat (README "Flood limits").

Each update a person sends is handled as a task of its own (the app's handlers do not
block), so a reply waiting for its chat's budget holds none of PTB's update slots, which
the publisher needs too. Before that, this guard:

- marks the update's replies as worth ``ratelimit.REPLY_WORTH``: a reply its chat's budget
  cannot afford that soon (with the chat's next slot still free for a move) is dropped;
- keeps a per-person cooldown (a token bucket in Redis, shared by replicas): past
  ``bot_user_update_burst`` presses and commands at once and ``bot_user_updates_per_second``
  after, they are not handled; a flood of presses is answered with one toast "Slow down",
  and the rest of it not at all (the client's spinner stops by itself): a flood costs the
  bot no call to Telegram beyond that toast. Once refused, a person is refused in this
  replica without asking Redis for ``LOCAL_SECONDS``, so a flood costs it next to nothing.
"""

from __future__ import annotations

import time

from telegram import Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from services.bot.context import locale_of, services
from services.bot.ratelimit import REPLY_WORTH, Bucket, RedisRateLimiter, replies, worth
from services.presentation.screens.refusals import slow_down

#: After one "Slow down" toast, the person's refused presses go unanswered this long.
TOAST_SECONDS = 10
#: A person refused is refused here, without asking Redis, this long (a fraction of the
#: cooldown's own interval, so no one is held back longer than the bucket says).
LOCAL_SECONDS = 0.25

#: Until when (monotonic) a person is refused here without asking Redis.
_refused_until: dict[int, float] = {}
#: Until when this replica has asked about a person's "Slow down" toast: a flood's presses
#: refused here ask Redis about it once, not once each.
_toasted_until: dict[int, float] = {}


def _remember(until: dict[int, float], user_id: int, at: float, now: float) -> None:
    if len(until) > 10_000:  # forget the ones whose time is up
        for key in [k for k, t in until.items() if t <= now]:
            del until[key]
    until[user_id] = at


def _limiter(context: ContextTypes.DEFAULT_TYPE) -> RedisRateLimiter | None:
    limiter = getattr(context.bot, "rate_limiter", None)
    return limiter if isinstance(limiter, RedisRateLimiter) else None


def _counted(update: Update) -> bool:
    """Presses and commands: what makes the bot call the engine or answer in a chat."""
    if update.callback_query is not None:
        return True
    message = update.message
    return message is not None and (message.text or "").startswith("/")


async def guard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    replies.set(worth(REPLY_WORTH))
    user = update.effective_user
    limiter = _limiter(context)
    if user is None or limiter is None or not _counted(update):
        return
    now = time.monotonic()
    if _refused_until.get(user.id, 0.0) <= now:
        settings = services(context).settings
        bucket = Bucket(
            interval=1 / settings.bot_user_updates_per_second,
            burst=settings.bot_user_update_burst,
        )
        if await limiter.admit(f"user:{user.id}", bucket):
            return
        _remember(_refused_until, user.id, now + min(LOCAL_SECONDS, bucket.interval), now)
    query = update.callback_query
    # The flood's first refused press gets the toast, whether it was refused by the bucket
    # or here (a flood of commands may have used the bucket up just before).
    if query is not None and _toasted_until.get(user.id, 0.0) <= now:
        _remember(_toasted_until, user.id, now + TOAST_SECONDS, now)
        if await services(context).memory.first_time(f"slow:{user.id}", ttl=TOAST_SECONDS):
            await query.answer(slow_down(locale_of(user)))
    raise ApplicationHandlerStop
