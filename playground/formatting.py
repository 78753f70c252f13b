"""``parse_mode``: Telegram's HTML and MarkdownV2 turned into text plus entities, and the
refusals Telegram gives for markup it can't parse.

Follows Telegram's formatting options (core.telegram.org/bots/api#formatting-options) and its
parser's error texts (``Bad Request: can't parse entities: ...``), whose byte offsets count
UTF-8 bytes of the markup. Entity offsets count UTF-16 code units. The text is trimmed of
leading and trailing white space afterwards, as Telegram does.
"""

from __future__ import annotations

import re
from typing import Any

from playground.errors import BotApiError, bad_request
from playground.text import utf16_length

_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);")
_MARKDOWN_RESERVED = set("_*[]()~`>#+-=|{}.!")


def parse_error(what: str) -> BotApiError:
    return bad_request(f"can't parse entities: {what}")


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


class _Builder:
    """Accumulates plain text and open/closed entities in UTF-16 units."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0  # UTF-16 units so far
        self.entities: list[dict[str, Any]] = []

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.length += utf16_length(text)

    def close(self, entity: dict[str, Any], start: int) -> None:
        if self.length > start:
            self.entities.append({**entity, "offset": start, "length": self.length - start})

    def result(self) -> tuple[str, list[dict[str, Any]]]:
        return "".join(self.parts), self.entities


# ---------------------------------------------------------------------------- HTML


def _unescape(raw: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name.startswith("#x"):
            code = int(name[2:], 16)
        elif name.startswith("#"):
            code = int(name[1:])
        elif name in _NAMED_ENTITIES:
            return _NAMED_ENTITIES[name]
        else:
            return match.group(0)
        return chr(code) if 0 < code <= 0x10FFFF else match.group(0)

    return _ENTITY.sub(replace, raw)


def parse_html(markup: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder()
    stack: list[tuple[str, dict[str, Any], int]] = []  # tag, entity, start
    i = 0
    n = len(markup)
    while i < n:
        if markup[i] != "<":
            j = markup.find("<", i)
            j = n if j < 0 else j
            out.add(_unescape(markup[i:j]))
            i = j
            continue
        begin = i
        at = _byte_offset(markup, begin)
        if markup.startswith("</", i):
            if not stack:
                raise parse_error(f"Unexpected end tag at byte offset {at}")
            j = i + 2
            while j < n and not markup[j].isspace() and markup[j] != ">":
                j += 1
            name = markup[i + 2 : j].lower()
            while j < n and markup[j].isspace():
                j += 1
            if j >= n or markup[j] != ">":
                raise parse_error(f"Unclosed end tag at byte offset {at}")
            open_tag, closed, start = stack.pop()
            if name and name != open_tag:
                raise parse_error(
                    f'Unmatched end tag at byte offset {at}, expected "</{open_tag}>", '
                    f'found "</{name}>"'
                )
            out.close(closed, start)
            i = j + 1
            continue
        j = i + 1
        while j < n and not markup[j].isspace() and markup[j] != ">":
            j += 1
        if j >= n:
            raise parse_error(f"Unclosed start tag at byte offset {at}")
        name = markup[i + 1 : j].lower()
        if name not in _HTML_TAGS:
            raise parse_error(f'Unsupported start tag "{name}" at byte offset {at}')
        end = markup.find(">", j)
        if end < 0:
            raise parse_error(f"Unclosed start tag at byte offset {at}")
        attributes = dict(
            (key.lower(), _unescape(value if value is not None else bare or ""))
            for key, value, bare in (
                (m.group(1), m.group(2) if m.group(2) is not None else m.group(3), m.group(4))
                for m in re.finditer(
                    r"([a-zA-Z-]+)\s*(?:=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]*)))?",
                    markup[j:end],
                )
            )
        )
        entity: dict[str, Any] = {"type": _HTML_TAGS[name]}
        if name == "span" and attributes.get("class") != "tg-spoiler":
            raise parse_error(f'Tag "span" must have class "tg-spoiler" at byte offset {at}')
        if name == "a":
            href = attributes.get("href", "")
            user = re.fullmatch(r"tg://user\?id=(\d+)", href)
            if user:
                entity = {"type": "text_mention", "user": {"id": int(user.group(1))}}
            elif href:
                entity["url"] = href
            else:
                entity = {"type": "_none"}
        if name == "blockquote" and "expandable" in attributes:
            entity["type"] = "expandable_blockquote"
        if name == "tg-emoji":
            entity["custom_emoji_id"] = attributes.get("emoji-id", "")
        if name == "code" and stack and stack[-1][0] == "pre":
            language = attributes.get("class", "")
            if language.startswith("language-"):
                stack[-1][1]["language"] = language[len("language-") :]
                entity = {"type": "_none"}
        stack.append((name, entity, out.length))
        i = end + 1
    if stack:
        raise parse_error(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    text, entities = out.result()
    return text, [e for e in entities if e["type"] != "_none"]


# ---------------------------------------------------------------------------- MarkdownV2

_MD_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
}


def parse_markdown_v2(markup: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder()
    stack: list[tuple[str, int, int]] = []  # type, start (utf-16), markup index
    i = 0
    n = len(markup)
    quote_start: int | None = None
    at_line_start = True

    def top() -> str | None:
        return stack[-1][0] if stack else None

    while i < n:
        c = markup[i]
        if at_line_start and c == ">" and top() not in ("code", "pre"):
            if quote_start is None:
                quote_start = out.length
            i += 1
            at_line_start = False
            continue
        if at_line_start and quote_start is not None and c != ">":
            out.entities.append(
                {"type": "blockquote", "offset": quote_start, "length": out.length - quote_start}
            )
            quote_start = None
        at_line_start = False
        if c == "\\" and i + 1 < n and 0 < ord(markup[i + 1]) <= 126:
            out.add(markup[i + 1])
            i += 2
            continue
        current = top()
        if current in ("code", "pre"):
            closing = "```" if current == "pre" else "`"
            if markup.startswith(closing, i):
                kind, start, _ = stack.pop()
                out.close({"type": kind}, start)
                i += len(closing)
            else:
                out.add(c)
                at_line_start = c == "\n"
                i += 1
            continue
        closes = {
            "bold": c == "*",
            "italic": c == "_" and not markup.startswith("__", i),
            "underline": markup.startswith("__", i),
            "strikethrough": c == "~",
            "spoiler": markup.startswith("||", i),
            "text_link": c == "]",
            "custom_emoji": c == "]",
        }
        if current is not None and closes.get(current, False):
            kind, start, _ = stack.pop()
            i += 2 if kind in ("underline", "spoiler") else 1
            if kind in ("text_link", "custom_emoji"):
                url = ""
                if i < n and markup[i] == "(":
                    j = i + 1
                    chars: list[str] = []
                    while j < n and markup[j] != ")":
                        if markup[j] == "\\" and j + 1 < n:
                            j += 1
                        chars.append(markup[j])
                        j += 1
                    if j >= n:
                        what = "a custom emoji URL" if kind == "custom_emoji" else "a URL"
                        raise parse_error(
                            f"Can't find end of {what} at byte offset {_byte_offset(markup, i + 1)}"
                        )
                    url = "".join(chars)
                    i = j + 1
                if kind == "text_link" and url:
                    user = re.fullmatch(r"tg://user\?id=(\d+)", url)
                    if user:
                        out.close(
                            {"type": "text_mention", "user": {"id": int(user.group(1))}}, start
                        )
                    elif re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) or "." in url:
                        out.close({"type": "text_link", "url": url}, start)
                elif kind == "custom_emoji":
                    emoji = re.search(r"[?&]id=(\d+)", url)
                    if not url.lower().startswith("tg://emoji") or emoji is None:
                        raise parse_error("Custom emoji entity must contain a tg://emoji URL")
                    out.close({"type": "custom_emoji", "custom_emoji_id": emoji.group(1)}, start)
            else:
                out.close({"type": kind}, start)
            continue
        opened: str | None = None
        width = 1
        if markup.startswith("```", i):
            opened, width = "pre", 3
        elif c == "`":
            opened = "code"
        elif markup.startswith("__", i):
            opened, width = "underline", 2
        elif c == "_":
            opened = "italic"
        elif c == "*":
            opened = "bold"
        elif c == "~":
            opened = "strikethrough"
        elif markup.startswith("||", i):
            opened, width = "spoiler", 2
        elif c == "[":
            opened = "text_link"
        elif markup.startswith("![", i):
            opened, width = "custom_emoji", 2
        if opened is not None:
            stack.append((opened, out.length, i))
            i += width
            if opened == "pre":
                newline = markup.find("\n", i)
                language = markup[i:newline] if newline >= 0 else ""
                if newline >= 0 and language and re.fullmatch(r"[^\s`]+", language):
                    i = newline + 1
            continue
        if c in _MARKDOWN_RESERVED:
            raise parse_error(
                f"Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )
        out.add(c)
        at_line_start = c == "\n"
        i += 1
    if stack:
        kind, _, index = stack[-1]
        at = _byte_offset(markup, index)
        raise parse_error(f"Can't find end of {_MD_NAMES[kind]} entity at byte offset {at}")
    if quote_start is not None:
        out.entities.append(
            {"type": "blockquote", "offset": quote_start, "length": out.length - quote_start}
        )
    text, entities = out.result()
    return text, [e for e in entities if e["length"] > 0]


# ---------------------------------------------------------------------------- entry point


def trim(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Telegram strips white space at both ends; entities move and shrink with the text."""
    stripped_start = len(text) - len(text.lstrip())
    shift = utf16_length(text[:stripped_start])
    text = text.strip()
    total = utf16_length(text)
    fixed = []
    for entity in entities:
        start = max(0, entity["offset"] - shift)
        end = min(total, entity["offset"] + entity["length"] - shift)
        if end > start:
            fixed.append({**entity, "offset": start, "length": end - start})
    fixed.sort(key=lambda e: (e["offset"], -e["length"]))
    return text, fixed


