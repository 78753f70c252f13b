"""The token bucket both fronts meter with: the bot for Telegram's flood limits
(services/bot/ratelimit.py), the Mini App for a person's flood of moves or reconnects
(services/webapp/flood.py).

Each bucket is kept in Redis as a "theoretical arrival time" (GCRA): one Lua call over one
or more buckets says how long until a slot is free in each and, when asked, reserves it, so
the limit holds whichever replica a request reaches. All times come from the Redis
server's clock (``TIME``), so replicas agree on "now". It lives outside both fronts'
packages because they import nothing of each other.
"""

from __future__ import annotations

# KEYS: buckets; ARGV: pairs of (interval ms, tolerance ms) per key, then ``spare``, then
# ``take`` (1: reserve one slot in every bucket, 0: only read), ``most`` (ms; -1: any
# wait) and ``judged``: how many of the first buckets ``spare`` and ``most`` are for (the
# others are taken as they come). Answers the wait (ms, the longest of the buckets') until a
# slot is free in each, with ``spare`` more after it in the judged ones; a reservation whose
# judged wait would be over ``most`` takes nothing and answers ``-1 - wait`` (always
# negative; ``refused_wait_ms`` reads the wait back).
TOKEN_BUCKETS = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = #ARGV
local spare = tonumber(ARGV[n - 3])
local take = tonumber(ARGV[n - 2]) == 1
local most = tonumber(ARGV[n - 1])
local judged = tonumber(ARGV[n])
local wait = 0
local after = 0
local tats = {}
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local tolerance = tonumber(ARGV[2 * i])
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  tats[i] = tat
  if i <= judged then
    local allow_at = tat + spare * interval - tolerance
    if allow_at - now > wait then wait = allow_at - now end
  elseif tat - tolerance - now > after then
    after = tat - tolerance - now
  end
end
local longest = math.max(wait, after)
if not take then return longest end
if most >= 0 and wait > most then return -1 - wait end
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local tolerance = tonumber(ARGV[2 * i])
  local tat = tats[i] + interval
  redis.call('SET', key, tat, 'PX', tat - now + tolerance + 1000)
end
return longest
"""


def refused_wait_ms(answer: int) -> int:
    """The wait (ms) a refused reservation (a negative answer of TOKEN_BUCKETS) reported."""
    return -1 - answer
