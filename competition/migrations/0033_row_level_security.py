"""PostgreSQL row-level security on every club-owned table (members/clubs/rls.py).

Each table either has a ``club_id`` of its own (Season; the root rows with a ``club``) or
gets a denormalised one, kept by a trigger from its parent row (the trigger functions run
as the tables' owner, so they see the parent whatever the connection's club), filled in
for the rows there are, indexed; then one policy per table. Parents come before their
children. Nothing happens on SQLite (no row security there; the club scoping in the
application is the same on both).
"""

from django.db import migrations

# table -> (its column pointing at the parent, the parent table); parents first.
PARENTS = {
    "competition_competition": ("season_id", "competition_season"),
    "competition_half": ("season_id", "competition_season"),
    "competition_evening": ("season_id", "competition_season"),
    "competition_player": ("season_id", "competition_season"),
    "competition_standingsstate": ("season_id", "competition_season"),
    "competition_swissevent": ("season_id", "competition_season"),
    "competition_prize": ("season_id", "competition_season"),
    "competition_playoffbracket": ("season_id", "competition_season"),
    "competition_registration": ("evening_id", "competition_evening"),
    "competition_clubdutyrequest": ("evening_id", "competition_evening"),
    "competition_game": ("evening_id", "competition_evening"),
    "competition_bye": ("evening_id", "competition_evening"),
    "pairing_pairingnotice": ("evening_id", "competition_evening"),
    "competition_standingssnapshot": ("half_id", "competition_half"),
    "competition_eligibilityoverride": ("half_id", "competition_half"),
    "competition_standing": ("snapshot_id", "competition_standingssnapshot"),
    "competition_swissentrant": ("event_id", "competition_swissevent"),
    "competition_swissround": ("event_id", "competition_swissevent"),
    "competition_swissgame": ("round_id", "competition_swissround"),
    "competition_playoffresult": ("bracket_id", "competition_playoffbracket"),
    "competition_playoffdate": ("bracket_id", "competition_playoffbracket"),
}
# Tables with a club column of their own.
NATIVE = ("competition_season", "competition_auditrecord", "competition_ratingimport",
          "competition_clubwebsite")

POLICY = (
    "club_id = NULLIF(current_setting('ranglijst.club_id', true), '')::bigint "
    "OR current_setting('ranglijst.all_clubs', true) = 'on'"
)


def _has_club_column(cursor, table: str) -> bool:
    cursor.execute(
        "SELECT 1 FROM information_schema.columns WHERE table_name = %s AND column_name = 'club_id'",
        [table],
    )
    return cursor.fetchone() is not None


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for table, (column, parent) in PARENTS.items():
            function = f"{table}_club"
            cursor.execute(f'ALTER TABLE "{table}" ADD COLUMN IF NOT EXISTS club_id bigint')
            cursor.execute(
                f'UPDATE "{table}" AS t SET club_id = p.club_id FROM "{parent}" AS p '
                f'WHERE p.id = t."{column}"'
            )
            cursor.execute(f'CREATE INDEX IF NOT EXISTS "{table}_club_id" ON "{table}" (club_id)')
            cursor.execute(f"""
                CREATE OR REPLACE FUNCTION "{function}"() RETURNS trigger
                LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
                BEGIN
                    SELECT club_id INTO NEW.club_id FROM "{parent}" WHERE id = NEW."{column}";
                    RETURN NEW;
                END $$""")
            cursor.execute(f'DROP TRIGGER IF EXISTS "{function}" ON "{table}"')
            cursor.execute(
                f'CREATE TRIGGER "{function}" BEFORE INSERT OR UPDATE OF "{column}" ON "{table}" '
                f'FOR EACH ROW EXECUTE FUNCTION "{function}"()'
            )
        for table in [*NATIVE, *PARENTS]:
            if not _has_club_column(cursor, table):
                continue  # a root row whose club column has not come yet: its migration adds the policy
            cursor.execute(f'ALTER TABLE "{table}" ENABLE ROW LEVEL SECURITY')
            cursor.execute(f'DROP POLICY IF EXISTS club_rows ON "{table}"')
            cursor.execute(
                f'CREATE POLICY club_rows ON "{table}" USING ({POLICY}) WITH CHECK ({POLICY})'
            )


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for table in [*NATIVE, *PARENTS]:
            cursor.execute(f'DROP POLICY IF EXISTS club_rows ON "{table}"')
            cursor.execute(f'ALTER TABLE "{table}" DISABLE ROW LEVEL SECURITY')
        for table in PARENTS:
            cursor.execute(f'DROP TRIGGER IF EXISTS "{table}_club" ON "{table}"')
            cursor.execute(f'DROP FUNCTION IF EXISTS "{table}_club"()')
            cursor.execute(f'ALTER TABLE "{table}" DROP COLUMN IF EXISTS club_id')


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0032_club_labels"),
        ("pairing", "0006_labels_given_as_translations"),
    ]

    operations = [migrations.RunPython(forward, backward)]