ENTITY_TYPES = frozenset(
    {
        "mention",
        "hashtag",
        "cashtag",
        "bot_command",
        "url",
        "email",
        "phone_number",
        "bold",
        "italic",
        "underline",
        "strikethrough",
        "spoiler",
        "blockquote",
        "expandable_blockquote",
        "code",
        "pre",
        "text_link",
        "text_mention",
        "custom_emoji",
    }
)
#: Fields an entity of a type must carry beside type, offset and length.
_ENTITY_FIELDS = {"text_link": "url", "text_mention": "user", "custom_emoji": "custom_emoji_id"}


def _entity_error(what: str) -> BotApiError:
    return bad_request(f"can't parse MessageEntity: {what}")


def given_entities(entities: Any) -> list[dict[str, Any]]:
    """The ``entities`` parameter checked as Telegram checks it (``can't parse
    MessageEntity: ...``); entities reaching outside the text are cut to it later."""
    if not isinstance(entities, list):
        raise bad_request("can't parse entities JSON object")
    checked = []
    for entity in entities:
        if not isinstance(entity, dict):
            raise _entity_error("Object expected")
        for name in ("type", "offset", "length"):
            if name not in entity:
                raise _entity_error(f'Can\'t find field "{name}"')
        if entity["type"] not in ENTITY_TYPES:
            raise _entity_error("Unsupported type specified")
        for name in ("offset", "length"):
            value = entity[name]
            if not isinstance(value, int) or isinstance(value, bool):
                raise _entity_error(f'Field "{name}" must be of type Number')
        needed = _ENTITY_FIELDS.get(entity["type"])
        if needed is not None and needed not in entity:
            raise _entity_error(f'Can\'t find field "{needed}"')
        if entity["type"] == "text_mention" and not (
            isinstance(entity["user"], dict) and isinstance(entity["user"].get("id"), int)
        ):
            raise _entity_error('Field "user" must be of type Object')
        if entity["offset"] >= 0 and entity["length"] > 0:
            checked.append(dict(entity))
    return checked


