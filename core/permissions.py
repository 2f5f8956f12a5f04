"""The one permission check every service makes before it writes.

``require(actor, perm)`` refuses anyone without ``perm``. There is no silent pass: a
write without a person behind it (the deadline job, a management command run by the
operator) says so with ``system=True``, as Wagtail's ``skip_permission_checks`` does.

A permission is a role's in a club (members/clubs/backends.py): ``require(actor, perm,
of=obj)`` asks for it in ``obj``'s club (a season, an evening, a game ...), so a leader
of club A is refused on club B's rows whatever the request's club; without ``of`` it is
the current club's. Staff and superusers are the platform's operators: allowed everywhere.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db import models
from django.utils.translation import gettext as _

from core.tenancy.scoping import CLUB_MODEL, club_path


class Person(Protocol):
    """Whoever asks: what the check reads of him. The site's user (``members.User``) and
    Django's anonymous visitor are such a person; the apps name them as
    ``members.models.Actor``, core (which imports no app) by what they can do."""

    @property
    def is_authenticated(self) -> bool: ...

    def has_perm(self, perm: str, obj: Any = None) -> bool: ...


class Perm(StrEnum):
    """Every permission a role can hold (members/clubs/roles.py gives them to the roles), as
    ``app_label.codename``: checks read ``require(actor, Perm.ENTER_RESULTS)``."""

    REGISTER_SELF = "competition.register_self"
    ENTER_RESULTS = "competition.enter_results"
    MANAGE_REGISTRATIONS = "competition.manage_registrations"
    MANAGE_PAIRINGS = "competition.manage_pairings"
    APPROVE_TEMPO = "competition.approve_tempo"
    MANAGE_CALENDAR = "competition.manage_calendar"
    MANAGE_SEASON = "competition.manage_season"
    OVERRIDE_ELIGIBILITY = "competition.override_eligibility"


# The club of a row whose parent the row-level security hides (club_of): no club's id.
UNSEEN_CLUB = 0


def club_of(obj: Any) -> int | None:
    """The id of the club ``obj`` belongs to (a club, a row with a club, or a row that
    reaches its club by the path its scoped manager declares: ``core.tenancy.scoping``), or None
    for anything else (no object: the current club decides)."""
    if obj is None:
        return None
    if isinstance(obj, models.Model) and obj._meta.label == CLUB_MODEL:
        return obj.pk  # type: ignore[no-any-return]
    if isinstance(getattr(obj, "club_id", None), int):
        return obj.club_id
    path = club_path(type(obj)) if isinstance(obj, models.Model) else None
    if path is None or "__" not in path:
        return None
    try:
        parent = getattr(obj, path.split("__", 1)[0])
    except ObjectDoesNotExist:
        # A parent the row-level security hides: another club's row, in this club's
        # work. No one holds a role in club 0, so the check refuses (never "the
        # current club decides").
        return UNSEEN_CLUB
    return club_of(parent)


def require(actor: Person | None, perm: str, *, system: bool = False, of: Any = None) -> None:
    """Raise ``PermissionDenied`` unless ``actor`` holds ``perm`` (in ``of``'s club when
    given, else in the current club).

    ``actor=None`` is allowed only together with ``system=True``; a person acting is
    always checked, whatever ``system`` says."""
    if actor is None:
        if system:
            return
        raise PermissionDenied(_("You are not allowed to do this."))
    if not actor.has_perm(perm, of):
        raise PermissionDenied(_("You are not allowed to do this."))
