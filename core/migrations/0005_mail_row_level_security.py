"""PostgreSQL row-level security on the outbox (core/tenancy/rowsecurity.py; the club tables'
policies are migration competition.0033_row_level_security): a club's mail (``club_id``)
is seen and written only in that club's work or the platform's (``ranglijst.all_clubs``);
a mail of no club (the platform's own: an e-mail address change asked on the platform's
pages) also by a connection in no club, never by a club's. Nothing happens on SQLite."""

from django.db import migrations

from core.tenancy import rowsecurity
TABLE = "core_mail"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        rowsecurity.enable(cursor, TABLE, platform_rows=True)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        rowsecurity.disable(cursor, TABLE)


class Migration(migrations.Migration):
    dependencies = [("core", "0004_mail_sender")]

    operations = [migrations.RunPython(forward, backward)]
