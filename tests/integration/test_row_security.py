"""PostgreSQL row-level security, the backstop behind the club scoping (members/clubs/rls.py,
migration competition 0033): as a role that does not own the tables, a connection sees
and writes only the rows of the club of the work in hand; with no club, none; the
platform's own work sees all. Superusers (the test's own connection) are exempt, so each
test switches to such a role with ``SET ROLE`` inside its transaction."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import DatabaseError, connection, transaction

from competition.models import Evening, Game, Player, Registration, Season, Standing
from members.clubs.context import club_context, platform_context
from members.models import Club
from tests import factories as f
from tests.decoy import decoy
from tests.integration.conftest import app_role

pytestmark = [pytest.mark.django_db, pytest.mark.postgres("row-level security")]
ROLE = "ranglijst_rls_probe"
rls_migration = importlib.import_module("competition.migrations.0033_row_level_security")


@pytest.fixture
def two_clubs():
    """Club A and a decoy club B with the same season name, dates and player names."""
    a = Club.objects.create(name="Club A", slug="club-a")
    b = Club.objects.create(name="Club B", slug="club-b")
    seasons = {}
    from pairing.services import evening_pair_and_publish

    for club in (a, b):
        with club_context(club):
            season = f.season(players=6, club=club)
            evening = f.playing_evenings(season)[0]
            evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True,
                                     now=evening.deadline)
        seasons[club.slug] = season
    return a, b, seasons


@pytest.fixture
def as_app_role():
    """The connection as a role that owns nothing (as production's application role)."""
    with app_role(ROLE):
        yield


MODELS = (Season, Evening, Player, Game, Registration, Standing)


def _counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def test_a_club_sees_only_its_own_rows_in_every_table(two_clubs, as_app_role):
    a, b, seasons = two_clubs
    with platform_context():
        everything = _counts()
    assert everything["Season"] == 3 and everything["Game"] > 0
    with club_context(a):
        mine = _counts()
        assert set(Season.objects.values_list("club_id", flat=True)) == {a.pk}
        assert not Evening.objects.filter(season=seasons["club-b"]).exists()
    with club_context(b):
        theirs = _counts()
    with club_context(decoy()):  # the decoy club of every test (tests/decoy.py)
        third = _counts()
    assert {k: mine[k] + theirs[k] + third[k] for k in mine} == everything
    assert all(mine[k] > 0 for k in ("Season", "Evening", "Player", "Game"))
    # Straight SQL is no way round it either.
    with club_context(a), connection.cursor() as cursor:
        for table in [*rls_migration.PARENTS, "competition_season"]:
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE club_id IS DISTINCT FROM %s', [a.pk])
            assert cursor.fetchone()[0] == 0, table


def test_with_no_club_the_connection_sees_no_club_rows(two_clubs, as_app_role):
    # No club, and past the application's scoping (each model's base manager): the
    # database alone answers, with nothing.
    with club_context(None):
        counts = {model.__name__: model._base_manager.count() for model in MODELS}
    assert counts == dict.fromkeys(counts, 0)


def test_a_club_cannot_write_a_row_into_another_clubs_season(two_clubs, as_app_role):
    a, b, seasons = two_clubs
    with platform_context():
        player_b = Player.objects.filter(season=seasons["club-b"]).first()
        evening_b = Evening.objects.filter(season=seasons["club-b"], kind="playing").last()
    with club_context(a), pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
        Registration.objects.create(evening=evening_b, player=player_b, status="present")
    with platform_context():
        assert not Registration.objects.filter(evening=evening_b, player=player_b).exists()


def test_the_recalculation_writes_its_rows_as_the_app_role_and_only_in_its_own_club(two_clubs, as_app_role):
    """The recalculation reads the season's rows without the club's filter on top and writes
    a snapshot's rows in one statement of its own (competition/season/standings.py): the
    policies still bind both, so club A's work writes A's standings and cannot put a row
    into B's snapshot."""
    from competition.models import StandingsSnapshot
    from competition.season import standings

    a, b, seasons = two_clubs
    for club in (a, b):
        with club_context(club):
            Game.objects.filter(evening__season=seasons[club.slug]).update(result="1-0")
            assert standings.recalculate_season(seasons[club.slug].pk) == 1
            assert standings.standings_current(seasons[club.slug].pk)
    with club_context(a):
        row = Standing.objects.filter(snapshot__half__season=seasons["club-a"]).values(
            "player_id", "rank", "score", "score_exact", "explanation").first()
    with platform_context():
        theirs = StandingsSnapshot.objects.get(half__season=seasons["club-b"])
        before = Standing.objects.filter(snapshot=theirs).count()
    with club_context(a), pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
        rows = [dict(row, rank=99, score=str(row["score"]))]  # as stored: decimals as text
        standings._insert_standings(theirs.pk, rows, standings._rows_json(rows))
    with platform_context():
        assert Standing.objects.filter(snapshot=theirs).count() == before


def test_the_denormalised_club_follows_the_parent_row(two_clubs):
    a, b, seasons = two_clubs
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT s.club_id FROM competition_standing s JOIN competition_standingssnapshot n "
            "ON n.id = s.snapshot_id JOIN competition_half h ON h.id = n.half_id "
            "JOIN competition_season se ON se.id = h.season_id WHERE s.club_id <> se.club_id"
        )
        assert cursor.fetchall() == []
        cursor.execute("SELECT count(*) FROM competition_game WHERE club_id IS NULL")
        assert cursor.fetchone()[0] == 0


