"""The club a piece of work is for: one request, one task, one command.

``club_context(club)`` is the one way in: the request's middleware, a Celery task (from
its ``club`` header) and a management command (``--club``) enter it, and everything
inside (queries, "today", the site name, cache keys, e-mail sender) is that club's.
Nested contexts restore the outer one on exit, so two clubs' tasks in one worker never
inherit each other's club."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from members.models import Club

_current: ContextVar[Club | None] = ContextVar("ranglijst_club", default=None)


def current_club() -> Club | None:
    """The club of the work in hand, or None outside any club (platform pages, operators)."""
    return _current.get()


@contextmanager
def club_context(club: Club | None) -> Iterator[Club | None]:
    token = _current.set(club)
    try:
        yield club
    finally:
        _current.reset(token)
