"""Platform-wide work: every club's rows (members/rls.py). A leaf module (it imports
nothing of the project's or Django's), so the club context, row security and
``manage.py`` (before the settings load) all reach it without importing each other."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_all_clubs: ContextVar[bool] = ContextVar("ranglijst_all_clubs", default=False)


@contextmanager
def all_clubs() -> Iterator[None]:
    """Platform-wide work: every club's rows (a club context inside it still narrows)."""
    token = _all_clubs.set(True)
    try:
        yield
    finally:
        _all_clubs.reset(token)


def in_all_clubs() -> bool:
    """Whether the work in hand is the platform's, over every club."""
    return _all_clubs.get()
