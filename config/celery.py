"""The Celery app: settings from Django's, namespace ``CELERY_``; tasks found per app.

Every task runs in the club it was queued for. ``ClubTask`` is every task's base: queued
inside a club's work (a request, a command, another task) it carries the club's id in
the message header ``club`` (``apply_async``, and ``before_task_publish`` for whatever
publishes by name); in the worker, ``__call__`` enters ``club_context`` of that club for
the task's run and leaves it after, also when the task raises, so two clubs' tasks in one
worker process never inherit each other's club. The club is entered in ``__call__``
rather than in ``task_prerun``/``task_postrun`` because Celery logs and swallows what a
signal handler raises: a club's task that came without a club must fail, not run with
none. Every task is classified in ``core.jobs`` (``task_kind``): a club's task (one a
service queues: ``core.jobs.TASKS``) without a club runs in the only club when there is
exactly one (logged), and is refused otherwise; the beat's jobs
(``core.jobs.PLATFORM_TASKS``) are the platform's and queue each club's part in that
club (``members.clubs.context.per_club``); a task in neither list is refused
(``core.jobs.UnlistedTask``), never run with the scoping off."""

from __future__ import annotations

import logging
import os
from typing import Any, cast

from celery import Celery, Task
from celery.signals import before_task_publish, worker_init

from core.tenancy.context import NoClub, club_context, current_club, platform_context

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)

CLUB_HEADER = "club"


class ClubTask(Task):
    def apply_async(self, args: Any = None, kwargs: Any = None, **options: Any) -> Any:
        club = current_club()
        if club is not None:
            options["headers"] = {CLUB_HEADER: club.pk, **(options.get("headers") or {})}
        return super().apply_async(args, kwargs, **options)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from core.jobs import task_kind

        kind = task_kind(self.name)  # an unlisted task is refused here (UnlistedTask)
        if kind == "celery":
            return super().__call__(*args, **kwargs)
        if kind == "platform":
            with platform_context():  # a beat job: it visits every club's due work
                return super().__call__(*args, **kwargs)
        outer = current_club()
        if outer is not None and not self._header():
            club = outer  # called in the club's own work (eagerly, or as a function)
        else:
            with platform_context():  # finding the task's club sees every club
                club = self._club(args, kind)
        if club is None:  # "either", queued by the platform's own work
            with platform_context():
                return super().__call__(*args, **kwargs)
        with club_context(club):
            return super().__call__(*args, **kwargs)

    def _header(self) -> Any:
        request = self.request
        return getattr(request, CLUB_HEADER, None) or (getattr(request, "headers", None) or {}).get(CLUB_HEADER)

    def _club(self, args: tuple[Any, ...], kind: str) -> Any:
        from members.models import Club

        club_id = self._header()
        if club_id is not None:
            return Club.objects.get(pk=club_id)  # a club deleted since: the task fails
        owner = _club_of_argument(self.name, args)
        if owner is not None:
            return owner  # queued by the platform's job for one club's evening, half, upload
        if kind == "either":
            return None
        clubs = list(Club.objects.order_by("pk")[:2])
        if len(clubs) == 1:
            log.warning("task %s came without a club header; running it in the only club, %s",
                        self.name, clubs[0].slug)
            return clubs[0]
        raise NoClub(f"{self.name} is a club's task and came without a club header")


# A club's task names its object first; its club is that object's, found by the path its
# model's scoped manager declares (core.tenancy.scoping: the one declaration of how a row finds
# its club). The beat's jobs queue them for every club, in no club of their own.
CLUB_OF_ARGUMENT: dict[str, str] = {
    "competition.tasks.recalculate_half": "competition.Half",
    "competition.tasks.recalculate_season": "competition.Season",
    "pairing.tasks.send_pairing_notices": "competition.Evening",
    "pairing.tasks.notify_withdrawals": "competition.Evening",
    "pairing.tasks.pair_and_publish_evening": "competition.Evening",
    "competition.ratings.tasks.read_rating_list": "competition.RatingImport",
}


def _club_of_argument(name: str, args: tuple[Any, ...]) -> Any:
    from django.apps import apps
    from django.db.models import Subquery

    from core.tenancy.scoping import club_path
    from members.models import Club

    if name not in CLUB_OF_ARGUMENT or not args or not isinstance(args[0], int):
        return None
    model = apps.get_model(CLUB_OF_ARGUMENT[name])
    owner = model._base_manager.filter(pk=args[0]).values(f"{club_path(model)}_id")[:1]
    return Club.objects.filter(pk=Subquery(owner)).first()  # one query; None when gone


@before_task_publish.connect
def _club_header(headers: dict | None = None, **kwargs: Any) -> None:
    """A task published inside a club's work by any path (``send_task`` included) carries it."""
    club = current_club()
    if club is not None and headers is not None:
        headers.setdefault(CLUB_HEADER, club.pk)


app = Celery("ranglijst", task_cls=ClubTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _warm_up_worker(**kwargs: Any) -> None:
    warm_up()


def warm_up() -> None:
    """Load at the worker's start what its first task would otherwise load inside a club's
    deadline: the URL lookups the e-mails' links are reversed with, the club language's
    translations and the e-mail templates (``core.mail.render``'s ``<name>_subject.txt``
    and ``<name>_body.txt``). Celery's Django fixup imports the URL configuration already
    (its system checks, unless ``CELERY_SKIP_CHECKS``); the rest is about 20 ms of CPU, a
    quarter of a second without the checks. It touches no database, so the prefork pool's
    processes, forked after it, inherit it all."""
    from pathlib import Path

    from django.conf import settings
    from django.template.loader import get_template
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().reverse_dict  # noqa: B018 (populating it imports the URL configuration)
    with translation.override(settings.LANGUAGE_CODE):
        translation.gettext("Pairing")
    folders = [Path(d) for engine in settings.TEMPLATES
               for d in cast("list[str]", engine.get("DIRS", []))]
    for folder in folders:
        for subject in folder.rglob("*_subject.txt"):
            name = subject.relative_to(folder).as_posix()
            get_template(name)
            body = name.removesuffix("_subject.txt") + "_body.txt"
            if (folder / body).exists():
                get_template(body)
