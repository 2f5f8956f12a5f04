"""Queueing background work from a service.

Services name a task by its dotted name instead of importing the task module: the task
modules import the services, so an import the other way would be a cycle. Every task pins
its name (``@shared_task(name=...)``), so a message already queued still finds its task
after a module moves; ``TASKS`` lists every name a service may queue, and
``tests/integration/test_jobs.py`` checks that each is a registered task, that every name
queued in the code is in it, and that each has a catch-up (docs/architecture.md, "Jobs").
Each app's ``AppConfig.ready`` imports its tasks, so the name resolves to the registered
task in every process (and runs at once under ``CELERY_TASK_ALWAYS_EAGER`` in the tests).
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.db import transaction
from kombu.exceptions import KombuError
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# Every task a service queues, by name, with the beat job that does its work when the
# message is lost (the broker was down, a worker was killed before it acknowledged), or
# None where nothing does yet and the person who asked must ask again (said at each).
TASKS: dict[str, str | None] = {
    "competition.tasks.recalculate_half": "competition.tasks.recalculate_stale_seasons",
    "pairing.tasks.send_pairing_notices": "pairing.tasks.close_due_evenings",
    "pairing.tasks.notify_withdrawals": "pairing.tasks.close_due_evenings",
    # Queued by the deadline job itself, one per due evening; the next minute's run
    # queues it again while the evening is due and unpublished.
    "pairing.tasks.pair_and_publish_evening": "pairing.tasks.close_due_evenings",
    # Every e-mail of the outbox (invitations, e-mail changes, club duty decisions).
    "core.tasks.send_mails": "core.tasks.send_mails_pending",
    # The upload page shows the list still waiting; the beat's end_stuck_rating_imports
    # ends it with a message after RATINGS_READING_STUCK_MINUTES, and the leader uploads again.
    "competition.ratings.tasks.read_rating_list": None,
}

# Tasks no service queues any more, still registered so that a message already in the
# queue when the code changed finds its task: the invitation and the e-mail change now go
# and the club duty decision through the outbox (core.mail) and its catch-up.
RETIRED: frozenset[str] = frozenset({
    "members.tasks.send_invitation",
    "members.tasks.send_email_change",
    "competition.tasks.send_club_duty_notice",
    "competition.tasks.send_club_duty_notices_undelivered",
})

# What the broker raises when it is down or hangs: only these are "try again later". Any
# other exception is a fault of the code and is raised.
BROKER_ERRORS: tuple[type[BaseException], ...] = (KombuError, RedisError, OSError)


class UnknownTask(LookupError):
    """A service queued a name that no task has: a programming error, never swallowed."""


def enqueue(task: str, *args: Any) -> bool:
    """Send a task now; when the broker is unreachable, log it and carry on (the
    caller's data is committed already, and the task's catch-up job will do the work)."""
    if task not in TASKS or task not in current_app.tasks:
        raise UnknownTask(task)
    try:
        current_app.tasks[task].delay(*args)
    except BROKER_ERRORS:
        catch_up = TASKS[task]
        log.warning("could not queue %s%r; %s", task, args,
                    f"{catch_up} will do it" if catch_up else "it must be asked for again",
                    exc_info=True)
        return False
    return True


def enqueue_on_commit(task: str, *args: Any) -> None:
    """Send a task once the current transaction has committed (never for a rollback), as
    queued in the club of the work in hand (``on_commit_here``)."""
    if task not in TASKS:
        raise UnknownTask(task)  # at the call, not after the commit
    on_commit_here(lambda: enqueue(task, *args))


def on_commit_here(func: Callable[[], object]) -> None:
    """Run ``func`` after the current transaction commits, in the context it was asked in:
    the club of the work in hand (its scope, time zone, a task's club header). The commit
    may come after that club's context was left: a command or a demo that builds several
    clubs in one outer transaction, each club in its own context, commits once at the end;
    the work each club queued is still that club's."""
    context = contextvars.copy_context()
    transaction.on_commit(lambda: context.run(func))
