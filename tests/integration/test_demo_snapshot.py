"""The demo club restored from its copy (tests/demo_snapshot.py) is the demo club built
through the services, and a test's changes to it are gone in the next test."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from competition.demo import build_demo
from competition.models import Game, Player, Standing
from members.models import User
from tests import demo_snapshot
from tests.approle import as_owner
from tests.decoy import ensure_decoy
from tests.demo_snapshot import demo_season

pytestmark = [pytest.mark.postgres("the demo's copy is PostgreSQL's COPY"), pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("in_home_club")]

TODAY = dt.date(2026, 11, 30)
INTRUDER = "indringer@demo.club"


def row_counts() -> dict[str, int]:
    """Every table's rows, every club's (the owner counts: the copy is the whole database)."""
    with as_owner(), connection.cursor() as cursor:
        tables = demo_snapshot._tables(cursor)
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def standings(season) -> list[tuple]:
    """The current season's standings rows, by what they say (not by their ids)."""
    return list(
        Standing.objects.filter(snapshot__half__season=season)
        .order_by("snapshot__half__kind", "snapshot__evening__date", "rank", "player__member__email")
        .values_list("snapshot__half__kind", "snapshot__evening__date", "player__member__email",
                     "rank", "score_exact", "points", "games", "won", "drawn", "lost",
                     "byes", "absent_with_notice", "absent_without_notice", "club_duty")
    )


def test_a_restored_demo_has_the_rows_and_standings_of_a_freshly_built_one():
    demo_season(TODAY)  # built here or by an earlier test of this process: copied either way
    restored = demo_season(TODAY)  # restored from the copy
    restored_counts, restored_standings = row_counts(), standings(restored)
    assert restored_counts["competition_standing"] > 0 and restored_standings

    with as_owner():  # the owner's, as a transactional test's flush is pytest-django's
        call_command("flush", interactive=False, verbosity=0)  # as after a transactional test
    from tests.transactions import in_home_club

    with in_home_club():  # the flush took the club too: the installation's own, made anew
        ensure_decoy()  # and the decoy club, built before the demo as at the start
        fresh = build_demo(today=TODAY)
        assert row_counts() == restored_counts
        assert standings(fresh) == restored_standings
    assert (fresh.start_date, fresh.end_date) == (restored.start_date, restored.end_date)


def test_a_restored_demo_keeps_its_ids_and_leaves_the_checks_on():
    season = demo_season(TODAY)
    snapshot = demo_snapshot._snapshots[TODAY, timezone.localdate()]
    assert season.pk == snapshot.season_pk
    with connection.cursor() as cursor:
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"
        for sequence, last_value, is_called in snapshot.sequences:
            cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
            current, called = cursor.fetchone()
            assert current >= last_value and (called or not is_called), sequence
    # The content types are those of the copy, not of the flush before it.
    user_type = ContentType.objects.get_for_model(User)
    assert ContentType.objects.filter(pk=user_type.pk, model="user").exists()
    # Foreign keys are checked again: one to nothing is refused.
    player = Player.objects.filter(season=season).first()
    assert player is not None
    with pytest.raises(Exception, match="foreign key"):
        Player.objects.filter(pk=player.pk).update(member_id=10**9)


def test_a_test_changes_the_demo(demo_counts):
    season = demo_season(TODAY)
    User.objects.create(email=INTRUDER, name="Iris Indringer")
    Game.objects.filter(evening__season=season).delete()
    assert not Game.objects.filter(evening__season=season).exists()


def test_the_next_test_finds_the_demo_as_built(demo_counts):
    season = demo_season(TODAY)
    assert not User.objects.filter(email=INTRUDER).exists()
    assert Game.objects.filter(evening__season=season).exists()
    assert row_counts() == demo_counts


@pytest.fixture(scope="module")
def demo_counts(django_db_setup, django_db_blocker) -> dict[str, int]:
    """The row counts of the copy itself."""
    from tests.transactions import in_home_club

    snapshot_counts = {}
    with django_db_blocker.unblock(), in_home_club():  # the demo is the installation's club's
        demo_season(TODAY)
        snapshot = demo_snapshot._snapshots[TODAY, timezone.localdate()]
        for table, data in snapshot.tables:
            snapshot_counts[table] = data.count(b"\n")
        with as_owner():
            call_command("flush", interactive=False, verbosity=0)
    return snapshot_counts
