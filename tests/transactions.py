"""A transaction a module-scoped fixture opens around data it builds once, rolled back
after the module (in the installation's own club): it plays the part of Django's ``TestCase.setUpClass`` transaction, so
services that insist on being the outermost transaction (``atomic(durable=True)``) treat
it as the test case's own, as Django does for ``TestCase``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, transaction


@contextmanager
def rolled_back(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    from members.clubs import forget_home_club, home_club
    from members.context import club_context

    atomic = transaction.atomic(using=using)
    atomic._from_testcase = True  # type: ignore[attr-defined]  # as TestCase._enter_atomics
    with atomic:
        forget_home_club()
        # The data is the installation's own club's, as in a test (tests/conftest.py).
        with club_context(home_club()):
            yield
        transaction.set_rollback(True, using=using)
    forget_home_club()


@contextmanager
def in_home_club() -> Iterator[None]:
    """Data a module-scoped fixture builds: the installation's own club's, as a test's."""
    from members.clubs import forget_home_club, home_club
    from members.context import club_context

    forget_home_club()
    with club_context(home_club()):
        yield
    forget_home_club()
