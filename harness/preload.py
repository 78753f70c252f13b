"""``python -m harness.preload MODULE``: a Python service started in two steps, so that it
loads while what it needs at start is still starting.

It imports ``MODULE`` (most of a Python service's start is the import of its libraries), then
waits for a line on its standard input and on it runs ``MODULE.main()``, as ``python -m
MODULE`` would have. ``make play`` starts the bot so: the bot asks its Telegram who it is as
it starts, so it may run only once the local Telegram answers and the bot is made there, but
its imports need neither and overlap with the local Telegram's start. Standard input closed
with no line (the launcher gave up, or died) ends it without running anything.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write("usage: python -m harness.preload MODULE\n")
        return 2
    module = importlib.import_module(args[0])
    if not sys.stdin.readline():
        return 1
    sys.argv = [args[0]]
    module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
