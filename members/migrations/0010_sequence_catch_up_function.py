"""``ranglijst_sequence_catch_up(table, column)``: a table's id sequence moved up to its
highest id, and never down or further (PostgreSQL only).

A restore inserts rows under the ids of its copy and must then move each sequence past
them (competition/management/clubcopy.py). ``setval`` needs UPDATE on the sequence, which
the application's role does not have (``manage.py database_app_role``: USAGE and SELECT,
enough for new rows): this function, owned by the tables' owner (SECURITY DEFINER), does
that one thing for it, so the role needs no right to set a sequence anywhere else."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION ranglijst_sequence_catch_up(tab regclass, col text)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    seq text := pg_get_serial_sequence(tab::text, col);
    top bigint;
    at bigint;
BEGIN
    IF seq IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT max(%I) FROM %s', col, tab) INTO top;
    EXECUTE format('SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM %s', seq)
        INTO at;
    IF top IS NOT NULL AND top > at THEN
        PERFORM setval(seq, top);
        RETURN top;
    END IF;
    RETURN at;
END
$$;
"""
DROP = "DROP FUNCTION IF EXISTS ranglijst_sequence_catch_up(regclass, text);"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)  # no placeholders: its % are format()'s


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("members", "0009_club_time_zone_is_an_iana_zone")]

    operations = [migrations.RunPython(create, drop)]
