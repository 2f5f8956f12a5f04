"""The test suite as the application's database role (``RANGLIJST_TEST_AS_APP_ROLE=1``,
set by CI): the test database is created and migrated by the owner, as production's
``migrate`` is; then every connection of the test process takes a role that owns nothing
and bypasses no row-level security, as web, worker and beat do in production
(``manage.py database_app_role``). So the clubs' policies (members/clubs/rls.py) bind in
every test, not only in those that switch role themselves.

The role has what the application's role has (rows read and written, sequences used) and
one thing more: TRUNCATE, with which a transactional test's flush empties the tables
(TRUNCATE is not subject to row security; the application never truncates)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, connections
from django.db.backends.signals import connection_created

ENV = "RANGLIJST_TEST_AS_APP_ROLE"


def app_role_name() -> str:
    """One role per test database (the test processes share one PostgreSQL cluster)."""
    return f"{connection.settings_dict['NAME']}_app"[:63]


def wanted() -> bool:
    return os.environ.get(ENV) == "1" and connection.vendor == "postgresql"


def become_app_role() -> None:
    """Create the role (again) as the owner, then make every connection of this process
    take it: the one open now and every one opened later (a live server's threads)."""
    if not wanted():
        return
    role = app_role_name()
    with connection.cursor() as cursor:
        cursor.execute("RESET ROLE")
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE ROLE "{role}" NOLOGIN NOSUPERUSER NOBYPASSRLS')
        for statement in (
            f'GRANT USAGE ON SCHEMA public TO "{role}"',
            f'GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO "{role}"',
            f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "{role}"',
        ):
            cursor.execute(statement)
    connection_created.connect(_take_role, dispatch_uid="tests.approle")
    for conn in connections.all():
        if conn.connection is not None:
            _set_role(conn)


def _take_role(sender, connection, **kwargs) -> None:
    _set_role(connection)


def _set_role(conn) -> None:
    with conn.cursor() as cursor:
        cursor.execute(f'SET ROLE "{app_role_name()}"')


def current_role() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        return cursor.fetchone()[0]


def leave_app_role() -> None:
    """Back to the owner for the test database's teardown (only the owner drops it)."""
    if not wanted():
        return
    connection_created.disconnect(dispatch_uid="tests.approle")
    for conn in connections.all():
        if conn.connection is not None:
            with conn.cursor() as cursor:
                cursor.execute("RESET ROLE")


@contextmanager
def as_owner() -> Iterator[None]:
    """The owner's work inside a test (creating a role, as ``manage.py database_app_role``
    is run by the owner after ``migrate``); the test's own role after it. SQLite has no
    roles: there the test's connection is the owner, and this changes nothing."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        before = cursor.fetchone()[0]
        cursor.execute("RESET ROLE")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'SET ROLE "{before}"')
