"""Who a chat member is, by the status Telegram's ``getChatMember`` gives (Bot API
``ChatMember``): one answer for every front, so the chat's lobby buttons and the Mini App's
lobby count the same people as members and as admins."""

from __future__ import annotations

#: Statuses of a chat member (a restricted one only while ``is_member``).
PRESENT = frozenset({"creator", "administrator", "member", "restricted"})
#: Statuses of a chat admin, who may do in the chat's lobby what its host may.
ADMINS = frozenset({"creator", "administrator"})


def is_admin_status(status: str) -> bool:
    return status in ADMINS
