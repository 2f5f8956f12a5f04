"""A transaction a module-scoped fixture opens around data it builds once, rolled back
after the module: it plays the part of Django's ``TestCase.setUpClass`` transaction, so
services that insist on being the outermost transaction (``atomic(durable=True)``) treat
it as the test case's own, as Django does for ``TestCase``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, transaction


@contextmanager
def rolled_back(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    atomic = transaction.atomic(using=using)
    atomic._from_testcase = True  # type: ignore[attr-defined]  # as TestCase._enter_atomics
    try:
        with atomic:
            yield
            transaction.set_rollback(True, using=using)
    finally:
        # The demo restored from its copy (tests/demo_snapshot.py) brings the copy's
        # content types; after the rollback the table's own are back.
        from django.contrib.contenttypes.models import ContentType

        ContentType.objects.clear_cache()
