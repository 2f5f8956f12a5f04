"""The permissions of a member: his role's in the current club, or the object's club.

``ClubRoleBackend`` answers every permission of ``core.permissions.Perm`` (the roles'):
from the member's ``Membership`` in the club of the object asked about (``has_perm(perm,
obj)``) or the club of the work in hand (``members.clubs.context.current_club``). It is
authoritative for them: without the role's permission it raises ``PermissionDenied``, so
Django asks no other backend (a role Group of a single-club installation grants nothing
any more). Staff and superusers are the platform's operators and may do everything.
Every other permission (the admin's ``change_*``) is left to Django's ``ModelBackend``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from core.permissions import Perm, club_of
from members.clubs.context import current_club
from members.clubs.roles import ROLE_PERMISSIONS, club_role

ROLE_PERMS = frozenset(str(p) for p in Perm)


class ClubRoleBackend(ModelBackend):
    """Answers the role permissions per club; signs nobody in (``ModelBackend`` and
    allauth's backend do, after it)."""

    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> None:
        return None

    def club_permissions(self, user_obj: Any, obj: Any = None) -> frozenset[str]:
        if not user_obj.is_active or user_obj.is_anonymous:
            return frozenset()
        if user_obj.is_superuser:  # the platform's operator; staff only opens the admin
            return ROLE_PERMS
        club = club_of(obj)
        current = current_club()
        if club is not None and current is not None and club != current.pk:
            return frozenset()  # another club's row, asked in this club's work
        role = club_role(user_obj, club) if club is not None else club_role(user_obj)
        return frozenset(ROLE_PERMISSIONS.get(role or "", ()))

    def has_perm(self, user_obj: Any, perm: str, obj: Any = None) -> bool:
        if perm not in ROLE_PERMS:
            return False  # the next backend (ModelBackend) answers
        if perm in self.club_permissions(user_obj, obj):
            return True
        raise PermissionDenied  # authoritative: no other backend is asked

    def has_module_perms(self, user_obj: Any, app_label: str) -> bool:
        return any(p.startswith(app_label + ".") for p in self.club_permissions(user_obj))

    def get_all_permissions(self, user_obj: Any, obj: Any = None) -> set[str]:
        return set(super().get_all_permissions(user_obj, obj) if obj is None else set()) | set(
            self.club_permissions(user_obj, obj)
        )

    def get_group_permissions(self, user_obj: Any, obj: Any = None) -> set[str]:
        return set()  # the role groups grant nothing: the roles are memberships
