"""The club of a request: every query, role and cache key inside is that club's.

For now every request is the installation's own club (``home_club``); the club's address
(``/<club-slug>/``, or its own host name) will choose it here. A Celery task runs in
the club of the work that queued it (eager, in the tests) and otherwise, until the task
messages carry their club, in the installation's own club."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from django.http import HttpRequest, HttpResponse

from members.clubs import home_club
from members.context import club_context


class ClubMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        club = home_club()
        request.club = club  # type: ignore[attr-defined]
        with club_context(club):
            return self.get_response(request)


def task_in_home_club() -> None:
    """Every Celery task outside a club runs in the installation's own club."""
    from celery.signals import task_postrun, task_prerun

    from members.context import current_club

    def enter(task: Any = None, **kwargs: Any) -> None:
        if task is None or current_club() is not None:
            return
        stack = ExitStack()
        stack.enter_context(club_context(home_club()))
        task.__dict__.setdefault("_club_stacks", []).append(stack)

    def leave(task: Any = None, **kwargs: Any) -> None:
        stacks = task.__dict__.get("_club_stacks") if task is not None else None
        if stacks:
            stacks.pop().close()

    task_prerun.connect(enter, weak=False, dispatch_uid="members.task_club_enter")
    task_postrun.connect(leave, weak=False, dispatch_uid="members.task_club_leave")
