"""The worker's Celery app and its configuration (broker: Redis), and nothing else.

Tasks (tasks.py) register on it; app.py, the worker's entry point, adds the deadline
drainer. Kept apart from both so that neither imports the other (tasks.py needs the app;
the entry point needs the tasks).
"""

from __future__ import annotations

from celery import Celery

from services.config import get_settings

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
