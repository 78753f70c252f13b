"""One person's flood, kept from every other chat (README "Flood limits").

Each update a person sends is handled as a task of its own (the app's handlers do not
block), so a reply waiting for its chat's budget holds none of PTB's update slots, which
the renderer needs too. Before that, this guard:

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
from services.bot.i18n import gettext
from services.bot.ratelimit import REPLY_WORTH, Bucket, RedisRateLimiter, replies, worth

#: After one "Slow down" toast, the person's refused presses go unanswered this long.
TOAST_SECONDS = 10
#: A person refused is refused here, without asking Redis, this long (a fraction of the
#: cooldown's own interval, so no one is held back longer than the bucket says).
LOCAL_SECONDS = 0.25

_refused_until: dict[int, float] = {}


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
    if _refused_until.get(user.id, 0.0) > now:
        raise ApplicationHandlerStop
    settings = services(context).settings
    bucket = Bucket(
        interval=1 / settings.bot_user_updates_per_second, burst=settings.bot_user_update_burst
    )
    if await limiter.admit(f"user:{user.id}", bucket):
        return
    if len(_refused_until) > 10_000:  # forget the ones whose time is up
        for key in [k for k, until in _refused_until.items() if until <= now]:
            del _refused_until[key]
    _refused_until[user.id] = now + min(LOCAL_SECONDS, bucket.interval)
    query = update.callback_query
    if query is not None and await services(context).memory.first_time(
        f"slow:{user.id}", ttl=TOAST_SECONDS
    ):
        await query.answer(gettext(locale_of(user), "Slow down: too many presses at once."))
    raise ApplicationHandlerStop
