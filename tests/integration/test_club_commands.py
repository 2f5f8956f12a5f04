"""``--club`` on the commands that act on one club's data (members/clubs/commands.py)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from competition.models import Season
from core.tenancy.context import platform_context
from members.clubs.memo import home_club
from members.models import Club
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

SEASON_FILE = {
    "format": "season/1", "system": "classic",
    "players": [{"id": 1, "name": "Henk Jan", "rating": 1850, "start": 1, "fixed": True},
                {"id": 2, "name": "Piet", "rating": 1790, "start": 2, "fixed": False}],
    "evenings": [{"date": "2026-10-02", "half": "winter", "games": [{"white": 1, "black": 2, "result": "1-0"}]}],
}


def _file(tmp_path):
    path = tmp_path / "season.json"
    path.write_text(json.dumps(SEASON_FILE), encoding="utf-8")
    return path


def test_without_club_a_command_acts_on_the_only_club(tmp_path, one_club):
    call_command("import_season", str(_file(tmp_path)), "--name", "copy", stdout=StringIO())
    assert Season.objects.get(slug="copy").club == home_club()
    call_command("export_season", "copy", "-o", str(tmp_path / "out.json"), stdout=StringIO())
    assert json.loads((tmp_path / "out.json").read_text())["players"]


def test_with_several_clubs_a_command_asks_which_and_lists_them(tmp_path):
    season = factories.season(players=4)
    alfa = Club.objects.create(name="Schaakclub Alfa", slug="alfa")
    with pytest.raises(CommandError) as caught:
        call_command("export_season", season.slug, stdout=StringIO())
    assert caught.value.returncode == 2
    assert "--club" in str(caught.value) and "alfa" in str(caught.value) and home_club().slug in str(caught.value)
    with pytest.raises(CommandError, match="no club with the address 'nergens'"):
        call_command("export_season", season.slug, "--club", "nergens", stdout=StringIO())

    call_command("export_season", season.slug, "--club", home_club().slug, stdout=StringIO())
    # The same season name in another club: allowed, and it is that club's.
    call_command("import_season", str(_file(tmp_path)), "--name", season.name, "--club", "alfa", stdout=StringIO())
    with platform_context():  # the test looks across clubs
        copy = Season.objects.get(club=alfa)
    assert copy.slug == season.slug and copy.pk != season.pk
    # Club alfa's season is not found under the home club's name, nor the other way round.
    with pytest.raises(CommandError, match="no season"):
        call_command("export_season", "other", "--club", "alfa", stdout=StringIO())


@pytest.mark.parametrize("command", ["export_season", "import_season", "backup", "load_demo"])
def test_every_command_of_a_club_with_several_clubs_and_no_club_names_them(command, tmp_path, one_club):
    """The commands' one policy, each kind: a command on a club's seasons (export,
    import), the club's backup, and the demo's builder, which builds its Keizer club in
    the club it is given. Before, ``load_demo`` (the one ``ClubCommand``) went on in the
    installation's first club."""
    Club.objects.create(name="Schaakclub Alfa", slug="alfa")
    args = {"export_season": ["any"], "import_season": [str(_file(tmp_path))],
            "backup": [str(tmp_path / "copy.json")], "load_demo": []}[command]
    with pytest.raises(CommandError) as caught, override_settings(DEBUG=True):
        call_command(command, *args, stdout=StringIO(), stderr=StringIO())
    assert caught.value.returncode == 2
    assert "--club" in str(caught.value) and "alfa" in str(caught.value) and home_club().slug in str(caught.value)
    with platform_context():
        assert not Season.objects.exists()


@override_settings(DEBUG=True)
def test_load_demo_if_empty_on_a_database_with_a_season_does_nothing_whatever_the_clubs():
    """``make run`` a second time: three demo clubs and no ``--club``, and it says so
    instead of asking which club (the decoy club is the test database's second club,
    and only it has a season here)."""
    with platform_context():
        assert Club.objects.count() >= 2 and not Season.objects.filter(club=home_club()).exists()
    out = StringIO()
    call_command("load_demo", "--if-empty", stdout=out, stderr=StringIO())
    assert "Demo not loaded" in out.getvalue()
