"""Health checks (no token): the process is alive; Redis answers in time; the metrics."""

from __future__ import annotations

import asyncio

import redis.exceptions
from fastapi import APIRouter
from fastapi.responses import Response

from services.engine.context import Context
from services.engine.metrics import CONTENT_TYPE_LATEST
from services.engine.responses import error_response, json_response
from services.engine.wire.schemas import ErrorBody, Health

#: [decision] Redis slower than this to answer a PING makes the service not ready: a
#: request would wait about as long, so a load balancer should send it elsewhere.
READY_TIMEOUT_SECONDS = 1.0

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health)
async def healthz() -> Response:
    """The process is alive."""
    return json_response({"status": "ok"})


@router.get("/readyz", response_model=Health, responses={503: {"model": ErrorBody}})
async def readyz(context: Context) -> Response:
    """Redis answers, within ``READY_TIMEOUT_SECONDS``."""
    try:
        await asyncio.wait_for(context.store.ping(), READY_TIMEOUT_SECONDS)
    except (redis.exceptions.RedisError, TimeoutError):
        return error_response(503, "store_unavailable", "Redis does not answer in time")
    return json_response({"status": "ready"})


@router.get(
    "/metrics",
    responses={
        200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
        401: {"model": ErrorBody},
    },
)
async def prometheus_metrics(context: Context) -> Response:
    """Prometheus exposition (needs the service token, like every other route)."""
    return Response(context.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
