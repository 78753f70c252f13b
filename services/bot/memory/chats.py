"""A chat's games in play, so that a command in a chat (or a member leaving it) finds them.

Keys: ``bot:chat:{chat}``, a hash of forum topic (0 outside forums) → game id; one key per
chat, not per topic, so that a member leaving finds every game of theirs in one read.
(``bot:chat:{chat}:{topic}``, a game's id, is the older form, read until it lapses.)
"""

from __future__ import annotations

from services.bot.memory.store import PREFIX, Store, text

# KEYS[1]: a chat's games; ARGV: topic, game id. The topic's game is forgotten only if it is
# still this one (a newer game of the topic stays).
_FORGET = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
"""


def chat_key(chat_id: int) -> str:
    return f"{PREFIX}chat:{chat_id}"


class ChatGames(Store):
    chat_key = staticmethod(chat_key)

    async def forget_game(self, game_id: str, chat_id: int, topic_id: int) -> None:
        await self.script(_FORGET)(keys=[chat_key(chat_id)], args=[str(topic_id), game_id])

    async def chat_game(self, chat_id: int, topic_id: int = 0) -> str | None:
        value = await self.redis.hget(chat_key(chat_id), str(topic_id))
        if value is None:
            # A game begun before chats kept one hash had a key per topic; it lapses with
            # TTL_SECONDS, and this read with it.
            value = await self.redis.get(f"{chat_key(chat_id)}:{topic_id}")
        return text(value) if value else None

    async def chat_games(self, chat_id: int) -> list[str]:
        """The games this bot remembered in the chat, in every forum topic (some may be over
        or forgotten: the engine says which are still on; lobby.py "A member leaves the
        group")."""
        raw = await self.redis.hvals(chat_key(chat_id))
        return sorted({text(m) for m in raw})
