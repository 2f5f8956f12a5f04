"""Club scoping of the queries: the manager every club-scoped model has.

It is django-scopes' ``ScopedManager(club=path)`` (the same ``ScopeError`` outside a
scope; the platform operator's work, where ``club_context`` entered ``scopes_disabled()``,
unscoped), with two differences: whether the scoping is off is read from our own club
context (``core.tenancy.context.scoping_off``), never from django-scopes' private state;
and the club filter is a subquery on the model's first relation (``season_id IN
(SELECT id FROM season WHERE club_id = %s)``) rather than a join. A join would put the
season and club rows in every ``SELECT ... FOR UPDATE``, and lock them with the row the
service meant (docs/architecture.md, "Many clubs").

It lives in ``core`` (the bottom of the shell, importing no app) so that ``core``'s own
club rows (the outbox, ``core.Mail``) are scoped as every feature's are."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from django.db import models
from django_scopes import get_scope
from django_scopes.manager import DisabledQuerySet

from core.tenancy.context import scoping_off


def club_filter(model: type[models.Model], path: str, club: Any) -> models.Q:
    """Rows of ``model`` whose ``path`` (``club``, ``season__club``, ...) is ``club``."""
    return _club_filter(model, path, club.pk if isinstance(club, models.Model) else club)


@functools.lru_cache(maxsize=8192)
def _club_filter(model: type[models.Model], path: str, club_id: int) -> models.Q:
    """``club_filter`` built once per model and club and then reused: every query of a
    club's work narrows its queryset by it, and building the nested subqueries anew cost
    more than the rest of most queries' preparation. Reusing it is safe: a filter never
    changes its Q, and a queryset used as a subquery is copied by each query that takes it
    in (``QuerySet.resolve_expression``). It holds ids only, never a row."""
    first, _, rest = path.partition("__")
    if not rest:
        return models.Q(**{f"{first}_id" if _is_relation(model, first) else first: club_id})
    related = model._meta.get_field(first).related_model
    assert isinstance(related, type) and issubclass(related, models.Model)
    inner = related._base_manager.filter(_club_filter(related, rest, club_id)).values("pk")
    return models.Q(**{f"{first}__in": inner})


def _is_relation(model: type[models.Model], name: str) -> bool:
    return bool(model._meta.get_field(name).is_relation)


class OutOfScopeQuerySet(DisabledQuerySet):
    """A club-scoped model's queryset made with no club in scope: it raises ``ScopeError``
    when it is read, written or narrowed, whichever way, but ``all()`` made later in a club
    is that club's rows. So a form's ``ModelChoiceField(queryset=Player.objects.all())``,
    built on import, reads the club of each request (the field copies its queryset with
    ``all()``).

    django-scopes' ``DisabledQuerySet`` refuses a list of methods and lets the rest
    through: ``exists()``, ``explain()``, ``bulk_create()``, ``bulk_update()`` and the
    queryset used as a subquery (``filter(pk__in=Season.objects.exclude(...))``) ran every
    club's query, answered on SQLite and by row security alone on PostgreSQL. Here the
    rest of the public methods that query, write or narrow refuse too, and so do the few
    private points every read and write of a queryset goes through (``_fetch_all``,
    ``_iterator``, ``_update``, ``_raw_delete``, ``resolve_expression``): a method Django
    adds later that reads through them refuses without being listed. Left open, as in
    django-scopes: ``using()``, ``none()`` (no query) and ``create()`` (a new row names its
    club itself; PostgreSQL's row security checks it), and the copying a related manager
    does before its filter (``_next_is_sticky``, ``_add_hints``)."""

    error = DisabledQuerySet.error
    # Public: what DisabledQuerySet leaves open (tests/integration/test_fails_closed.py).
    exists = contains = explain = in_bulk = bulk_create = bulk_update = error
    exclude = distinct = select_related = prefetch_related = defer = extra = alias = error
    intersection = difference = aiterator = error
    # Private: every read (iteration, len, bool, pickling ...), update and delete ends here,
    # and a queryset read as a subquery of another resolves here.
    _fetch_all = _iterator = _update = _raw_delete = resolve_expression = error

    def all(self) -> models.QuerySet:  # type: ignore[override,type-arg]
        if get_scope().get("club") is not None or scoping_off():
            return self.model._default_manager.get_queryset()
        return self._clone()


class ScopedManager(models.Manager):  # type: ignore[type-arg]
    """The default manager of a club-scoped model, ``objects = ScopedManager(club=path)``:
    every query is the current club's (``members.clubs.context.club_context``), and raises
    ``ScopeError`` with no club in scope. A model with its own queryset uses
    ``ScopedManager.from_queryset(TheQuerySet)(club=path)``."""

    def __init__(self, *, club: str = "", platform_rows: bool = False) -> None:
        super().__init__()
        self._club_path = club
        # A model whose rows are a club's or the platform's own (club NULL: the outbox's
        # e-mail address changes): with no club in scope it shows the platform's rows
        # only, never a club's; in a club, that club's only.
        self._platform_rows = platform_rows

    @property
    def club_path(self) -> str:
        """The path to the club; a related manager (``season.evenings``: Django makes it
        a subclass, built without arguments) takes its model's."""
        return self._club_path or self.model._default_manager._club_path  # type: ignore[attr-defined]

    def get_queryset(self) -> models.QuerySet:  # type: ignore[type-arg]
        queryset = super().get_queryset()
        if scoping_off():  # the platform's work: our club context's record, not django-scopes' state
            return queryset
        scope = get_scope()
        if scope.get("club") is None:  # no club in scope (``club_context(None)``: club=None)
            if self._platform_rows or getattr(self.model._default_manager, "_platform_rows", False):
                return queryset.filter(**{f"{self.club_path}__isnull": True})
            return OutOfScopeQuerySet(self.model, using=self._db, missing_scopes={"club"})
        return queryset.filter(club_filter(self.model, self.club_path, scope["club"]))


def _refused_outside_every_club(queryset: models.QuerySet) -> models.QuerySet:  # type: ignore[type-arg]
    """``queryset`` of a club-scoped model as a related row's descriptor reads it: the
    same rows in a club and in the platform's work, refused with no club in scope."""
    model = queryset.model
    if (scoping_off() or get_scope().get("club") is not None or club_path(model) is None
            or getattr(model._default_manager, "_platform_rows", False)):
        return queryset
    return OutOfScopeQuerySet(model, using=queryset._db, hints=queryset._hints, missing_scopes={"club"})  # type: ignore[attr-defined]


class _ClubRowDescriptor:
    """A foreign key's or a one-to-one's descriptor whose row is a club-scoped model's
    (``player.season``, ``season.competition``, ``club.website``): Django reads that row,
    and prefetches it, through ``_base_manager``, which is unscoped so that saving a row
    and a delete's cascades work anywhere. With no club in scope the descriptor refuses
    instead (``_refused_outside_every_club``); a row already read (cached, or joined by
    ``select_related``) is handed out as before, with no query."""

    def get_queryset(self, **hints: Any) -> models.QuerySet:  # type: ignore[type-arg]
        return _refused_outside_every_club(super().get_queryset(**hints))  # type: ignore[misc]


@functools.cache
def _club_row_descriptor(cls: type) -> type:
    return type(f"Club{cls.__name__}", (_ClubRowDescriptor, cls), {})


def scope_related_rows(every_model: Iterable[type[models.Model]]) -> None:
    """Gives every foreign key and one-to-one leading to a club-scoped model, in both
    directions, the club's descriptor (``_ClubRowDescriptor``); ``core``'s ``ready()``
    runs it once the models are loaded. The related managers (``season.players``) need
    nothing: Django builds them from the target's default manager, the scoped one."""
    for model in every_model:
        for field in model._meta.get_fields():
            if not field.is_relation or field.related_model is None or club_path(field.related_model) is None:  # type: ignore[arg-type]
                continue
            if field.concrete and (field.many_to_one or field.one_to_one):  # player.season
                name, made_of = field.name, field
            elif field.one_to_one and not field.concrete:  # season.competition
                name, made_of = field.get_accessor_name(), field  # type: ignore[union-attr,assignment]
            else:
                continue
            descriptor = model.__dict__.get(name)
            if descriptor is not None and not isinstance(descriptor, _ClubRowDescriptor):
                setattr(model, name, _club_row_descriptor(type(descriptor))(made_of))  # type: ignore[arg-type]


# The club's model by its label, as AUTH_USER_MODEL names the user's: the club layer
# below knows it without importing the app that defines it (members.clubs).
CLUB_MODEL = "members.Club"


def club_path(model: type[models.Model]) -> str | None:
    """The club path of a club-scoped model's manager; None for a platform-wide model."""
    return getattr(model._default_manager, "club_path", None)
