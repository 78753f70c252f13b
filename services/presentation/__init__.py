"""What people are shown, for every front: from the engine's views, events and variant facts
to words, cards, lines, tables, hands, lobbies, scores and refusals, with the catalogs and
the glossary they are written in.

Pure like the rules: nothing of Telegram, no I/O (the catalogs alone read their files,
once), nothing of any front. The bot turns what it gives into Telegram's HTML and inline
keyboards; the Mini App into its page. Neither adds words of its own.
"""
