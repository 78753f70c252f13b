"""What people are shown, built from the engine's views and events, by concern: the lobby
(``lobby``), the group's table (``table``), a player's hand (``hand``), the inline-mode hand
(``inline_results``), the lines that say what happened (``event_lines``), a round's and a
game's scores (``scores``), the notices of their own (``notices``) and an engine refusal in
words (``refusals``).

Pure functions: the engine's views and event dicts in, rich text
(``services.presentation.rich``: no markup; a seat's name is made once, in ``people``) and
keyboards as plain data (``keyboard``) out, every word through ``i18n``. Nothing here calls
Telegram or does I/O (tests/test_import_graph.py holds it so), so every front shows the
same cards, event lines and scores: the bot turns a keyboard into Telegram's
(``services.bot.keyboards``) and a text into Telegram's HTML (``services.bot.telegram_html``),
the Mini App takes a text's plain form. BOT-UX.md is the sketch they follow.
"""