def format_text(
    text: str, parse_mode: str | None, entities: Any
) -> tuple[str, list[dict[str, Any]]]:
    """Text and formatting entities of a message sent with ``parse_mode`` or ``entities``."""
    mode = (parse_mode or "").strip()
    if entities:
        parsed, found = text, given_entities(entities)
    elif mode.lower() == "html":
        parsed, found = parse_html(text)
    elif mode.lower() == "markdownv2":
        parsed, found = parse_markdown_v2(text)
    elif mode.lower() == "markdown":
        parsed, found = parse_markdown_legacy(text)
    elif mode:
        raise bad_request("unsupported parse_mode")
    else:
        parsed, found = text, []
    return trim(parsed, found)


def parse_markdown_legacy(markup: str) -> tuple[str, list[dict[str, Any]]]:
    """The old ``Markdown`` mode: ``*bold*``, ``_italic_``, ```code```, ``[text](url)``."""
    out = _Builder()
    i, n = 0, len(markup)
    kinds = {"*": "bold", "_": "italic", "`": "code"}
    while i < n:
        c = markup[i]
        if c == "\\" and i + 1 < n and markup[i + 1] in "*_`[":
            out.add(markup[i + 1])
            i += 2
            continue
        if c in kinds:
            end = markup.find(c, i + 1)
            if end < 0:
                at = _byte_offset(markup, i)
                raise parse_error(f"Can't find end of the entity starting at byte offset {at}")
            start = out.length
            out.add(markup[i + 1 : end])
            out.close({"type": kinds[c]}, start)
            i = end + 1
            continue
        if c == "[":
            match = re.match(r"\[([^\]]*)\]\(([^)]*)\)", markup[i:])
            if match:
                start = out.length
                out.add(match.group(1))
                out.close({"type": "text_link", "url": match.group(2)}, start)
                i += match.end()
                continue
        out.add(c)
        i += 1
    return out.result()
