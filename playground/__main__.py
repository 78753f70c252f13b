"""``python -m playground [--host H] [--port P]``: the local Telegram as a process.

Prints ``local telegram listening on http://HOST:PORT`` once it accepts connections
(``--port 0`` picks a free port).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys

from playground.app import create_app
from playground.server import bound_socket, uvicorn_server
from services.heap import freeze_startup_heap
from services.logs import configure_logging

log = logging.getLogger("playground")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m playground", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--no-limits", action="store_true", help="start with flood limits off")
    parser.add_argument(
        "--bot-token",
        help="create a bot with this token (<id>:<secret>) at start, e.g. UNO_TELEGRAM_TOKEN's",
    )
    parser.add_argument("--bot-username", default="uno_local_bot")
    args = parser.parse_args(argv)
    configure_logging("playground")
    app = create_app()
    world = app.state.world
    if args.no_limits:
        world.limits.configure(False)
    if args.bot_token:
        world.create_bot(
            args.bot_username, "UNO", inline_feedback=True, privacy_mode=True, token=args.bot_token
        )
    sock = bound_socket(args.host, args.port)
    host, port = sock.getsockname()[:2]
    server = uvicorn_server(app)

    async def serve() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started:
            freeze_startup_heap()
            print(f"local telegram listening on http://{host}:{port}", flush=True)
        await task

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())
    sys.exit(0)


if __name__ == "__main__":
    main()
