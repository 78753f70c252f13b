"""What the bot shows, built from the engine's views and events, by concern: the lobby
(``lobby``), the group's table (``table``), a player's hand (``hand``), the inline-mode hand
(``inline_results``), the lines that say what happened (``event_lines``), a round's and a
game's scores (``scores``), the notices of their own (``notices``) and an engine refusal in
words (``refusals``).

Pure functions: the engine's views and event dicts in, text (Telegram HTML) and keyboards as
plain data (``keyboard``) out, every word through ``i18n``. Nothing here calls Telegram or
does I/O (tests/test_import_graph.py holds it so), so a page that shows the same cards,
event lines and scores can use them as they are; ``services.bot.keyboards`` turns a keyboard
into Telegram's. BOT-UX.md is the sketch they follow.
"""
