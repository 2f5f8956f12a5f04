"""The one permission check every service makes before it writes.

``require(actor, perm)`` refuses anyone without ``perm``. There is no silent pass: a
write without a person behind it (the deadline job, a management command run by the
operator) says so with ``system=True``, as Wagtail's ``skip_permission_checks`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from .models import User

    Actor: TypeAlias = "User | AnonymousUser"
else:
    Actor = object


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
