"""What outlasts a game, in SQL: users, chat settings, games, rounds, results and ratings.

See README.md in this folder: the worker writes (``writer.py``, from the engine's event
log), the bot reads and writes settings (``queries.py``), ``migrate.py`` builds the schema.
"""
