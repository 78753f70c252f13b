"""Fixtures for the rules-engine tests (a pure library: no Redis, no database).

Scenario helpers live in ``tests/helpers/rules.py``.  The random-play tests
scale their number of examples with ``UNO_RULES_EXAMPLES`` (a factor, default 1).
"""

from __future__ import annotations

import pytest

from services.engine.rules import VARIANTS


@pytest.fixture(params=sorted(VARIANTS))
def variant_name(request: pytest.FixtureRequest) -> str:
    """Every registered variant, Classic and whatever others have added."""
    name: str = request.param
    return name
