"""The club of the work in hand: ONE context variable, entered and left through ONE context
manager (``club_context``), and read by everything that asks "which club?".

It holds the club's id, address (slug), time zone and language (and its row, for the
readers that need the model), or no club, and whether the work is the platform's over
every club. A request (``members.clubs.middleware.ClubMiddleware``), a task (``config.celery``'s
``ClubTask``, from its ``club`` header) and a management command (``--club``) enter it;
inside, queries, "today", the site's name, the cache keys, the e-mails' sender and
language and PostgreSQL's row security (``members/clubs/rls.py``) are that club's. Nested
contexts restore the outer one on exit, so two clubs' tasks in one worker never inherit
each other's club.

``club_context`` also enters django-scopes through its public API: ``scope(club=...)`` in
a club or with no club (a club-scoped query then raises ``ScopeError``: it fails closed),
``scopes_disabled()`` for the platform's own work (``platform_context``: the beat's
dispatchers and catch-ups, the operator's admin, the command line), where row security is
open to every club too.

The module imports nothing of the project's and loads Django's parts only when a context
is entered, so ``manage.py`` enters the platform's context before the settings load, and
``core`` (which imports no app) reads the club here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Tenant:
    """The club of the work in hand, as every layer sees it."""

    club_id: int
    slug: str
    time_zone: str  # "Europe/Amsterdam"
    language: str = ""  # the club's language ("nl"): its e-mails are written in it
    club: Any = field(default=None, compare=False, repr=False)  # its row (members.Club)

    @property
    def key(self) -> str:
        """"club-7": the prefix of the club's cache keys."""
        return f"club-{self.club_id}"

    def tzinfo(self) -> dt.tzinfo:
        """The club's zone; the site's own for a stored name that is no zone (a page
        never fails on it: core/tenancy/timezones.py)."""
        from core.tenancy.timezones import zone_or_default

        return zone_or_default(self.time_zone)

    @classmethod
    def of(cls, club: Any) -> Tenant:
        """The context of a club's row (``members.Club``)."""
        return cls(club.pk, club.slug, club.time_zone, club.language, club)


@dataclass(frozen=True)
class _Work:
    tenant: Tenant | None = None
    every_club: bool = False  # the platform's work: scopes off, row security open


_NO_CLUB = _Work()  # frozen: one shared default is safe
_work: ContextVar[_Work] = ContextVar("ranglijst_club", default=_NO_CLUB)


def current_tenant() -> Tenant | None:
    """The club of the work in hand, or None outside any club."""
    return _work.get().tenant


def current_club() -> Any:
    """The club's row (``members.Club``) of the work in hand, or None outside any club
    (platform pages, operators)."""
    tenant = _work.get().tenant
    return tenant.club if tenant is not None else None


class NoClub(RuntimeError):
    """Club work asked for outside every club (a service or a link with no club given, a
    club's task without its club header on an installation of several): there is no club
    to fall back to."""


def club_in_hand() -> Any:
    """The club's row of the work in hand; raises ``NoClub`` outside every club (never a
    fallback to the installation's first club)."""
    club = current_club()
    if club is None:
        raise NoClub("this needs a club: enter its club_context or name the club")
    return club


def current_club_id() -> int | None:
    """The id of the club of the work in hand (an outbox row's default), None outside."""
    tenant = _work.get().tenant
    return tenant.club_id if tenant is not None else None


def tenant_key() -> str:
    """The club's cache-key prefix; "platform" outside any club."""
    tenant = _work.get().tenant
    return tenant.key if tenant is not None else "platform"


def scoping_off() -> bool:
    """Whether ``club_context`` entered django-scopes' ``scopes_disabled()`` for the work in
    hand (the platform's, ``platform_context``): our own record of it, so the scoped
    managers (core/tenancy/scoping.py) never read django-scopes' private state."""
    return _work.get().every_club


def in_all_clubs() -> bool:
    """Whether the work in hand is the platform's, over every club (and in no club)."""
    work = _work.get()
    return work.every_club and work.tenant is None


@contextmanager
def club_context(club: Any, *, every_club: bool = False) -> Iterator[Any]:
    """The one way in and out of a club's work: ``club`` (a ``members.Club``) or None (no
    club: a club-scoped query raises ``ScopeError``, row security shows no club's rows);
    ``every_club=True`` with no club is the platform's work (``platform_context``)."""
    from django_scopes import scope, scopes_disabled

    if club is not None and every_club:
        raise ValueError("a club's work is not the platform's")
    token = _work.set(_Work(Tenant.of(club) if club is not None else None, every_club))
    try:
        # django-scopes through its public API: ``club=None`` is "no club in scope"
        # (core.tenancy.scoping raises ScopeError for it, as for a missing scope).
        with scopes_disabled() if every_club else scope(club=club):
            yield club
    finally:
        _work.reset(token)


def platform_context() -> Any:
    """The platform's own work (the beat's dispatcher and catch-ups, which visit every
    club's due work; the operator; the command line): in no club, the club scoping off and
    PostgreSQL's row security open to every club (members/clubs/rls.py). A club's work inside it
    enters its club again."""
    return club_context(None, every_club=True)
