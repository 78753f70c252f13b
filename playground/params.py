"""A Bot API call's parameters, as Telegram reads them: from the query string, a JSON body, or
a form (url-encoded or multipart) where every value is a string and objects are JSON text."""

from __future__ import annotations

import json
from typing import Any

from playground.errors import bad_request


class Params:
    """Typed access to one call's parameters; a wrong value is Telegram's 400."""

    def __init__(self, raw: dict[str, Any], method: str = "") -> None:
        self.raw = raw
        #: the method called, in lower case (one function may serve several)
        self.method = method

    def has(self, name: str) -> bool:
        value = self.raw.get(name)
        return value is not None and value != ""

    def str_(self, name: str) -> str | None:
        value = self.raw.get(name)
        if value is None:
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        if not isinstance(value, str):
            raise bad_request(f'field "{name}" must be of type String')
        return value

    def int_(self, name: str) -> int | None:
        value = self.raw.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise bad_request(f'field "{name}" must be of type Integer')

    def bool_(self, name: str, default: bool = False) -> bool:
        value = self.raw.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value != 0
        if isinstance(value, str):
            return value.strip().lower() in {"true", "1", "yes"}
        raise bad_request(f'field "{name}" must be of type Boolean')

    def json_(self, name: str, error: str | None = None) -> Any:
        """An object or array parameter (JSON text in forms); ``error`` is the refusal when it
        is not valid JSON."""
        value = self.raw.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise bad_request(error or f"can't parse {name} JSON object") from None
        return value

    def chat_id(self, name: str = "chat_id") -> int | str | None:
        """A chat id: an integer, or ``@username`` of a public chat."""
        value = self.raw.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("@"):
                return text
            try:
                return int(text)
            except ValueError:
                pass
        raise bad_request("chat not found")
