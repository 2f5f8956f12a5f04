"""The one permission check every service makes before it writes.

``require(actor, perm)`` refuses anyone without ``perm``. There is no silent pass: a
write without a person behind it (the deadline job, a management command run by the
operator) says so with ``system=True``, as Wagtail's ``skip_permission_checks`` does.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, TypeAlias

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from members.models import User

    Actor: TypeAlias = "User | AnonymousUser"
else:
    Actor = object


class Perm(StrEnum):
    """Every permission a role can hold (members/roles.py gives them to the roles), as
    ``app_label.codename``: checks read ``require(actor, Perm.ENTER_RESULTS)``."""

    REGISTER_SELF = "competition.register_self"
    ENTER_RESULTS = "competition.enter_results"
    MANAGE_REGISTRATIONS = "competition.manage_registrations"
    MANAGE_PAIRINGS = "competition.manage_pairings"
    APPROVE_TEMPO = "competition.approve_tempo"
    MANAGE_CALENDAR = "competition.manage_calendar"
    MANAGE_SEASON = "competition.manage_season"
    OVERRIDE_ELIGIBILITY = "competition.override_eligibility"


def require(actor: Actor | None, perm: str, *, system: bool = False) -> None:
    """Raise ``PermissionDenied`` unless ``actor`` holds ``perm``.

    ``actor=None`` is allowed only together with ``system=True``; a person acting is
    always checked, whatever ``system`` says."""
    if actor is None:
        if system:
            return
        raise PermissionDenied(_("You are not allowed to do this."))
    if not actor.has_perm(perm):
        raise PermissionDenied(_("You are not allowed to do this."))


def person(actor: Actor | None) -> User | None:
    """The signed-in user behind an action, for the audit trail and ``changed_by``."""
    if actor is not None and actor.is_authenticated:
        return actor  # type: ignore[return-value]
    return None


