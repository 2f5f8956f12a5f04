"""A player sits in at most one game (or the bye) of an evening.

Unique constraints cover "white twice" and "black twice"; "white in one game and black in
another" spans two columns, so a trigger refuses it, on SQLite and PostgreSQL alike.
"""

from django.db import migrations

SQLITE = [
    """
    CREATE TRIGGER competition_game_player_once_ins BEFORE INSERT ON competition_game
    WHEN EXISTS (SELECT 1 FROM competition_game g WHERE g.evening_id = NEW.evening_id
                 AND (g.white_id IN (NEW.white_id, NEW.black_id)
                      OR g.black_id IN (NEW.white_id, NEW.black_id)))
      OR EXISTS (SELECT 1 FROM competition_bye b WHERE b.evening_id = NEW.evening_id
                 AND b.player_id IN (NEW.white_id, NEW.black_id))
    BEGIN SELECT RAISE(ABORT, 'player_in_two_games'); END
    """,
    """
    CREATE TRIGGER competition_game_player_once_upd BEFORE UPDATE ON competition_game
    WHEN EXISTS (SELECT 1 FROM competition_game g WHERE g.evening_id = NEW.evening_id
                 AND g.id <> NEW.id
                 AND (g.white_id IN (NEW.white_id, NEW.black_id)
                      OR g.black_id IN (NEW.white_id, NEW.black_id)))
      OR EXISTS (SELECT 1 FROM competition_bye b WHERE b.evening_id = NEW.evening_id
                 AND b.player_id IN (NEW.white_id, NEW.black_id))
    BEGIN SELECT RAISE(ABORT, 'player_in_two_games'); END
    """,
    """
    CREATE TRIGGER competition_bye_player_once_ins BEFORE INSERT ON competition_bye
    WHEN EXISTS (SELECT 1 FROM competition_game g WHERE g.evening_id = NEW.evening_id
                 AND NEW.player_id IN (g.white_id, g.black_id))
    BEGIN SELECT RAISE(ABORT, 'player_in_two_games'); END
    """,
    """
    CREATE TRIGGER competition_bye_player_once_upd BEFORE UPDATE ON competition_bye
    WHEN EXISTS (SELECT 1 FROM competition_game g WHERE g.evening_id = NEW.evening_id
                 AND NEW.player_id IN (g.white_id, g.black_id))
    BEGIN SELECT RAISE(ABORT, 'player_in_two_games'); END
    """,
]
SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS {name}"
    for name in (
        "competition_game_player_once_ins",
        "competition_game_player_once_upd",
        "competition_bye_player_once_ins",
        "competition_bye_player_once_upd",
    )
]

POSTGRES = [
    """
    CREATE OR REPLACE FUNCTION competition_game_player_once() RETURNS trigger AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM competition_game g WHERE g.evening_id = NEW.evening_id
                 AND g.id <> NEW.id
                 AND (g.white_id IN (NEW.white_id, NEW.black_id)
                      OR g.black_id IN (NEW.white_id, NEW.black_id)))
         OR EXISTS (SELECT 1 FROM competition_bye b WHERE b.evening_id = NEW.evening_id
                    AND b.player_id IN (NEW.white_id, NEW.black_id)) THEN
        RAISE EXCEPTION 'player_in_two_games' USING ERRCODE = 'unique_violation';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER competition_game_player_once BEFORE INSERT OR UPDATE ON competition_game
    FOR EACH ROW EXECUTE FUNCTION competition_game_player_once()
    """,
    """
    CREATE OR REPLACE FUNCTION competition_bye_player_once() RETURNS trigger AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM competition_game g WHERE g.evening_id = NEW.evening_id
                 AND NEW.player_id IN (g.white_id, g.black_id)) THEN
        RAISE EXCEPTION 'player_in_two_games' USING ERRCODE = 'unique_violation';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER competition_bye_player_once BEFORE INSERT OR UPDATE ON competition_bye
    FOR EACH ROW EXECUTE FUNCTION competition_bye_player_once()
    """,
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS competition_game_player_once ON competition_game",
    "DROP FUNCTION IF EXISTS competition_game_player_once()",
    "DROP TRIGGER IF EXISTS competition_bye_player_once ON competition_bye",
    "DROP FUNCTION IF EXISTS competition_bye_player_once()",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        statements = statements_by_vendor.get(schema_editor.connection.vendor)
        if statements is None:
            raise RuntimeError(
                f"No trigger for database {schema_editor.connection.vendor}; "
                "use SQLite or PostgreSQL."
            )
        for sql in statements:
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("competition", "0002_initial")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE, "postgresql": POSTGRES}),
            _run({"sqlite": SQLITE_DROP, "postgresql": POSTGRES_DROP}),
        )
    ]
