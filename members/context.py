"""The club a piece of work is for: one request, one task, one command.

``club_context(club)`` is the one way in: the request's middleware, a Celery task (from
its ``club`` header) and a management command (``--club``) enter it, and everything
inside (queries, "today", the site name, cache keys, e-mail sender) is that club's.
Nested contexts restore the outer one on exit, so two clubs' tasks in one worker never
inherit each other's club.

It also sets django-scopes' scope (``club``): every query of a club-scoped model
(members/scoping.py) is the club's, and one with no club in scope raises ``ScopeError``.
``club_context(None)`` is "no club" (the platform's own pages): club-scoped queries raise."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

from django.db.models import Model
from django_scopes import scope

from core.tenancy import Tenant, current_club_id, tenant
from members.current import _current, current_club

if TYPE_CHECKING:
    from members.models import Club

T = TypeVar("T")

# ``current_club_id`` (the club columns' default, which the migrations name here) is
# core.tenancy's: one id of the work in hand, set with the club below.
__all__ = ["club_context", "current_club", "current_club_id", "per_club", "platform_context"]


@contextmanager
def club_context(club: Club | None) -> Iterator[Club | None]:
    token = _current.set(club)
    try:
        # django-scopes through its public API: ``club=None`` is "no club in scope"
        # (core.scoping raises ScopeError for it, as for a missing scope).
        with scope(club=club), tenant(
                Tenant(f"club-{club.pk}", club.time_zone, club.pk, club.language)
                if club is not None else None):
            yield club
    finally:
        _current.reset(token)


@contextmanager
def platform_context() -> Iterator[None]:
    """The platform's own work (the beat's dispatcher and catch-ups, which visit every
    club's due work): in no club, the club scoping off and PostgreSQL's row security
    open to every club (members/rls.py). A club's work inside it enters its club again."""
    from django_scopes import scopes_disabled

    from members.allclubs import all_clubs

    with club_context(None), scopes_disabled(), all_clubs():
        yield


def per_club(model: type[Model], ids: Iterable[int],
             work: Callable[[list[int]], Iterable[T]]) -> list[T]:
    """A beat job's way to each club's part of its due work: ``ids`` of ``model``'s rows
    across clubs (found in the platform's context), grouped by their club (the path of the
    model's scoped manager, members/scoping.py); ``work`` runs once per club with that
    club's ids, inside ``club_context`` of the club, so what it queues carries the club
    and what it changes (the club's page version included) is the club's. Returns what
    every club's ``work`` gave, club after club. Two queries, however many clubs."""
    from members.models import Club
    from members.scoping import club_path

    ids = list(ids)
    if not ids:
        return []
    path = club_path(model)
    if path is None:
        raise TypeError(f"{model.__name__} is not club-scoped")
    with platform_context():
        owners = dict(model._base_manager.filter(pk__in=ids).values_list("pk", f"{path}_id"))
        clubs = Club.objects.in_bulk(set(owners.values()))
    by_club: dict[int, list[int]] = {}
    for pk in ids:
        if pk in owners:  # a row deleted since it was found has no work left
            by_club.setdefault(owners[pk], []).append(pk)
    done: list[T] = []
    for club_id in sorted(by_club):
        with club_context(clubs[club_id]):
            done.extend(work(by_club[club_id]))
    return done
