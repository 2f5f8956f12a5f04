"""The one declaration of how a row finds its club (each club-scoped model's scoped
manager, core.tenancy.scoping) is what the database holds: every club-scoped table has its club
column and its policy (core/tenancy/rowsecurity.py), and the security migration's table of
parents is the declaration's."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection

from core.tenancy import rowsecurity

pytestmark = [pytest.mark.django_db, pytest.mark.postgres("the row security's policies")]
rls_migration = importlib.import_module("competition.migrations.0033_row_level_security")


def test_every_club_scoped_table_has_its_club_column_and_policy():
    declared = rowsecurity.club_tables(apps.get_models())
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_policy p ON p.polrelid = c.oid "
            "WHERE c.relrowsecurity AND p.polname = 'club_rows'")
        guarded = {row[0] for row in cursor.fetchall()}
        cursor.execute("SELECT table_name FROM information_schema.columns WHERE column_name = 'club_id'")
        with_club = {row[0] for row in cursor.fetchall()}
    assert set(declared) - guarded == set(), "a club-scoped table without row security"
    assert set(declared) <= with_club
    assert guarded - set(declared) == set(), "a policy on a table no model declares"


def test_the_security_migrations_parents_are_the_declarations():
    declared = rowsecurity.club_tables(apps.get_models())
    parents = {t.table: (t.column, t.parent) for t in declared.values() if t.column}
    assert parents == rls_migration.PARENTS
    assert {t.table for t in declared.values() if t.column is None} == {
        *rls_migration.NATIVE, "core_mail"}
    assert [t.table for t in declared.values() if t.platform_rows] == ["core_mail"]
