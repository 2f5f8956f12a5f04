"""The club a piece of work is for: one request, one task, one command.

``club_context(club)`` is the one way in: the request's middleware, a Celery task (from
its ``club`` header) and a management command (``--club``) enter it, and everything
inside (queries, "today", the site name, cache keys, e-mail sender) is that club's.
Nested contexts restore the outer one on exit, so two clubs' tasks in one worker never
inherit each other's club.

It also sets django-scopes' scope (``club``): every query of a club-scoped model
(members/scoping.py) is the club's, and one with no club in scope raises ``ScopeError``.
``club_context(None)`` is "no club" (the platform's own pages): club-scoped queries raise."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from django_scopes.state import state as _scope_state

from core.tenancy import Tenant, current_club_id, tenant
from members.current import _current, current_club

if TYPE_CHECKING:
    from members.models import Club

# ``current_club_id`` (the club columns' default, which the migrations name here) is
# core.tenancy's: one id of the work in hand, set with the club below.
__all__ = ["club_context", "current_club", "current_club_id", "platform_context"]


@contextmanager
def club_context(club: Club | None) -> Iterator[Club | None]:
    scope = dict(_scope_state.get() or {})
    scope["_enabled"] = True
    if club is None:
        scope.pop("club", None)
    else:
        scope["club"] = club
    token = _current.set(club)
    scope_token = _scope_state.set(scope)
    try:
        with tenant(Tenant(f"club-{club.pk}", club.time_zone, club.pk, club.language)
                    if club is not None else None):
            yield club
    finally:
        _scope_state.reset(scope_token)
        _current.reset(token)


@contextmanager
def platform_context() -> Iterator[None]:
    """The platform's own work (the beat's dispatcher and catch-ups, which visit every
    club's due work): in no club, the club scoping off and PostgreSQL's row security
    open to every club (members/rls.py). A club's work inside it enters its club again."""
    from django_scopes import scopes_disabled

    from members.allclubs import all_clubs

    with club_context(None), scopes_disabled(), all_clubs():
        yield
