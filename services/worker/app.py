"""The worker's Celery app (broker: Redis), run as its own process::

    celery -A services.worker.app worker --loglevel=info

Besides the usual task consumer, every worker process runs one deadline drainer (a thread
started by a worker bootstep): it claims due members of ``uno:deadlines`` and sends a
``fire_deadline`` task for each. Any number of workers may run; a claim is atomic, so each
due deadline goes to one of them (README.md "Timers" explains the design).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery, bootsteps

from services.config import get_settings

log = logging.getLogger(__name__)

#: Seconds before Redis hands an unacknowledged task message to another worker. Timer tasks
#: are sent only when due (no countdown/ETA), so a message is unacknowledged only while it
#: waits in a worker's prefetch or runs; the deadline's own lease (timer_lease_seconds) is
#: what brings a lost timer back quickly, so this only needs to outlast a slow task.
BROKER_VISIBILITY_TIMEOUT = 300

settings = get_settings()

app = Celery("uno_worker", broker=settings.broker_url, include=["services.worker.tasks"])
app.conf.update(
    task_serializer="json",
    accept_content=["json"],
    task_ignore_result=True,
    # A task is acknowledged when it finishes, so a worker killed mid-task leaves the
    # message to be delivered again; a timer task is idempotent, so that is harmless.
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    # Timer tasks wait on HTTP, not the CPU, and threads keep one process: nothing forks
    # while the drainer thread runs, and a kill -9 takes the whole worker down at once.
    worker_pool="threads",
    worker_concurrency=16,
    broker_transport_options={"visibility_timeout": BROKER_VISIBILITY_TIMEOUT},
    broker_connection_retry_on_startup=True,
)


class DeadlineDrainerStep(bootsteps.StartStopStep):  # type: ignore[misc]
    """Runs the deadline drainer beside the consumer for as long as the worker runs."""

    requires = ("celery.worker.components:Pool",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.drainer: Any = None
        self.metrics_server: Any = None

    def start(self, parent: Any) -> None:
        from services.worker.tasks import deadline_board, engine_loop, fire_deadline
        from services.worker.timers import Claim, DeadlineDrainer

        def dispatch(claim: Claim) -> None:
            deadline = claim.deadline
            fire_deadline.apply_async(
                args=(deadline.game_id, deadline.kind.value, deadline.version),
                kwargs={"due": claim.due, "attempt": claim.attempt},
            )

        from services.worker.stand_in import load_chooser

        current = get_settings()
        # Import the AI policies now rather than in the first timer task, which would be late.
        load_chooser(current.stand_in_policy)
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
