"""The club of the work in hand, as a context variable: ``members.context`` sets it
(``club_context``), everything else reads it through ``current_club``. A module of its own
that imports nothing, so PostgreSQL's row security (members/rls.py, loaded by manage.py
before the settings) reads it without importing the club context back."""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from members.models import Club

_current: ContextVar[Club | None] = ContextVar("ranglijst_club", default=None)


def current_club() -> Club | None:
    """The club of the work in hand, or None outside any club (platform pages, operators)."""
    return _current.get()
