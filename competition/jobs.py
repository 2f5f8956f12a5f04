"""Queueing background work from a service.

Services name a task by its dotted path instead of importing the task module: the task
modules import the services, so an import the other way would be a cycle. Each app's
``AppConfig.ready`` imports its tasks, so the name resolves to the registered task in
every process (and runs at once under ``CELERY_TASK_ALWAYS_EAGER`` in the tests).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)


def enqueue(task: str, *args: Any) -> bool:
    """Send a task now; when the broker is unreachable, log it and carry on (the
    caller's data is committed already, and a beat job catches up)."""
    try:
        current_app.tasks[task].delay(*args)
    except Exception:  # kombu raises several kinds when Redis is down or hangs
        log.warning("could not queue %s%r; the catch-up job will do it", task, args,
                    exc_info=True)
        return False
    return True


def enqueue_on_commit(task: str, *args: Any) -> None:
    """Send a task once the current transaction has committed (never for a rollback)."""
    transaction.on_commit(lambda: enqueue(task, *args))
