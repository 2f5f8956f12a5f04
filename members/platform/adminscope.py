"""The admin per club (docs/architecture.md, "Many clubs", "The admin").

The admin is the platform's window (``PlatformWorkMiddleware``): an operator (superuser)
sees every club's rows there; a club's administrator (``is_staff`` and the administrator
role in one club) sees his club's only, whatever address the admin was asked at. The club
scoping does it for the club-scoped models (core/tenancy/scoping.py); the platform-wide ones say
it themselves:

- accounts (``User``) and their e-mail addresses: his club's members' only; he neither
  adds nor deletes an account (a member is added and leaves on the club's pages; an account
  may be another club's member too) nor hands out the platform's rights (staff, superuser,
  groups);
- clubs, their host names and the role groups: the operator's only.

With no club in hand (a staff member who is the administrator of no club, or of several) a
club-scoped model is closed to anyone but an operator, and he sees no account."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from members.clubs.context import current_club
from members.platform.services import is_operator


def in_a_club(request: HttpRequest) -> bool:
    """The operator, or someone whose admin is one club's."""
    return is_operator(request.user) or current_club() is not None


def members_only(request: HttpRequest, queryset: models.QuerySet, path: str = "pk") -> models.QuerySet:  # type: ignore[type-arg]
    """``queryset`` (accounts, or rows of an account at ``path``) as the admin shows it:
    all for the operator, the current club's members' for anyone else."""
    if is_operator(request.user):
        return queryset
    club = current_club()
    if club is None:
        return queryset.none()
    from members.models import Membership

    return queryset.filter(**{f"{path}__in": Membership.objects.filter(club=club).values("user_id")})


class ClubScopedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A club-scoped model: the club in hand's rows (the scoping), and nothing at all
    without a club in hand, but for the operator."""

    def get_queryset(self, request: HttpRequest) -> models.QuerySet:  # type: ignore[type-arg]
        if not in_a_club(request):
            return self.model._base_manager.none()
        return super().get_queryset(request)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return in_a_club(request) and super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return in_a_club(request) and super().has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return in_a_club(request) and super().has_add_permission(request, *args)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return in_a_club(request) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return in_a_club(request) and super().has_delete_permission(request, obj)


class OperatorOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The platform's own rows: the operator's only."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_operator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request.user)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_operator(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request.user)
