"""Files in messages: what ``sendSticker``, ``sendPhoto``, ``sendAnimation`` and
``sendDocument`` carry, and the file identifiers Telegram answers with.

A bot names a file in one of three ways, as the Bot API's "Sending files" section lists: a
``file_id`` of a file Telegram already holds, an HTTP URL for Telegram to fetch, or an upload
(multipart). The local Telegram fetches nothing and keeps no bytes: a URL or an upload gets a
new file id at once, and a file id it did not issue is taken as one of Telegram's (a real
bot's sticker ids work unchanged). What Telegram refuses is a string that is neither a URL
nor a well-formed file id: Telegram's file ids are URL-safe base64 of a serialised record,
so other characters, or a length no base64 string has, answer ``400 Bad Request: wrong file
identifier/HTTP URL specified``.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from playground.errors import bad_request

WRONG_FILE = "wrong file identifier/HTTP URL specified"

#: The media methods served, the parameter naming the file, and the message field it fills.
MEDIA_METHODS = {
    "sendSticker": "sticker",
    "sendPhoto": "photo",
    "sendAnimation": "animation",
    "sendDocument": "document",
}
MEDIA_KINDS = frozenset(MEDIA_METHODS.values())

_FILE_ID = re.compile(r"[A-Za-z0-9_-]{16,}")
#: The prefix Telegram's own ids start with, per kind (the first bytes of their record).
_PREFIX = {"sticker": "CAAC", "photo": "AgAC", "animation": "CgAC", "document": "BQAC"}


@dataclass(frozen=True)
class Upload:
    """A file sent in a multipart body (its bytes are not kept)."""

    filename: str
    size: int


@dataclass(frozen=True)
class StoredFile:
    """A file as the local Telegram knows it: its ids, and the URL it came from if any."""

    kind: str
    file_id: str
    file_unique_id: str
    url: str | None = None
    file_name: str | None = None


def _unique_id(file_id: str) -> str:
    digest = hashlib.sha256(file_id.encode()).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def well_formed(file_id: str) -> bool:
    """Whether ``file_id`` could be one of Telegram's: URL-safe base64, of a possible length."""
    return bool(_FILE_ID.fullmatch(file_id)) and len(file_id) % 4 != 1


class Files:
    """The files the local Telegram has issued ids for (by URL or upload)."""

    def __init__(self) -> None:
        self.by_id: dict[str, StoredFile] = {}

    def clear(self) -> None:
        self.by_id.clear()

    def issue(
        self, kind: str, *, url: str | None = None, file_name: str | None = None
    ) -> StoredFile:
        file_id = _PREFIX[kind] + secrets.token_urlsafe(48)
        stored = StoredFile(kind, file_id, _unique_id(file_id), url, file_name)
        self.by_id[file_id] = stored
        return stored

    def named(self, kind: str, value: Any) -> StoredFile:
        """The file a bot's parameter names (file id, URL or upload), or Telegram's 400."""
        if isinstance(value, Upload):
            return self.issue(kind, file_name=value.filename or None)
        if not isinstance(value, str) or not value.strip():
            raise bad_request(f"there is no {kind} in the request")
        value = value.strip()
        if re.match(r"(?i)^https?://[^\s/]+", value):
            name = unquote(urlsplit(value).path.rsplit("/", 1)[-1]) or None
            return self.issue(kind, url=value, file_name=name)
        known = self.by_id.get(value)
        if known is not None:
            return known
        if not well_formed(value):
            raise bad_request(WRONG_FILE)
        return StoredFile(kind, value, _unique_id(value))


def media_fields(stored: StoredFile, *, emoji: str | None = None) -> dict[str, Any]:
    """The message fields a file fills, shaped as the Bot API's Sticker, PhotoSize list,
    Animation (with ``document`` beside it, as Telegram sends for compatibility) or
    Document."""
    ids = {"file_id": stored.file_id, "file_unique_id": stored.file_unique_id}
    if stored.kind == "sticker":
        sticker: dict[str, Any] = {
            **ids,
            "type": "regular",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
        }
        if emoji:
            sticker["emoji"] = emoji
        return {"sticker": sticker}
    if stored.kind == "photo":
        return {"photo": [{**ids, "width": 320, "height": 320}]}
    document: dict[str, Any] = dict(ids)
    if stored.file_name:
        document["file_name"] = stored.file_name
    if stored.kind == "animation":
        animation = {**ids, "width": 320, "height": 320, "duration": 1}
        if stored.file_name:
            animation["file_name"] = stored.file_name
        return {"animation": animation, "document": document}
    return {"document": document}
