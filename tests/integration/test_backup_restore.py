"""`backup` writes a complete club; `restore` loads it into an empty database with
identical standings."""

import datetime as dt

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError

from competition.demo import build_demo
from competition.models import AuditAction, AuditRecord, Game, Season, Standing
from members.models import User
from tests import factories as f


def _standings():
    return sorted(
        Standing.objects.values_list(
            "snapshot__half__kind", "snapshot__evening__date", "player__member__email",
            "rank", "score", "value",
        )
    )


def _wipe():
    """An empty, migrated database: what a new server has before the restore."""
    call_command("flush", interactive=False, verbosity=0)
    assert not Season.objects.exists() and not AuditRecord.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_into_an_empty_database_gives_identical_standings(tmp_path):
    build_demo(today=dt.date(2026, 11, 30))
    before = _standings()
    games = sorted(Game.objects.values_list("evening__date", "board", "result"))
    path = tmp_path / "club.json.gz"
    call_command("backup", str(path))
    _wipe()
    assert not Standing.objects.exists()
    call_command("restore", str(path))
    assert _standings() == before
    assert sorted(Game.objects.values_list("evening__date", "board", "result")) == games
    user = User.objects.get(email="speler1@demo.club")
    assert user.check_password("schaken123")
    assert user.memberships.filter(role="player").exists()  # his role in the club


@pytest.mark.django_db
def test_restore_refuses_a_database_that_is_not_empty(tmp_path):
    build_demo(today=dt.date(2026, 10, 1))
    path = tmp_path / "club.json"
    call_command("backup", str(path))
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(path))


@pytest.mark.django_db
def test_restore_refuses_an_unreadable_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="not a readable backup"):
        call_command("restore", str(bad))


def _rows() -> dict[str, list[tuple]]:
    """Every table of the backed-up apps, row by row, primary keys and all (many-to-many
    tables too); permissions by name, since content types are rebuilt on migrate."""
    tables: dict[str, list[tuple]] = {}  # (the links' own ids are left out)
    for label in ("members", "account", "competition", "pairing"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            if model._meta.db_table.startswith("account_") and model.__name__ != "EmailAddress":
                continue
            rows = [tuple(sorted(row.items())) for row in model.objects.order_by("pk").values()]
            if model._meta.auto_created:  # a many-to-many link: its own id is not data
                rows = sorted(tuple(c for c in row if c[0] != "id") for row in rows)
            tables[model._meta.db_table] = rows
    tables["auth_group"] = list(Group.objects.order_by("pk").values_list("pk", "name"))
    tables["auth_group_permissions"] = sorted(
        Group.permissions.through.objects.values_list("group_id", "permission__codename"))
    return tables


@pytest.mark.django_db(transaction=True)
def test_restore_gives_identical_rows_table_by_table_keys_and_microseconds_kept(tmp_path):
    build_demo(today=dt.date(2026, 11, 30))
    # Keys that a renumbering would change: members created after some were deleted.
    User.objects.filter(email__in=["speler29@demo.club"]).update(name="Renamed")
    gap = f.member(name="Gone")
    gap.delete()
    late = f.member(name="Late Member", email="late@example.org")
    AuditRecord.objects.create(action=AuditAction.MEMBER_CHANGE, after={"member": late.pk, "marker": True})
    before = _rows()
    assert any(isinstance(v, dt.datetime) and v.microsecond % 1000
               for rows in before.values() for row in rows for _, v in row), "microseconds"
    path = tmp_path / "club.json"
    call_command("backup", str(path))
    _wipe()
    call_command("restore", str(path))
    after = _rows()
    assert after.keys() == before.keys()
    for table in before:
        assert after[table] == before[table], table
    marker = AuditRecord.objects.get(after__marker=True)
    assert User.objects.get(pk=marker.after["member"]).email == "late@example.org"
