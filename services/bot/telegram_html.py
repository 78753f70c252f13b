"""Rich text (``services.presentation.rich``) as Telegram's HTML: the one place the bot's
messages are escaped and marked up.

Every span's text is escaped (``&``, ``<``, ``>``: what Telegram's HTML parse mode
requires), then wrapped in its styles' tags; a mention is a ``tg://user`` link to its
person, a link an ``<a href>``. A ``str`` is the bot's own words, Telegram HTML already,
and goes through as it is.
"""

from __future__ import annotations

import html

from services.presentation.rich import Rich, Span, Style

#: Each style's tags, outermost first.
_TAGS = ((Style.BOLD, "b"), (Style.ITALIC, "i"), (Style.CODE, "code"))


def span_html(span: Span) -> str:
    shown = html.escape(span.text, quote=False)
    for style, tag in reversed(_TAGS):
        if style in span.style:
            shown = f"<{tag}>{shown}</{tag}>"
    if span.mention is not None:
        shown = f'<a href="tg://user?id={int(span.mention)}">{shown}</a>'
    elif span.link is not None:
        shown = f'<a href="{html.escape(span.link)}">{shown}</a>'
    return shown


def telegram_html(text: Rich | str) -> str:
    """``text`` as Telegram HTML (a ``str``: already that)."""
    if isinstance(text, str):
        return text
    return "".join(span_html(span) for span in text.spans)
