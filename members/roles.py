"""The club's roles, as Groups with explicit permissions (created by a data migration).

A role is the set of things a person may do; the permission codenames live on the
competition models (``Meta.permissions``) so checks read as ``user.has_perm(...)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.permissions import Actor, Perm, person

if TYPE_CHECKING:
    from members.models import User


PLAYER = "player"
ARBITER = "arbiter"
LEADER = "leader"
ADMINISTRATOR = "administrator"

ROLES = (PLAYER, ARBITER, LEADER, ADMINISTRATOR)

# app_label.codename for each role; every later role includes what it needs explicitly.
ROLE_PERMISSIONS: dict[str, tuple[str, ...]] = {
    PLAYER: (
        Perm.REGISTER_SELF,
    ),
    ARBITER: (
        Perm.REGISTER_SELF,
        Perm.ENTER_RESULTS,
    ),
    LEADER: (
        Perm.REGISTER_SELF,
        Perm.ENTER_RESULTS,
        Perm.MANAGE_REGISTRATIONS,
        Perm.MANAGE_PAIRINGS,
        Perm.APPROVE_TEMPO,
        Perm.MANAGE_CALENDAR,
    ),
    ADMINISTRATOR: (
        Perm.REGISTER_SELF,
        Perm.ENTER_RESULTS,
        Perm.MANAGE_REGISTRATIONS,
        Perm.MANAGE_PAIRINGS,
        Perm.APPROVE_TEMPO,
        Perm.MANAGE_CALENDAR,
        Perm.MANAGE_SEASON,
        Perm.OVERRIDE_ELIGIBILITY,
    ),
}


def ensure_groups() -> None:
    """Create the role groups if they are missing (after a test flush, or a restore).

    The data migration creates them on ``migrate``; this does the same with the live
    models for code paths that may meet an emptied database.
    """
    from django.contrib.auth.models import Group, Permission
    from django.contrib.contenttypes.models import ContentType

    season_type, _ = ContentType.objects.get_or_create(app_label="competition", model="season")
    for role, perms in ROLE_PERMISSIONS.items():
        group, created = Group.objects.get_or_create(name=role)
        if not created and group.permissions.count() == len(perms):
            continue
        for full in perms:
            codename = full.split(".")[1]
            perm, _ = Permission.objects.get_or_create(
                content_type=season_type, codename=codename, defaults={"name": codename}
            )
            group.permissions.add(perm)


def role_label(user: object) -> str:
    """The highest role of a signed-in user, in words (the access-denied page names it,
    never the roles that may)."""
    from django.utils.translation import gettext as _

    if getattr(user, "registration_pending", False):
        return _("registration not accepted yet")
    if getattr(user, "is_superuser", False):
        return _("administrator")
    names = set(user.groups.values_list("name", flat=True)) if hasattr(user, "groups") else set()
    labels = {ADMINISTRATOR: _("administrator"), LEADER: _("competition leader"),
              ARBITER: _("arbiter"), PLAYER: _("player")}
    for role in reversed(ROLES):
        if role in names:
            return labels[role]
    return _("member")


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
