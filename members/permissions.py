"""The one permission check every service makes before it writes.

``require(actor, perm)`` refuses anyone without ``perm``. There is no silent pass: a
write without a person behind it (the deadline job, a management command run by the
operator) says so with ``system=True``, as Wagtail's ``skip_permission_checks`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .roles import ROLES

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


def account_rank(user: User) -> int:
    """Where ``user`` stands in the role order: player < arbiter < leader < administrator
    (``roles.ROLES``) < staff (the Django admin) < superuser; -1 without a role."""
    if user.is_superuser:
        return len(ROLES) + 1
    if user.is_staff:
        return len(ROLES)
    names = set(user.groups.values_list("name", flat=True))
    return max((i for i, role in enumerate(ROLES) if role in names), default=-1)


def may_manage_account(actor: Actor | None, target: User) -> bool:
    """Whether ``actor`` may change ``target``'s sign-in (his e-mail address or his
    password): a superuser anyone's, others their own, or one strictly below his own place in the role order. So a
    leader never reaches a fellow leader's, an administrator's or a superuser's account
    (docs/trust.md, "Accounts")."""
    who = person(actor)
    if who is None:
        return False
    if who.is_superuser:
        return True
    return who.pk == target.pk or account_rank(who) > account_rank(target)
