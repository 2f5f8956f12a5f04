"""The club a piece of work is for, as the apps enter it: ``club_context`` and
``platform_context`` are core's (core/tenancy/context.py, the one club context); ``per_club`` is
the beat jobs' way to each club's part of their due work."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from django.db.models import Model

from core.tenancy.context import club_context, current_club, current_club_id, platform_context

T = TypeVar("T")

# The context itself is core's (core/tenancy/context.py: one variable, one context manager); these
# names stay here for the many call sites that enter it. ``current_club_id`` is the club
# columns' default, which the migrations name here.
__all__ = ["club_context", "current_club", "current_club_id", "per_club", "platform_context"]


def per_club(model: type[Model], ids: Iterable[int],
             work: Callable[[list[int]], Iterable[T]]) -> list[T]:
    """A beat job's way to each club's part of its due work: ``ids`` of ``model``'s rows
    across clubs (found in the platform's context), grouped by their club (the path of the
    model's scoped manager, core/tenancy/scoping.py); ``work`` runs once per club with that
    club's ids, inside ``club_context`` of the club, so what it queues carries the club
    and what it changes (the club's page version included) is the club's. Returns what
    every club's ``work`` gave, club after club. Two queries, however many clubs."""
    from core.tenancy.scoping import club_path
    from members.models import Club

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
