"""What people are shown, for every front: from the engine's views, events and variant facts
to words, cards, lines, tables, hands, lobbies, scores and refusals, with the catalogs and
the glossary they are written in.

What it gives is neutral: rich text (``rich``: spans with their looks and mentions, no
markup) and plain keyboards (``screens.keyboard``). Pure like the rules: nothing of
Telegram, no I/O (the catalogs alone read their files, once), nothing of any front. Each
front renders it: the bot as Telegram's HTML (``services.bot.telegram_html``) and inline
keyboards, the Mini App as its page's text. Neither adds words of its own. README.md says
which module owns what.
"""
