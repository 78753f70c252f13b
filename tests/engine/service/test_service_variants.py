"""The variants' facts over the API (``GET /v1/variants``): what the rules library says of
each variant the engine plays, in the rule sheet's order, read once by the client."""

from __future__ import annotations

import httpx
import pytest

from services.engine.client import EngineClient, NotFound, offered_house_rules
from services.engine.rules import VARIANTS


async def test_every_variant_has_its_facts_in_the_rule_sheets_order(
    engine: EngineClient,
) -> None:
    facts = await engine.variants()
    assert list(facts) == ["classic", "flip", "no_mercy", "minecraft", "minions"]
    for name, variant in VARIANTS.items():
        told = facts[name]
        assert told.title == variant.title
        assert told.target_score == variant.target_score
        assert (told.min_players, told.max_players) == (variant.min_players, variant.max_players)
        assert told.two_sided is variant.double_sided
        assert tuple(told.house_rules) == offered_house_rules(name)
        assert tuple(told.spellings) == variant.spellings
    # RULES.md §2 "Scoring": 500 wins, but No Mercy's 1000; §3: Flip alone has two sides.
    assert {n: f.target_score for n, f in facts.items()} == {
        "classic": 500,
        "flip": 500,
        "no_mercy": 1000,
        "minecraft": 500,
        "minions": 500,
    }
    assert [n for n, f in facts.items() if f.two_sided] == ["flip"]
    # what /top and /rules understand besides a variant's names
    assert await engine.variant_spellings() == {
        "classic": [],
        "flip": [],
        "no_mercy": ["nomercy", "mercy"],
        "minecraft": [],
        "minions": [],
    }


async def test_the_client_asks_once_and_refuses_an_unknown_variant(engine: EngineClient) -> None:
    first = await engine.variants()
    assert await engine.variants() is first
    assert await engine.variant_names() == tuple(first)
    assert (await engine.variant("flip")).two_sided
    with pytest.raises(NotFound):
        await engine.variant("speed")


async def test_the_variants_need_the_token(http: httpx.AsyncClient) -> None:
    assert (
        await http.get("/v1/variants", headers={"Authorization": "Bearer nope"})
    ).status_code == 401