def test_every_club_owned_table_has_its_policy():
    """A new model in competition or pairing must say how its rows find their club."""
    tables = {m._meta.db_table for app in ("competition", "pairing")
              for m in apps.get_app_config(app).get_models()}
    covered = set(rls_migration.PARENTS) | set(rls_migration.NATIVE)
    assert tables <= covered, sorted(tables - covered)
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_policies WHERE policyname = 'club_rows'")
        with_policy = {row[0] for row in cursor.fetchall()}
    with_club_column = {t for t in covered if rls_migration._has_club_column(connection.cursor(), t)}
    assert with_club_column <= with_policy and set(rls_migration.PARENTS) <= with_policy


def test_the_app_role_command_makes_a_role_bound_by_the_policies(monkeypatch):
    from io import StringIO

    from django.core.management import CommandError, call_command

    from tests.approle import as_owner

    monkeypatch.setenv("APP_DB_PASSWORD", "letters0and0digits")
    out = StringIO()
    with as_owner():  # as production runs it: the owner, after migrate
        call_command("database_app_role", "ranglijst_probe_app", stdout=out)
        call_command("database_app_role", "ranglijst_probe_app", stdout=out)  # again: no harm
    assert "created" in out.getvalue() and "updated" in out.getvalue()
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = %s",
                       ["ranglijst_probe_app"])
        assert cursor.fetchone() == (False, False, True)
        cursor.execute("SELECT has_table_privilege('ranglijst_probe_app', 'competition_game', 'INSERT'), "
                       "has_table_privilege('ranglijst_probe_app', 'competition_game', 'TRUNCATE')")
        assert cursor.fetchone() == (True, False)
    with pytest.raises(CommandError, match="lower-case"):
        call_command("database_app_role", "Bad-Name", stdout=StringIO())
    monkeypatch.delenv("APP_DB_PASSWORD")
    with pytest.raises(CommandError, match="APP_DB_PASSWORD"):
        call_command("database_app_role", "ranglijst_probe_app", stdout=StringIO())


def _setting() -> str:
    with connection.cursor() as cursor:  # the guard runs before this query too
        cursor.execute("SELECT current_setting('ranglijst.club_id', true)")
        return cursor.fetchone()[0] or ""


def _count_sets(monkeypatch) -> list[str]:
    """The club settings the guard sends to the raw connection, as they are sent."""
    connection.ensure_connection()
    raw = connection.connection
    sent: list[str] = []
    original = raw.execute

    def execute(query, params=None, *args, **kwargs):
        if "set_config" in str(query):
            sent.append(params[1])
        return original(query, params, *args, **kwargs)

    monkeypatch.setattr(raw, "execute", execute)
    return sent


def test_one_transaction_sets_the_club_once_not_before_every_query(two_clubs, monkeypatch):
    a, b, _seasons = two_clubs
    sent = _count_sets(monkeypatch)
    with club_context(a), transaction.atomic():
        for _ in range(5):
            list(Season.objects.values_list("pk", flat=True))
        assert _setting() == str(a.pk)
    assert sent == [str(a.pk)]
    with club_context(b), transaction.atomic():
        assert _setting() == str(b.pk)
        with club_context(a):
            assert _setting() == str(a.pk)
        assert _setting() == str(b.pk)
    assert sent == [str(a.pk), str(b.pk), str(a.pk), str(b.pk)]


def test_a_setting_rolled_back_with_its_savepoint_is_set_again(two_clubs, monkeypatch):
    """PostgreSQL reverts a set_config made under a savepoint that is rolled back; the
    guard must then set it again, or the next query would run as the wrong club."""
    a, b, _seasons = two_clubs
    sent = _count_sets(monkeypatch)
    with club_context(a), transaction.atomic():
        assert _setting() == str(a.pk)
        inner = transaction.atomic()
        inner.__enter__()  # the savepoint made as A
        with club_context(b):
            assert _setting() == str(b.pk)  # B set under the savepoint
            inner.__exit__(RuntimeError, RuntimeError("rolled back"), None)  # still as B
            # PostgreSQL has A again, so B is set anew before the next query.
            assert _setting() == str(b.pk)
        assert _setting() == str(a.pk)
    assert sent == [str(a.pk), str(b.pk), str(b.pk), str(a.pk)]


def test_a_row_whose_club_the_row_security_hides_is_refused_not_an_error(two_clubs, as_app_role):
    """The permission check finds a row's club through its parents (core/permissions.py,
    ``club_of``); in club A's work a parent of club B's row is hidden: the check refuses,
    as for any other club, and never stops with "does not exist"."""
    from django.core.exceptions import PermissionDenied

    from core.permissions import Perm, require

    a, b, seasons = two_clubs
    with club_context(a):
        arbiter = f.arbiter(a)
    with club_context(b):
        game_b = Game.objects.select_related("evening").filter(evening__season=seasons["club-b"]).first()
    with club_context(a), pytest.raises(PermissionDenied):
        require(arbiter, Perm.ENTER_RESULTS, of=game_b)


def test_ci_runs_every_test_as_a_role_the_row_security_binds():
    """CI asks for it (.ci/run); where asked, this test's connection is that role: no
    superuser, no exemption from the policies, owner of no table."""
    from pathlib import Path

    from django.conf import settings

    from tests import approle

    assert "export RANGLIJST_TEST_AS_APP_ROLE=1" in (Path(settings.BASE_DIR) / ".ci" / "run").read_text()
    if not approle.wanted():
        return  # a developer's run as the owner: test_row_security's own SET ROLE tests still bind
    assert approle.current_role() == approle.app_role_name()
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (False, False)
        cursor.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user")
        assert cursor.fetchone()[0] == 0
