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
    # Queued by the catch-up itself, one per season behind, in the season's club.
    "competition.tasks.recalculate_season": "competition.tasks.recalculate_stale_seasons",
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

# The beat's jobs: the platform's own work. Each finds the due work across clubs and
# queues (or, where the broker refuses, does) each club's part in that club's context
# (``members.clubs.context.per_club``), so what it changes, the club's page version included,
# is that club's.
PLATFORM_TASKS: frozenset[str] = frozenset({
    "pairing.tasks.close_due_evenings",
    "competition.tasks.recalculate_stale_seasons",
    "competition.ratings.tasks.end_stuck_rating_imports",
    "core.tasks.send_mails_pending",
})

# A club's task that may also be the platform's: the outbox's sending runs in the club it
# was queued in (its header), and as the platform for a mail of no club (an e-mail
# address change asked on the platform's own pages).
CLUB_OR_PLATFORM: frozenset[str] = frozenset({"core.tasks.send_mails"})

# Celery's own tasks (``celery.backend_cleanup``, ...) touch none of our tables: they run
# in no club, so a club-scoped query in one would fail.
CELERY_OWN = "celery."


class UnlistedTask(LookupError):
    """A task that is neither a club's (``TASKS``, ``RETIRED``) nor the platform's
    (``PLATFORM_TASKS``): refused, never run with the scoping off."""


def task_kind(name: str) -> str:
    """"club" (runs in the club of its header or of the object it names, or fails),
    "platform" (a beat job, in every club's sight), "either" (``CLUB_OR_PLATFORM``) or
    "celery" (Celery's own); an unlisted name raises ``UnlistedTask``."""
    if name in CLUB_OR_PLATFORM:
        return "either"
    if name in TASKS or name in RETIRED:
        return "club"
    if name in PLATFORM_TASKS:
        return "platform"
    if name.startswith(CELERY_OWN):
        return "celery"
    raise UnlistedTask(f"{name} is neither a club's task nor the platform's (core.jobs)")


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


def enqueue_in_club(club_id: int | None, task: str, *args: Any) -> bool:
    """A beat job's way to queue one club's task (core imports no app, so not through the
    club context): the message carries the club (header ``club``, config/celery.py), and
    the task runs in that club; ``None`` queues it as the platform's. As ``enqueue``: False
    when the broker refused it."""
    if task not in TASKS or task not in current_app.tasks:
        raise UnknownTask(task)
    headers = {"club": club_id} if club_id is not None else {}
    try:
        current_app.tasks[task].apply_async(args=args, headers=headers)
    except BROKER_ERRORS:
        log.warning("could not queue %s%r for club %s; %s will do it", task, args, club_id,
                    TASKS[task], exc_info=True)
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
