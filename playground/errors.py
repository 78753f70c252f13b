"""Telegram's refusals: the error envelope of the Bot API with Telegram's own descriptions.

Every refusal a method can give is raised as :class:`BotApiError` and answered as
``{"ok": false, "error_code": N, "description": "...", "parameters": {...}}``. The wording of
each description is Telegram's (the Bot API server's), so a bot that matches on it here
matches on it against the real one.
"""

from __future__ import annotations

from typing import Any


class BotApiError(Exception):
    """A Bot API call refused with ``error_code`` and Telegram's ``description``."""

    def __init__(
        self, error_code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def envelope(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(what: str) -> BotApiError:
    """400 ``Bad Request: <what>``."""
    return BotApiError(400, f"Bad Request: {what}")


def forbidden(what: str) -> BotApiError:
    """403 ``Forbidden: <what>``."""
    return BotApiError(403, f"Forbidden: {what}")


def too_many_requests(retry_after: int) -> BotApiError:
    """429 with ``parameters.retry_after`` (whole seconds, at least 1)."""
    retry_after = max(1, retry_after)
    return BotApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


def conflict(what: str) -> BotApiError:
    """409 ``Conflict: <what>`` (getUpdates against a webhook or a second poller)."""
    return BotApiError(409, f"Conflict: {what}")


def not_served(method: str) -> BotApiError:
    """501 for a method the local Telegram does not serve. Telegram answers an unknown
    method with 404 ``Not Found``, but every client library reads a 404 as a wrong token
    (python-telegram-bot raises ``InvalidToken``), so a method that is real but not
    emulated here must not look like one."""
    return BotApiError(
        501, f"Not Implemented: the local Telegram does not serve the method {method!r}"
    )


UNAUTHORIZED = BotApiError(401, "Unauthorized")

CHAT_NOT_FOUND = "chat not found"
MESSAGE_TEXT_EMPTY = "message text is empty"
MESSAGE_TOO_LONG = "message is too long"
MESSAGE_TO_EDIT_NOT_FOUND = "message to edit not found"
MESSAGE_CANT_BE_EDITED = "message can't be edited"
MESSAGE_TO_DELETE_NOT_FOUND = "message to delete not found"
MESSAGE_CANT_BE_DELETED = "message can't be deleted"
MESSAGE_NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
BOT_BLOCKED = "bot was blocked by the user"
CANT_INITIATE = "bot can't initiate conversation with a user"
