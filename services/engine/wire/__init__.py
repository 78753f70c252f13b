"""What crosses the wire between the engine service and its clients (the bot, the worker).

``schemas`` — the request and response bodies of the HTTP API (/v1); ``event_log`` — the
layout of the event log's Redis streams and the decoder of an entry (with its preset
deflate dictionary, ``event_dictionary``); ``deadline_keys`` — the Redis keys of the
deadline board the engine writes and the worker drains. The service and
``services.engine.client`` both import these; they import nothing of the service itself
(only pydantic, orjson, the standard library and the rules library's ``Options``), so a
client loads no Redis, FastAPI or game-store code.
"""
