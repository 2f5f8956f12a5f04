"""The demo club built once per test process (xdist worker) and per day, then restored.

``demo_season(today)`` builds the demo club through the services the first time a process
asks for that day, and keeps a copy of every table's rows (all tables of the database but
``django_migrations``, listed by the connection's introspection, so a new table needs no
edit here) and every sequence's value. Each later call restores that copy: on PostgreSQL
a DELETE of every table's rows, COPY of each table's rows back
with triggers and foreign-key checks off (``session_replication_role = replica``, the
rows are those a build left, columns kept by triggers included), and ``setval`` of each
sequence (never lower than it is). The database then holds what the build left, row for
row, with the same ids.

On SQLite (the developers' default) the demo is simply built each time: correct there,
fast where CI runs.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone


@dataclass(frozen=True)
class Snapshot:
    season_pk: int
    club_pk: int  # the club the demo was built in (the installation's own, then)
    tables: tuple[tuple[str, bytes], ...]
    sequences: tuple[tuple[str, int, bool], ...]


_snapshots: dict[tuple[dt.date, dt.date], Snapshot] = {}


def demo_season(today: dt.date):
    """The demo club on ``today`` in the test database; returns its current Season."""
    from competition.demo import build_demo
    from competition.models import Season

    if connection.vendor != "postgresql":
        return build_demo(today=today)
    # By the demo's day and the clock's: a build's rows carry the clock's time (created,
    # changed), and the browser tests set the clock to the demo's day where the
    # integration modules leave it as it is.
    key = (today, timezone.localdate())
    snapshot = _snapshots.get(key)
    if snapshot is None:
        season = build_demo(today=today)
        _snapshots[key] = take(season.pk)
        return season
    restore(snapshot)
    return Season.objects.get(pk=snapshot.season_pk)


def _tables(cursor) -> list[str]:
    return sorted(
        name for name in connection.introspection.table_names(cursor)
        if name != "django_migrations"
    )


def _sequences(cursor) -> list[str]:
    cursor.execute(
        "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind = 'S' AND n.nspname = current_schema() ORDER BY 1"
    )
    return [name for (name,) in cursor.fetchall()]


def take(season_pk: int) -> Snapshot:
    """Every table's rows (COPY, in PostgreSQL's text format) and every sequence's value,
    read by the owner (every club's rows, whatever the row security lets the suite's role
    see)."""
    from tests.approle import as_owner

    quote = connection.ops.quote_name
    tables = []
    sequences = []
    with as_owner(), connection.cursor() as cursor:
        raw = cursor.cursor
        for table in _tables(cursor):
            data = bytearray()
            with raw.copy(f"COPY {quote(table)} TO STDOUT") as copy:
                for chunk in copy:
                    data += chunk
            tables.append((table, bytes(data)))
        for sequence in _sequences(cursor):
            cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
            last_value, is_called = cursor.fetchone()
            sequences.append((sequence, last_value, is_called))
    with as_owner(), connection.cursor() as cursor:
        cursor.execute("SELECT club_id FROM competition_season WHERE id = %s", [season_pk])
        club_pk = cursor.fetchone()[0]
    return Snapshot(season_pk, club_pk, tuple(tables), tuple(sequences))


def _same_club(cursor, tables: list[str], copied: int) -> None:
    """The test runs in the installation's club of now (``in_home_club``), which a flush
    since the build made anew under another id: the copy's club takes that id, in every
    club column (triggers and foreign-key checks are off here), so the test's club is the
    demo's."""
    from core.tenancy.context import current_club

    club = current_club()
    if club is None or club.pk == copied:
        return
    quote = connection.ops.quote_name
    for table in tables:
        columns = {c.name for c in connection.introspection.get_table_description(cursor, table)}
        if "club_id" in columns:
            cursor.execute(f"UPDATE {quote(table)} SET club_id = %s WHERE club_id = %s", [club.pk, copied])
    cursor.execute("UPDATE members_club SET id = %s WHERE id = %s", [club.pk, copied])


def restore(snapshot: Snapshot) -> None:
    """The database as the snapshot found it: tables emptied, rows copied back, sequences
    set, in one transaction; then the caches that remember ids or pages are told."""
    from django.contrib.contenttypes.models import ContentType

    from core import pagecache
    from tests.approle import as_owner

    quote = connection.ops.quote_name
    # The copy is put back by the owner (triggers off, COPY, sequences set: an owner's
    # work, as a restore of the database's own files would be); the test then reads and
    # writes it as the suite's role (tests/approle.py).
    with transaction.atomic(), as_owner(), connection.cursor() as cursor:
        raw = cursor.cursor
        tables = _tables(cursor)
        # Not SET LOCAL: inside a module's transaction (tests/transactions.py) this is a
        # savepoint, and LOCAL would last to that transaction's end.
        cursor.execute("SET session_replication_role = replica")
        # DELETE rather than TRUNCATE: after the flush of the test before, the tables hold
        # a few rows (post_migrate's), and TRUNCATE's new files for 40 tables and their
        # indexes cost seconds where deleting costs milliseconds; nor does DELETE lock
        # other connections out of the tables.
        for table in tables:
            cursor.execute(f"DELETE FROM {quote(table)}")
        for table, data in snapshot.tables:
            if data:
                with raw.copy(f"COPY {quote(table)} FROM STDIN") as copy:
                    copy.write(data)
        # A sequence never goes back (setval is not undone by a rollback, and a module's
        # demo is rolled back onto the rows from before it): the copy's value, or the
        # current one when that is higher.
        _same_club(cursor, tables, snapshot.club_pk)
        for sequence, last_value, is_called in snapshot.sequences:
            cursor.execute(
                f"SELECT setval(%s, GREATEST(%s, (SELECT last_value FROM {sequence})), "
                f"%s OR (SELECT is_called FROM {sequence}))",
                [sequence, last_value, is_called],
            )
        cursor.execute("SET session_replication_role = origin")
    # The content types came back with the build's ids, not those the flush's
    # post_migrate gave them; and the pages cached for the previous test's data go.
    ContentType.objects.clear_cache()
    pagecache.pages_changed()
