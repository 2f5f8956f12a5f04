"""A transaction a module-scoped fixture opens around data it builds once, rolled back
after the module (in the installation's own club): Django's own ``TestCase`` class transaction (``setUpClass`` opens it,
``tearDownClass`` rolls it back, as pytest-django does for each test), so services that
insist on being the outermost transaction (``atomic(durable=True)``) treat it as the test
case's own."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, transaction
from django.test import TestCase


@contextmanager
def rolled_back(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    if transaction.get_connection(using).in_atomic_block:
        # tearDownClass closes the connection, which would end a test's own transaction.
        raise RuntimeError("rolled_back() is for module-scoped fixtures, outside a test")
    from members.clubs.context import club_context
    from members.clubs.memo import forget_home_club, home_club

    class ModuleData(TestCase):
        databases = {using}

    ModuleData.setUpClass()
    try:
        forget_home_club()
        # The data is the installation's own club's, as a test's that names it
        # (``in_home_club``, tests/conftest.py).
        with club_context(home_club()):
            yield
    finally:
        ModuleData.tearDownClass()
        ModuleData.doClassCleanups()
        forget_home_club()
        # The demo restored from its copy (tests/demo_snapshot.py) brings the copy's
        # content types; after the rollback the table's own are back.
        from django.contrib.contenttypes.models import ContentType

        ContentType.objects.clear_cache()


@contextmanager
def in_home_club() -> Iterator[None]:
    """Data a module-scoped fixture builds: the installation's own club's, as the data of a
    test that names it (the ``in_home_club`` fixture, tests/conftest.py)."""
    from members.clubs.context import club_context
    from members.clubs.memo import forget_home_club, home_club

    forget_home_club()
    with club_context(home_club()):
        yield
    forget_home_club()
