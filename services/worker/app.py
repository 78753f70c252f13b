"""The worker's entry point, run as its own process::

    celery -A services.worker.app worker --loglevel=info

Besides the usual task consumer, every worker process runs one deadline drainer (a thread
started by a worker bootstep): it claims due members of ``uno:deadlines`` and sends a
``fire_deadline`` task for each. Any number of workers may run; a claim is atomic, so each
due deadline goes to one of them (README.md "Timers" explains the design).

The worker holds the engine token: it refuses to start with an empty one, or with the
development token outside development mode (``UNO_DEV_MODE``).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import bootsteps

from services.config import get_settings
from services.worker.celery_app import app as app
from services.worker.engine_loop import engine_loop
from services.worker.records import RecorderStep
from services.worker.stand_in import load_chooser
from services.worker.tasks import deadline_board, fire_deadline, records_database
from services.worker.timers import Claim, DeadlineDrainer

log = logging.getLogger(__name__)


class DeadlineDrainerStep(bootsteps.StartStopStep):  # type: ignore[misc]
    """Runs the deadline drainer beside the consumer for as long as the worker runs."""

    requires = ("celery.worker.components:Pool",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.drainer: Any = None
        self.metrics_server: Any = None

    def start(self, parent: Any) -> None:
        current = get_settings()
        current.require_engine_token()  # before anything runs: InsecureToken stops the worker

        def dispatch(claim: Claim) -> None:
            deadline = claim.deadline
            fire_deadline.apply_async(
                args=(deadline.game_id, deadline.kind.value, deadline.version),
                kwargs={"due": claim.due, "attempt": claim.attempt},
            )

        # Import the AI policies now rather than in the first timer task, which would be late.
        load_chooser(current.stand_in_policy)
        records_database()  # where a chat's stand-in level is read: opened before any timer
        engine_loop().warm_up()
        self.drainer = DeadlineDrainer(
            deadline_board(), dispatch, poll_interval=current.worker_poll_interval
        )
        self.drainer.start()
        if current.worker_metrics_port:
            from services.worker.metrics import serve

            self.metrics_server = serve(current.worker_metrics_port)

    def stop(self, parent: Any) -> None:
        if self.drainer is not None:
            self.drainer.stop()
            self.drainer = None
        if self.metrics_server is not None:
            self.metrics_server.shutdown()
            self.metrics_server = None


app.steps["worker"].add(DeadlineDrainerStep)
# Results, ratings and boards: the event log's recorder (records.py), beside the drainer.
app.steps["worker"].add(RecorderStep)
