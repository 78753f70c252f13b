"""Run inside the image (scripts/container-check.sh: ``docker run -i IMAGE python - <
tests/deploy/image_contents.py``): the image holds the product alone. No local Telegram
(the playground package), nothing of what starts and drives the product (the harness
package: process helpers, ``make play``'s launcher, scripted players), no tests or benches;
the services' code is the installed package, and nothing of the checkout lies in the
working directory. Prints what it found; exits 1 naming what should not be there. Standard
library only: it runs in the image."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

#: Packages of the checkout that are not the product.
NOT_THE_PRODUCT = ("playground", "harness", "tests", "bench")


def found_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent package is not there
        return False


def main() -> int:
    problems = [f"the module {name} is there" for name in NOT_THE_PRODUCT if found_module(name)]
    import services

    package = Path(services.__file__).parent
    if not str(package).startswith(sys.prefix):
        problems.append(f"services is imported from {package}, not the installed package")
    for path in package.rglob("*"):
        if path.name in NOT_THE_PRODUCT:
            problems.append(f"{path} is in the image")
    stray = sorted(os.listdir(Path.cwd()))
    if stray:
        problems.append(f"the working directory {Path.cwd()} holds {stray}")
    for problem in problems:
        print(f"image contents: NOT THE PRODUCT: {problem}")
    if problems:
        return 1
    modules = sum(1 for _ in package.rglob("*.py"))
    print(f"image contents: the product alone: services from {package} ({modules} modules);")
    print("  no local Telegram, no harness, no tests, no benches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
