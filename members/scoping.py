"""Club scoping of the queries: the manager every club-scoped model has.

It is django-scopes' ``ScopedManager(club=path)`` (the same scope state, the same
``ScopeError`` outside a scope, ``django_scopes.scopes_disabled()`` for the platform
operator's work), with one difference: the club filter is a subquery on the model's first
relation (``season_id IN (SELECT id FROM season WHERE club_id = %s)``) rather than a join.
A join would put the season and club rows in every ``SELECT ... FOR UPDATE``, and lock
them with the row the service meant (docs/architecture.md, "Many clubs")."""

from __future__ import annotations

from typing import Any

from django.db import models
from django_scopes.manager import DisabledQuerySet
from django_scopes.state import get_scope


def club_filter(model: type[models.Model], path: str, club: Any) -> models.Q:
    """Rows of ``model`` whose ``path`` (``club``, ``season__club``, ...) is ``club``."""
    first, _, rest = path.partition("__")
    if not rest:
        return models.Q(**{first: club})
    related = model._meta.get_field(first).related_model
    assert related is not None
    inner = related._base_manager.filter(club_filter(related, rest, club)).values("pk")
    return models.Q(**{f"{first}__in": inner})


class OutOfScopeQuerySet(DisabledQuerySet):
    """A club-scoped model's queryset made with no club in scope: it raises ``ScopeError``
    when it is read or narrowed, but ``all()`` made later in a club is that club's rows.
    So a form's ``ModelChoiceField(queryset=Player.objects.all())``, built on import,
    reads the club of each request (the field copies its queryset with ``all()``)."""

    def all(self) -> models.QuerySet:  # type: ignore[override]
        if "club" in get_scope() or not get_scope().get("_enabled", True):
            return self.model._default_manager.get_queryset()
        return self._clone()


def ScopedManager(_manager_class: type[models.Manager] = models.Manager, *, club: str) -> Any:  # noqa: N802
    """The default manager of a club-scoped model: every query is the current club's
    (``members.context.club_context``), and raises ``ScopeError`` with no club in scope."""
    path = club

    class ClubScopedManager(_manager_class):  # type: ignore[valid-type,misc]
        club_path = path

        def get_queryset(self) -> models.QuerySet:
            scope = get_scope()
            queryset = super().get_queryset()
            if not scope.get("_enabled", True):
                return queryset
            if "club" not in scope:
                return OutOfScopeQuerySet(self.model, using=self._db, missing_scopes={"club"})
            return queryset.filter(club_filter(self.model, path, scope["club"]))

    return ClubScopedManager()


def club_path(model: type[models.Model]) -> str | None:
    """The club path of a club-scoped model's manager; None for a platform-wide model."""
    return getattr(model._default_manager, "club_path", None)
