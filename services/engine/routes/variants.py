"""The variants the engine plays and their facts, from the rules library, for a reader
outside the project's own code (which reads the same facts from the library itself:
``services.engine.client.variant_facts``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from services.engine.responses import json_response
from services.engine.routes import errors
from services.engine.rules import VARIANTS
from services.engine.wire.schemas import VariantFacts, Variants

router = APIRouter(tags=["variants"])


def variant_facts() -> Variants:
    return Variants(variants=[VariantFacts.of(v) for v in VARIANTS.values()])


#: The rules library does not change while the process runs.
_BODY = variant_facts().model_dump(mode="json")


@router.get("/v1/variants", response_model=Variants, responses=errors())
async def variants() -> Response:
    """Every variant and its facts."""
    return json_response(_BODY)
