"""The variants the engine plays and their facts, from the rules library: the one source
the bot's screens read them from (through ``EngineClient.variants``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from services.engine.responses import json_response
from services.engine.routes import errors
from services.engine.rules import VARIANTS, HouseRule
from services.engine.wire.schemas import FALSE_CATCH_PENALTY, VariantFacts, Variants

router = APIRouter(tags=["variants"])


def variant_facts() -> Variants:
    return Variants(
        variants=[
            VariantFacts(
                name=v.name,
                title=v.title,
                target_score=v.target_score,
                min_players=v.min_players,
                max_players=v.max_players,
                two_sided=v.double_sided,
                house_rules=[
                    *(r.value for r in HouseRule if r in v.house_rules),
                    FALSE_CATCH_PENALTY,
                ],
                spellings=list(v.spellings),
            )
            for v in VARIANTS.values()
        ]
    )


#: The rules library does not change while the process runs.
_BODY = variant_facts().model_dump(mode="json")


@router.get("/v1/variants", response_model=Variants, responses=errors())
async def variants() -> Response:
    """Every variant and its facts."""
    return json_response(_BODY)
