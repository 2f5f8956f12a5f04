"""``manage.py database_app_role NAME``: the PostgreSQL role the application runs as.

Row-level security (members/clubs/rls.py) binds every role but the tables' owner, so web,
worker and beat must not connect as the owner: run this as the owner (after ``migrate``,
as docker-compose.yml's one-shot ``migrate`` service does) to create the role if it is
missing, set its password, and give it what the application needs and nothing more:
reading and writing rows, no owning, no schema changes, no exemption from the policies.
Running it again changes nothing but the password (idempotent)."""

from __future__ import annotations

import os
import re

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class Command(BaseCommand):
    help = "Create (or update) the PostgreSQL role web, worker and beat connect as."

    def add_arguments(self, parser):
        parser.add_argument("name", help="The role's name, e.g. ranglijst_app.")
        parser.add_argument("--password-env", default="APP_DB_PASSWORD",
                            help="The environment variable holding its password.")

    def handle(self, *args, name: str, password_env: str, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Row-level security needs PostgreSQL; DATABASE_URL points elsewhere.")
        if not NAME.match(name):
            raise CommandError(f"{name!r}: a role name has lower-case letters, digits and _.")
        password = os.environ.get(password_env, "")
        if not password:
            raise CommandError(f"Set {password_env} to the role's password.")
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            if cursor.fetchone()[0] == name:
                raise CommandError("Run this as the tables' owner, not as the application's role.")
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name])
            verb = "CREATE" if cursor.fetchone() is None else "ALTER"
            cursor.execute(
                f'{verb} ROLE "{name}" LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE '
                "PASSWORD %s", [password],
            )
            for statement in (
                f'GRANT USAGE ON SCHEMA public TO "{name}"',
                f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "{name}"',
                f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "{name}"',
                f'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE '
                f'ON TABLES TO "{name}"',
                f'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO "{name}"',
            ):
                cursor.execute(statement)
        self.stdout.write(f"Role {name}: {'created' if verb == 'CREATE' else 'updated'}; it reads and "
                          "writes rows under the clubs' row-level security.")
