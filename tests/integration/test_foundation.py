"""Foundation: roles, season set-up, database constraints, configuration errors."""

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from competition.models import Bye, Evening, Game, Half, Registration, Season
from competition.season import services
from members.clubs.memo import home_club
from members.clubs.roles import ROLE_PERMISSIONS, ROLES
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
ROOT = Path(__file__).resolve().parents[2]


def test_each_role_holds_exactly_its_explicit_permissions_in_its_club():
    """A role is a membership in a club (members/clubs/backends.py); the role groups of the
    single-club days grant nothing."""
    for role, perms in ROLE_PERMISSIONS.items():
        member = f.member(role=role)
        assert {p for p in ROLE_PERMISSIONS[ROLES[-1]] if member.has_perm(p)} == set(perms), role


def test_only_the_administrator_may_set_up_a_season():
    with pytest.raises(PermissionDenied):
        services.season_set_up(actor=f.member(), name="x", opening=dt.date(2026, 9, 4),
                               last_day=dt.date(2027, 7, 1), system="pion", club=home_club())
    assert not Season.objects.exists()


def test_season_set_up_proposes_calendar_halves_and_preset_parameters():
    s = f.season(players=0, knsb_rounds=[dt.date(2026, 10, 10)], closed=[dt.date(2026, 12, 25)])
    assert s.competition.parameters["loss"] == {"fixed": 5}
    assert s.competition.min_evenings_between == 5
    halves = {h.kind: h for h in Half.objects.filter(season=s)}
    assert set(halves) == {"winter", "summer"}
    assert len(f.playing_evenings(s, "winter")) == 10
    assert len(f.playing_evenings(s, "summer")) == 10
    rapid = Evening.objects.get(season=s, date=dt.date(2026, 10, 9))
    assert rapid.kind == "rapid" and rapid.half is None
    first = f.playing_evenings(s, "winter")[0]
    assert first.deadline.isoformat() == "2026-09-10T16:00:00+00:00"  # Thu 18:00 CEST


def test_ladder_season_has_one_period():
    s = f.season(system="ladder", players=0, last_day=dt.date(2027, 1, 31))
    assert list(s.halves.values_list("kind", flat=True)) == ["season"]


def test_two_seasons_with_one_name_are_refused_with_a_message():
    actor = f.admin()
    services.season_set_up(actor=actor, name="2026-2027", opening=dt.date(2026, 9, 4),
                           last_day=dt.date(2027, 7, 1), system="pion", club=home_club())
    with pytest.raises(ValidationError, match="exists already"):
        services.season_set_up(actor=actor, name="2026-2027", opening=dt.date(2026, 9, 4),
                               last_day=dt.date(2027, 7, 1), system="pion", club=home_club())
    assert Season.objects.count() == 1


def test_a_failed_set_up_saves_nothing():
    with pytest.raises(ValidationError):
        services.season_set_up(actor=f.admin(), name="bad", opening=dt.date(2027, 9, 4),
                               last_day=dt.date(2027, 9, 1), system="pion", club=home_club())
    assert not Season.objects.exists() and not Evening.objects.exists()


def _two_games(s):
    evening = f.playing_evenings(s)[0]
    p = list(s.players.order_by("start"))
    Game.objects.create(evening=evening, board=1, white=p[0], black=p[1])
    return evening, p


def test_database_refuses_a_player_in_two_games_of_one_evening():
    s = f.season(players=4)
    evening, p = _two_games(s)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(evening=evening, board=2, white=p[2], black=p[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(evening=evening, board=2, white=p[1], black=p[2])
    with pytest.raises(IntegrityError), transaction.atomic():
        Bye.objects.create(evening=evening, player=p[1])


def test_database_refuses_a_game_against_oneself_and_a_board_twice():
    s = f.season(players=4)
    evening, p = _two_games(s)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(evening=evening, board=2, white=p[2], black=p[2])
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(evening=evening, board=1, white=p[2], black=p[3])


def test_database_refuses_two_registrations_of_one_player_for_one_evening():
    s = f.season(players=2)
    evening = f.playing_evenings(s)[0]
    player = s.players.first()
    Registration.objects.create(evening=evening, player=player, status="present")
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(evening=evening, player=player, status="club_duty")


def test_service_turns_a_double_pairing_into_a_clear_message():
    s = f.season(players=4)
    evening, p = _two_games(s)
    with pytest.raises(ValidationError, match="already paired"):
        services.game_create(evening=evening, board=2, white=p[0], black=p[2])
    assert evening.games.count() == 1


def test_a_whole_pairing_is_written_at_once_and_refused_as_one_game_is():
    s = f.season(players=6)
    evening = f.playing_evenings(s)[0]
    p = list(s.players.order_by("start"))
    games = services.games_create(evening=evening, games=[(1, p[0], p[1]), (2, p[2], p[3])])
    assert [(g.board, g.white_id, g.black_id) for g in evening.games.order_by("board")] == [
        (g.board, g.white_id, g.black_id) for g in games]
    # A player twice in the pairing itself (white on one board, black on another): the
    # trigger sees the rows written before it in the same INSERT.
    second = f.playing_evenings(s)[1]
    with pytest.raises(ValidationError, match="already paired"):
        services.games_create(evening=second, games=[(1, p[0], p[1]), (2, p[2], p[0])])
    assert not second.games.exists()
    other = f.season(players=2, name="elders")
    with pytest.raises(ValidationError, match="take part in this season"):
        services.games_create(evening=evening, games=[(3, p[4], other.players.first())])
    assert evening.games.count() == 2


def _manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}, timeout=60,
    )


def test_unreachable_database_stops_start_up_with_one_clear_line(tmp_path):
    result = _manage(
        "migrate", "--check", DJANGO_DEBUG="1", RANGLIJST_VAR_DIR=str(tmp_path),
        DATABASE_URL="postgres://nobody@127.0.0.1:1/none",
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Database unavailable")
    assert "nobody" not in lines[0]  # no credentials in the message


def test_missing_secret_key_in_production_stops_start_up_with_one_clear_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0",
             "RANGLIJST_VAR_DIR": str(tmp_path)}, timeout=60,
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr.strip().splitlines()[0]


def test_bad_database_url_scheme_is_one_line(tmp_path):
    result = _manage("check", DJANGO_DEBUG="1", RANGLIJST_VAR_DIR=str(tmp_path),
                     DATABASE_URL="nosuchdb://x/y")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_calendar_notes_are_written_in_the_language_of_whoever_sets_up_the_season():
    from django.utils import translation

    with translation.override("nl"):
        s = f.season(players=0)
    notes = list(Evening.objects.filter(season=s, kind="playoff").order_by("date")
                 .values_list("note", flat=True))
    assert notes == ["play-offs, avond 1", "play-offs, avond 2", "play-offs, avond 3"]
    assert not Evening.objects.filter(season=s, kind="rapid").exclude(note="").exists()
