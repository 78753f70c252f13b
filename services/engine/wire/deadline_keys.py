"""The Redis keys of the deadline board, which the engine writes and the worker drains.

RULES.md §7 "Timing in a chat": the engine records each owed decision's deadline as a
member of ``DEADLINES_KEY`` in the same atomic step as the state write that creates it; the
worker (services/worker/timers.py) moves due members through the others, and appends the
turns whose reminder fell due to ``NUDGES_KEY``, which the bot reads. They all name the keys
from here so the sides cannot drift apart.
"""

from __future__ import annotations

#: Pending deadlines, written by the engine; score = unix seconds when each is due.
DEADLINES_KEY = "uno:deadlines"
#: Deadlines a worker has claimed to fire: already due; score = when the claim's lease ends.
CLAIMED_KEY = "uno:deadlines:claimed"
#: member -> "attempt|due": what a claim's re-claim needs (the original due time, the count).
CLAIMS_KEY = "uno:deadlines:claims"
#: Deadlines given up on after ``timer_max_attempts`` claims (kept for a human).
DEAD_KEY = "uno:deadlines:dead"
#: Turns whose reminder fell due (a ``nudge`` deadline the worker fired): a stream the bot
#: reads with the event log, its entries shaped as the log's (``g``, ``v``, ``e``: one
#: ``turn_nudge_due`` event), so the bot, which alone speaks to Telegram, sends it. The Mini
#: App appends to it too: an ``app_closed`` entry when a person's last table stream of a
#: game closes (services/app_presence.py), for the bot to write the group's table then.
NUDGES_KEY = "uno:nudges"
#: About how many reminders the stream keeps (the bot reads them within seconds).
NUDGES_MAXLEN = 1_000
