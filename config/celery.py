"""The Celery app: settings from Django's, namespace ``CELERY_``; tasks found per app.

Every task runs in the club it was queued for. ``ClubTask`` is every task's base: queued
inside a club's work (a request, a command, another task) it carries the club's id in
the message header ``club`` (``apply_async``, and ``before_task_publish`` for whatever
publishes by name); in the worker, ``__call__`` enters ``club_context`` of that club for
the task's run and leaves it after, also when the task raises, so two clubs' tasks in one
worker process never inherit each other's club. The club is entered in ``__call__``
rather than in ``task_prerun``/``task_postrun`` because Celery logs and swallows what a
signal handler raises: a club's task that came without a club must fail, not run with
none. Such a task (one a service queues: ``core.jobs.TASKS``) runs in the only club
when there is exactly one (logged), and is refused otherwise; the beat's jobs are the
platform's and run in no club (they visit every club's due work)."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery, Task
from celery.signals import before_task_publish

from members.context import club_context, current_club

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)

CLUB_HEADER = "club"


class NoClub(RuntimeError):
    """A club's task came without a club, and the installation has several."""


class ClubTask(Task):
    def apply_async(self, args: Any = None, kwargs: Any = None, **options: Any) -> Any:
        club = current_club()
        if club is not None:
            options["headers"] = {CLUB_HEADER: club.pk, **(options.get("headers") or {})}
        return super().apply_async(args, kwargs, **options)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with club_context(self._club()):
            return super().__call__(*args, **kwargs)

    def _club(self) -> Any:
        from core.jobs import TASKS
        from members.models import Club

        request = self.request
        club_id = getattr(request, CLUB_HEADER, None) or (getattr(request, "headers", None) or {}).get(CLUB_HEADER)
        if club_id is not None:
            return Club.objects.get(pk=club_id)  # a club deleted since: the task fails
        outer = current_club()
        if outer is not None or self.name not in TASKS:
            return outer  # called in the club's own work; or the platform's beat job
        clubs = list(Club.objects.order_by("pk")[:2])
        if len(clubs) == 1:
            log.warning("task %s came without a club header; running it in the only club, %s",
                        self.name, clubs[0].slug)
            return clubs[0]
        raise NoClub(f"{self.name} is a club's task and came without a club header")


@before_task_publish.connect
def _club_header(headers: dict | None = None, **kwargs: Any) -> None:
    """A task published inside a club's work by any path (``send_task`` included) carries it."""
    club = current_club()
    if club is not None and headers is not None:
        headers.setdefault(CLUB_HEADER, club.pk)


app = Celery("ranglijst", task_cls=ClubTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
