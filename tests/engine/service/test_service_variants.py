"""The variants' facts: what the rules library says of each variant the engine plays, in
the rule sheet's order. The fronts read them from the library (``variant_facts``); the API
(``GET /v1/variants``) answers the same for a reader outside the project's code."""

from __future__ import annotations

import httpx
import pytest

from services.engine.client import (
    UnknownVariant,
    VariantFacts,
    offered_house_rules,
    variant_facts,
    variant_names,
)
from services.engine.rules import VARIANTS


def test_every_variant_has_its_facts_in_the_rule_sheets_order() -> None:
    facts = {name: variant_facts(name) for name in variant_names()}
    assert list(facts) == ["classic", "flip", "no_mercy", "minecraft", "minions"]
    for name, variant in VARIANTS.items():
        told = facts[name]
        assert told.title == variant.title
        assert told.target_score == variant.target_score
        assert (told.min_players, told.max_players) == (variant.min_players, variant.max_players)
        assert told.two_sided is variant.double_sided
        assert tuple(told.house_rules) == offered_house_rules(name)
        assert tuple(told.spellings) == variant.spellings
        assert (told.name_msgid, told.title_msgid, told.summary_msgid) == (
            variant.words.name,
            variant.words.title,
            variant.words.summary,
        )
    # RULES.md §2 "Scoring": 500 wins, but No Mercy's 1000; §3: Flip alone has two sides,
    # light and dark; §5: No Mercy alone stacks draw cards by its own rules.
    assert {n: f.target_score for n, f in facts.items()} == {
        "classic": 500,
        "flip": 500,
        "no_mercy": 1000,
        "minecraft": 500,
        "minions": 500,
    }
    assert [n for n, f in facts.items() if f.two_sided] == ["flip"]
    assert facts["flip"].side_msgids == {"light": "light side", "dark": "dark side"}
    assert [n for n, f in facts.items() if f.side_msgids and not f.two_sided] == []
    assert [n for n, f in facts.items() if f.stacks_draws] == ["no_mercy"]
    # what /top and /rules understand besides a variant's names
    assert {n: f.spellings for n, f in facts.items()} == {
        "classic": [],
        "flip": [],
        "no_mercy": ["nomercy", "mercy"],
        "minecraft": [],
        "minions": [],
    }


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(UnknownVariant):
        variant_facts("speed")


async def test_the_api_answers_the_same_facts(http: httpx.AsyncClient) -> None:
    answer = (await http.get("/v1/variants")).json()["variants"]
    assert [VariantFacts.model_validate(v) for v in answer] == [
        variant_facts(n) for n in variant_names()
    ]


async def test_the_variants_need_the_token(http: httpx.AsyncClient) -> None:
    assert (
        await http.get("/v1/variants", headers={"Authorization": "Bearer nope"})
    ).status_code == 401
