"""`backup` writes a complete club; `restore` loads it into an empty database with
identical standings."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competition.demo import build_demo
from competition.models import AuditRecord, Game, Season, Standing
from members.models import User


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
    assert user.groups.filter(name="player").exists()


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
