"""PostgreSQL row-level security on the outbox (members/rls.py; the club tables' policies
are migration competition.0033_row_level_security): a club's mail (``club_id``) is seen
and written only in that club's work or the platform's (``ranglijst.all_clubs``); a mail
of no club (the platform's own: an e-mail address change asked on the platform's pages)
also by a connection in no club, never by a club's. Nothing happens on SQLite."""

from django.db import migrations

TABLE = "core_mail"
POLICY = (
    "club_id = NULLIF(current_setting('ranglijst.club_id', true), '')::bigint "
    "OR current_setting('ranglijst.all_clubs', true) = 'on' "
    "OR (club_id IS NULL AND COALESCE(current_setting('ranglijst.club_id', true), '') = '')"
)


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f'ALTER TABLE "{TABLE}" ENABLE ROW LEVEL SECURITY')
        cursor.execute(f'DROP POLICY IF EXISTS club_rows ON "{TABLE}"')
        cursor.execute(f'CREATE POLICY club_rows ON "{TABLE}" USING ({POLICY}) WITH CHECK ({POLICY})')


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f'DROP POLICY IF EXISTS club_rows ON "{TABLE}"')
        cursor.execute(f'ALTER TABLE "{TABLE}" DISABLE ROW LEVEL SECURITY')


class Migration(migrations.Migration):
    dependencies = [("core", "0004_mail_sender")]

    operations = [migrations.RunPython(forward, backward)]
