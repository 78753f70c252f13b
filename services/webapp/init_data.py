"""``initData`` checked as Telegram's "Mini Apps on Telegram" documents it.

Telegram signs the launch data with the bot's token: ``hash`` is the hex HMAC-SHA-256 of
the data-check-string (every other field as ``key=value``, sorted by key, joined by
``\\n``) under the key HMAC-SHA-256("WebAppData", bot token). Only a holder of the token
can make one, so a valid ``hash`` proves the user; ``auth_date`` bounds how long a copy
serves. The check is the standard library's HMAC compared in constant time: the one
runtime library offering it (aiogram) would bring a second Telegram framework into the
image for twenty lines, and the tests hold this check to aiogram's all the same.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

#: A launch's initData is a few hundred bytes; anything much longer was not made by Telegram.
MAX_LENGTH = 4096
#: [decision] How far ahead of this server's clock an ``auth_date`` may be: Telegram stamps
#: it with its own clock, and two synchronised clocks differ by far less than a minute. A
#: launch further ahead was not made now, and accepting it would lengthen its copy's life.
FUTURE_SKEW_SECONDS = 60


class InvalidInitData(ValueError):
    """initData that does not prove a user: ``reason`` says which check it failed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The person a valid initData names, and where the app was opened from."""

    id: int
    first_name: str
    language_code: str | None
    start_param: str | None
    auth_date: int


def secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def validate(init_data: str, bot_token: str, *, max_age: float, now: float) -> WebAppUser:
    """The user ``init_data`` proves, or ``InvalidInitData``: malformed, a ``hash`` that is
    missing or wrong (forged, changed, signed for another bot), an ``auth_date`` older than
    ``max_age`` seconds (or ahead by more than ``FUTURE_SKEW_SECONDS``), no ``user`` or a
    user id that is not a positive JSON integer."""
    if not init_data or len(init_data) > MAX_LENGTH:
        raise InvalidInitData("malformed")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InvalidInitData("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InvalidInitData("malformed")
    given = fields.pop("hash", "")
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    expected = hmac.new(secret_key(bot_token), check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, given.lower()):
        raise InvalidInitData("bad_hash")
    try:
        auth_date = int(fields["auth_date"])
    except (KeyError, ValueError):
        raise InvalidInitData("malformed") from None
    if now - auth_date > max_age:
        raise InvalidInitData("expired")
    if auth_date - now > FUTURE_SKEW_SECONDS:
        raise InvalidInitData("from_the_future")
    try:
        user = json.loads(fields["user"])
        user_id = user["id"]
    except (KeyError, ValueError, TypeError):
        raise InvalidInitData("no_user") from None
    # Telegram writes a JSON integer: "42", 42.0 or 42.5 is no user id (JSON's true is an
    # int to Python, so it is named apart).
    if type(user_id) is not int or user_id <= 0:
        raise InvalidInitData("no_user")
    language = user.get("language_code")
    return WebAppUser(
        id=user_id,
        first_name=str(user.get("first_name", "")),
        language_code=language if isinstance(language, str) else None,
        start_param=fields.get("start_param") or None,
        auth_date=auth_date,
    )
