"""Row-level security, derived from the one declaration of how a row finds its club: the
path of its model's scoped manager (``core.tenancy.scoping.ScopedManager(club=path)``).

A club-scoped table either has a ``club_id`` of its own (the path is ``club``) or gets a
denormalised copy, kept by a trigger from the parent row its path's first step names
(migration ``competition.0033_row_level_security``); each has one policy: the row's club
is the connection's ``ranglijst.club_id``, or ``ranglijst.all_clubs`` is on (members/clubs/rls.py).
``club_tables`` says what the declaration asks for (the tests compare it with the
database); ``enable`` is the migration helper a new club-scoped table's migration calls
(docs/architecture.md, "Where a change goes")."""

from __future__ import annotations

from typing import Any, NamedTuple

CLUB_POLICY = (
    "club_id = NULLIF(current_setting('ranglijst.club_id', true), '')::bigint "
    "OR current_setting('ranglijst.all_clubs', true) = 'on'"
)
# A table whose rows may also be the platform's own (club empty, ``platform_rows``):
# those are seen by a connection in no club too, never by a club's.
PLATFORM_ROWS = " OR (club_id IS NULL AND COALESCE(current_setting('ranglijst.club_id', true), '') = '')"


class ClubTable(NamedTuple):
    table: str
    column: str | None  # the column to the parent row; None: a club column of its own
    parent: str | None  # the parent's table
    platform_rows: bool


def club_tables(models: Any) -> dict[str, ClubTable]:
    """Every club-scoped table of ``models`` (an iterable of model classes), by name, as
    its manager declares it."""
    from core.tenancy.scoping import club_path

    found = {}
    for model in models:
        path = club_path(model)
        if path is None or model._meta.proxy or not model._meta.managed:
            continue
        first = path.split("__", 1)[0]
        platform_rows = bool(getattr(model._default_manager, "_platform_rows", False))
        table = model._meta.db_table
        if first == "club":
            found[table] = ClubTable(table, None, None, platform_rows)
        else:
            field = model._meta.get_field(first)
            found[table] = ClubTable(table, field.column, field.related_model._meta.db_table,
                                     platform_rows)
    return found


def enable(cursor: Any, table: str, *, column: str | None = None, parent: str | None = None,
           platform_rows: bool = False) -> None:
    """For a migration: ``table``'s club column (a trigger's copy of ``parent``'s, through
    ``column``, when it has none of its own) and its policy. PostgreSQL only."""
    if column is not None:
        function = f"{table}_club"
        cursor.execute(f'ALTER TABLE "{table}" ADD COLUMN IF NOT EXISTS club_id bigint')
        cursor.execute(f'UPDATE "{table}" AS t SET club_id = p.club_id FROM "{parent}" AS p '
                       f'WHERE p.id = t."{column}"')
        cursor.execute(f'CREATE INDEX IF NOT EXISTS "{table}_club_id" ON "{table}" (club_id)')
        cursor.execute(f"""
            CREATE OR REPLACE FUNCTION "{function}"() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                SELECT club_id INTO NEW.club_id FROM "{parent}" WHERE id = NEW."{column}";
                RETURN NEW;
            END $$""")
        cursor.execute(f'DROP TRIGGER IF EXISTS "{function}" ON "{table}"')
        cursor.execute(f'CREATE TRIGGER "{function}" BEFORE INSERT OR UPDATE OF "{column}" '
                       f'ON "{table}" FOR EACH ROW EXECUTE FUNCTION "{function}"()')
    policy = CLUB_POLICY + (PLATFORM_ROWS if platform_rows else "")
    cursor.execute(f'ALTER TABLE "{table}" ENABLE ROW LEVEL SECURITY')
    cursor.execute(f'DROP POLICY IF EXISTS club_rows ON "{table}"')
    cursor.execute(f'CREATE POLICY club_rows ON "{table}" USING ({policy}) WITH CHECK ({policy})')


def disable(cursor: Any, table: str, *, column: str | None = None) -> None:
    """``enable`` undone (a migration's way back)."""
    cursor.execute(f'DROP POLICY IF EXISTS club_rows ON "{table}"')
    cursor.execute(f'ALTER TABLE "{table}" DISABLE ROW LEVEL SECURITY')
    if column is not None:
        cursor.execute(f'DROP TRIGGER IF EXISTS "{table}_club" ON "{table}"')
        cursor.execute(f'DROP FUNCTION IF EXISTS "{table}_club"()')
        cursor.execute(f'ALTER TABLE "{table}" DROP COLUMN IF EXISTS club_id')
