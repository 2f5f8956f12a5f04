"""The club's roles: a member's role is his ``Membership.role`` in the club (one account
may belong to several clubs, with a role in each).

A role is the set of things a person may do (``ROLE_PERMISSIONS``); the permission
codenames live on the competition models (``Meta.permissions``) so checks read as
``user.has_perm(...)``, answered for the current club (``members.clubs.context``) or the
object's club by ``members.clubs.backends.ClubRoleBackend``. Staff and superusers are the
platform's operators: they may do everything, in every club. The role Groups of a
single-club installation (created by a data migration) are no longer read for the roles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.permissions import Perm
from members.models import Actor, person

if TYPE_CHECKING:
    from members.models import Club, User


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


def club_role(user: object, club: Club | int | None = None) -> str | None:
    """``user``'s role in ``club`` (the current club when not given), or None when he is
    no member of it. Memoised on the user object per club (one query per request, as
    Django's own permission cache)."""
    from members.clubs.context import current_club
    from members.models import Membership

    club = club if club is not None else current_club()
    if club is None or not getattr(user, "is_authenticated", False) or user.pk is None:  # type: ignore[attr-defined]
        return None
    club_id = club if isinstance(club, int) else club.pk
    cache: dict[int, str | None] = user.__dict__.setdefault("_club_roles", {})
    if club_id not in cache:
        cache[club_id] = (
            Membership.objects.filter(user_id=user.pk, club_id=club_id)  # type: ignore[attr-defined]
            .values_list("role", flat=True).first()
        )
    return cache[club_id]


def forget_roles(user: object) -> None:
    """Drop the memoised roles (after a role changed)."""
    for attr in ("_club_roles", "_club_perm_cache"):
        user.__dict__.pop(attr, None)


def join_club(user: User, club: Club, role: str = PLAYER) -> None:
    """Make ``user`` a member of ``club`` with at least ``role``: a member who already has
    a higher role keeps it."""
    from members.models import Membership

    membership, created = Membership.objects.get_or_create(
        user=user, club=club, defaults={"role": role}
    )
    if not created and ROLES.index(role) > ROLES.index(membership.role if membership.role in ROLES else PLAYER):
        membership.role = role
        membership.save(update_fields=["role"])
    forget_roles(user)


def set_club_role(user: User, role: str | None, club: Club) -> None:
    """Give ``user`` exactly ``role`` in ``club`` (None: he leaves the club)."""
    from members.models import Membership

    if role is None:
        Membership.objects.filter(user=user, club=club).delete()
    else:
        Membership.objects.update_or_create(user=user, club=club, defaults={"role": role})
    forget_roles(user)


def role_label(user: object) -> str:
    """The highest role of a signed-in user, in words (the access-denied page names it,
    never the roles that may)."""
    from django.utils.translation import gettext as _

    if getattr(user, "registration_pending", False):
        return _("registration not accepted yet")
    if getattr(user, "is_superuser", False):
        return _("administrator")
    names = {club_role(user)}
    labels = {ADMINISTRATOR: _("administrator"), LEADER: _("competition leader"),
              ARBITER: _("arbiter"), PLAYER: _("player")}
    for role in reversed(ROLES):
        if role in names:
            return labels[role]
    return _("member")


def account_rank(user: User, club: Club | int | None = None) -> int:
    """Where ``user`` stands in the role order: player < arbiter < leader < administrator
    (``roles.ROLES``) < staff (the Django admin) < superuser; -1 without a role. His
    highest role in any club (``club`` not given: the actor's question "may I reach him?"
    is never answered by one club alone), or in ``club``."""
    from members.models import Membership

    if user.is_superuser:
        return len(ROLES) + 1
    if user.is_staff:
        return len(ROLES)
    if club is not None:
        names = {club_role(user, club)}
    else:
        names = set(Membership.objects.filter(user_id=user.pk).values_list("role", flat=True))
    return max((i for i, role in enumerate(ROLES) if role in names), default=-1)


def other_clubs(user: User, club: Club | int | None = None) -> bool:
    """Whether ``user`` is a member of a club other than ``club`` (the current club): then
    his person (sign-in, name, numbers) is not one club's to change."""
    from members.clubs.context import current_club
    from members.models import Membership

    club = club if club is not None else current_club()
    memberships = Membership.objects.filter(user_id=user.pk)
    if club is not None:
        memberships = memberships.exclude(club_id=club if isinstance(club, int) else club.pk)
    return memberships.exists()


def has_signed_in(user: User) -> bool:
    """The person has taken his account: he signed in once, or set his password (the
    invitation accepted). From then on his sign-in is his alone."""
    return user.last_login is not None or user.has_usable_password()


def may_manage_account(actor: Actor | None, target: User) -> bool:
    """Whether ``actor`` may change ``target``'s sign-in (his e-mail address or his
    password): a superuser (the operator) anyone's, everyone his own. A club's leader or
    administrator only corrects the address of an invitation not yet accepted, of an
    account that belongs to his club alone and stands strictly below his own role there
    (``competition.roster.services.member_update``); never that of a person who has signed in, nor of
    a member of another club too (docs/architecture.md, "The person and his memberships")."""
    who = person(actor)
    if who is None:
        return False
    if who.is_superuser or who.pk == target.pk:
        return True
    from members.clubs.context import current_club

    club = current_club()
    if club is None or has_signed_in(target) or other_clubs(target, club):
        return False
    return account_rank(who, club) > account_rank(target)
